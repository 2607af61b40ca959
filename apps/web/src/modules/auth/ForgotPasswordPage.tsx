import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { RESET_TOKEN_MINUTES } from '@pitboss/contract';
import { IconMailCheck } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { callApi } from '../../lib/api';
import { useSchemaForm } from '../../lib/form';
import { loadForgotPasswordSchema } from '../../lib/schemaLoaders';
import { toast } from '../../lib/toast';

/** The same confirmation whatever the email: the page never tells whether an account exists. */
export const FORGOT_CONFIRMATION = `If this email belongs to an admin, a link to reset the password has been sent. The link works once, for ${RESET_TOKEN_MINUTES} minutes.`;

export default function ForgotPasswordPage() {
  const form = useSchemaForm(loadForgotPasswordSchema, { email: '' });
  const [submitting, setSubmitting] = useState(false);
  const [sent, setSent] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const body = await form.validate();
    if (!body) return;
    setSubmitting(true);
    const res = await callApi('POST /api/admin/forgotPassword', { body });
    setSubmitting(false);
    if (res.success) {
      setSent(true);
      return;
    }
    if (res.errors) form.setErrors(res.errors);
    toast.error(res.message);
  }

  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h3">
          Forgot password
        </Title>
        <Text size="sm" c="dimmed">
          Enter the email of your admin account and we will send a link to choose a new password.
        </Text>
      </div>
      {sent ? (
        <Alert color="teal" variant="light" icon={<IconMailCheck size={18} />} title="Check your mail" role="status">
          {FORGOT_CONFIRMATION}
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <TextInput label="Email" type="email" autoComplete="username" autoFocus required withAsterisk={false} {...form.textProps('email')} />
            <Button type="submit" loading={submitting} fullWidth>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/login" size="sm" ta="center">
        Back to sign in
      </Anchor>
    </Stack>
  );
}
