import { Alert, Anchor, Button, Center, Loader, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { PASSWORD_MIN } from '@pitboss/contract';
import { IconLinkOff } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { callApi, type ApiResponse } from '../../lib/api';
import { useSchemaForm } from '../../lib/form';
import { loadResetPasswordSchema } from '../../lib/schemaLoaders';
import { toast } from '../../lib/toast';

function InvalidLink({ message }: { message: string }) {
  return (
    <Stack gap="md">
      <Alert color="red" variant="light" icon={<IconLinkOff size={18} />} title="This link cannot be used" role="alert">
        {message}
      </Alert>
      <Button component={Link} to="/forgetPassword" variant="light">
        Request a new link
      </Button>
      <Anchor component={Link} to="/login" size="sm" ta="center">
        Back to sign in
      </Anchor>
    </Stack>
  );
}

/** /verification/forgotPassword?token=… : check the token first, then choose the new password. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const navigate = useNavigate();
  // The link is checked once when the page opens: a verdict, not data to keep in a cache.
  const [check, setCheck] = useState<ApiResponse<unknown> | null>(null);
  useEffect(() => {
    if (token === '') return;
    const controller = new AbortController();
    setCheck(null);
    callApi('POST /api/admin/checkauthtoken', { body: { token }, signal: controller.signal }).then(setCheck, () => {});
    return () => controller.abort();
  }, [token]);
  const form = useSchemaForm(loadResetPasswordSchema, { token, password: '', confirmPassword: '' });
  const [submitting, setSubmitting] = useState(false);
  const [tokenProblem, setTokenProblem] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const body = await form.validate();
    if (!body) return;
    setSubmitting(true);
    const res = await callApi('POST /api/admin/resetPassword', { body });
    setSubmitting(false);
    if (res.success) {
      toast.success(res.message || 'Your password has been reset');
      navigate('/login', { replace: true });
      return;
    }
    if (res.errors?.token) {
      setTokenProblem(res.errors.token);
      return;
    }
    if (res.errors) form.setErrors(res.errors);
    toast.error(res.message);
  }

  let content: ReactNode;
  if (token === '') {
    content = <InvalidLink message="The link has no reset token." />;
  } else if (check === null) {
    content = (
      <Center py="lg" role="status" aria-label="Checking the link">
        <Loader size="sm" />
      </Center>
    );
  } else if (tokenProblem || !check.success) {
    content = <InvalidLink message={tokenProblem ?? check.errors?.token ?? check.message ?? 'The link is not valid.'} />;
  } else {
    content = (
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <PasswordInput
            label="New password"
            description={`At least ${PASSWORD_MIN} characters`}
            autoComplete="new-password"
            autoFocus
            required
            withAsterisk={false}
            {...form.textProps('password')}
          />
          <PasswordInput label="Confirm password" autoComplete="new-password" required withAsterisk={false} {...form.textProps('confirmPassword')} />
          <Button type="submit" loading={submitting} fullWidth>
            Reset password
          </Button>
        </Stack>
      </form>
    );
  }

  return (
    <Stack gap="md">
      <div>
        <Title order={1} fz="h3">
          Reset password
        </Title>
        <Text size="sm" c="dimmed">
          Choose a new password for your admin account.
        </Text>
      </div>
      {content}
    </Stack>
  );
}
