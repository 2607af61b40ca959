import { Button, Group, Paper, PasswordInput, Stack, Text } from '@mantine/core';
import { changePasswordBody, PASSWORD_MIN } from '@pitboss/contract';
import { useState, type FormEvent } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { callApi } from '../../lib/api';
import { useSchemaForm } from '../../lib/form';
import { toast } from '../../lib/toast';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

export default function ChangePasswordPage() {
  const form = useSchemaForm(changePasswordBody, EMPTY);
  const [saving, setSaving] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const body = await form.validate();
    if (!body) return;
    setSaving(true);
    const res = await callApi('POST /api/admin/changePassword', { body });
    setSaving(false);
    if (!res.success) {
      if (res.errors) form.setErrors(res.errors);
      toast.error(res.message);
      return;
    }
    form.reset(EMPTY);
    toast.success(res.message || 'Password changed');
  }

  return (
    <>
      <PageHeader title="Change password" description="Changing the password signs out your other sessions; this one stays." />
      <Paper withBorder p="md" radius="md" maw={480}>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="sm">
            <PasswordInput label="Current password" autoComplete="current-password" required {...form.textProps('currentPassword')} />
            <PasswordInput
              label="New password"
              description={`At least ${PASSWORD_MIN} characters, hard to guess: a few uncommon words work well`}
              autoComplete="new-password"
              required
              {...form.textProps('newPassword')}
            />
            <PasswordInput label="Confirm password" autoComplete="new-password" required {...form.textProps('confirmPassword')} />
            <Group justify="flex-end">
              <Button type="submit" loading={saving}>
                Change password
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              You stay signed in here after the change.
            </Text>
          </Stack>
        </form>
      </Paper>
    </>
  );
}
