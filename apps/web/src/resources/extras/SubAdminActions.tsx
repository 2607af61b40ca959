import { setAdminPasswordBody } from '@pitboss/contract';
import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { IconKey, IconLogout } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { issuesToErrors } from '../../lib/form';
import { toast } from '../../lib/toast';
import { postAction, resourceKeys, resourcePath } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import type { RecordActionsProps } from './index';

/** Sub-admin actions beyond the generic form: set a new password (ends their sessions), end their sessions. */
export function SubAdminActions({ spec, id, record }: RecordActionsProps) {
  const queryClient = useQueryClient();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [endOpen, setEndOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const name = String(record?.name ?? 'this sub-admin');
  const sessions = typeof record?.liveSessions === 'number' ? record.liveSessions : null;

  const refresh = () => queryClient.invalidateQueries({ queryKey: resourceKeys.all(spec.name) });

  const closePassword = () => {
    setPasswordOpen(false);
    setPassword('');
    setPasswordError(undefined);
  };

  const submitPassword = async () => {
    const parsed = setAdminPasswordBody.safeParse({ password });
    if (!parsed.success) {
      setPasswordError(issuesToErrors(parsed.error.issues).password);
      return;
    }
    setBusy(true);
    try {
      const res = await postAction(resourcePath(spec.name, `/${id}/password`), { password });
      if (!res.success) {
        setPasswordError(res.errors?.password);
        toast.error(res.message);
        return;
      }
      toast.success(res.message);
      closePassword();
      await refresh();
    } finally {
      setBusy(false);
    }
  };

  const endSessions = async () => {
    setBusy(true);
    try {
      const res = await postAction(resourcePath(spec.name, `/${id}/end-sessions`));
      if (res.success) toast.success(res.message);
      else toast.error(res.message);
      setEndOpen(false);
      await refresh();
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Group gap="xs">
        <Button variant="default" leftSection={<IconKey size={16} />} onClick={() => setPasswordOpen(true)}>
          Set new password
        </Button>
        <Button variant="default" leftSection={<IconLogout size={16} />} onClick={() => setEndOpen(true)}>
          End sessions{sessions !== null ? ` (${sessions})` : ''}
        </Button>
      </Group>

      <Modal opened={passwordOpen} onClose={closePassword} title={<Text fw={600}>Set a new password for {name}</Text>} centered>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submitPassword();
          }}
        >
          <Stack>
            <Text size="sm" c="dimmed">
              Their current sessions end; they sign in again with the new password.
            </Text>
            <PasswordInput
              label="New password"
              name="new-password"
              autoComplete="new-password"
              description="8 to 128 characters, hard to guess: a few uncommon words work well"
              value={password}
              onChange={(e) => {
                setPassword(e.currentTarget.value);
                setPasswordError(undefined);
              }}
              error={passwordError}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={closePassword} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" loading={busy}>
                Set password
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>

      <ConfirmModal opened={endOpen} title={`End ${name}'s sessions?`} confirmLabel="End sessions" loading={busy} onCancel={() => setEndOpen(false)} onConfirm={() => void endSessions()}>
        They are signed out everywhere at their next request.
      </ConfirmModal>
    </>
  );
}
