import { Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import type { LoginResult } from '@pitboss/contract';
import { useState, type FormEvent } from 'react';
import { callApi } from '../../lib/api';
import { toast } from '../../lib/toast';

/** The second sign-in step (2FA on): a code from the authenticator app, or a recovery code. Loaded only when needed. */
export default function TwoFactorStep({ challenge, onSignedIn, onRestart }: { challenge: string; onSignedIn: (result: LoginResult, message: string) => void; onRestart: () => void }) {
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) {
      setError('Enter the code');
      return;
    }
    setSubmitting(true);
    const res = await callApi('POST /api/admin/login/2fa', { body: { challenge, code } });
    setSubmitting(false);
    if (!res.success || !res.result) {
      if (res.errors?.challenge) {
        toast.error(res.message);
        onRestart();
        return;
      }
      setError(res.errors?.code ?? res.message);
      setCode('');
      return;
    }
    onSignedIn(res.result, res.message);
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} fz="h3">
            Two-factor authentication
          </Title>
          <Text size="sm" c="dimmed">
            {useRecovery ? 'Enter one of your recovery codes. Each works once.' : 'Enter the 6-digit code from your authenticator app.'}
          </Text>
        </div>
        {useRecovery ? (
          <TextInput key="recovery" label="Recovery code" placeholder="xxxx-xxxx-xxxx" autoComplete="off" autoFocus value={code} error={error} onChange={(e) => { setCode(e.currentTarget.value); setError(null); }} />
        ) : (
          <TextInput
            key="totp"
            label="Authentication code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            autoFocus
            value={code}
            error={error}
            onChange={(e) => { setCode(e.currentTarget.value.replace(/\D/g, '')); setError(null); }}
          />
        )}
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={() => { setUseRecovery((v) => !v); setCode(''); setError(null); }}>
            {useRecovery ? 'Use the authenticator app' : 'Use a recovery code'}
          </Anchor>
          <Button type="submit" loading={submitting}>
            Verify
          </Button>
        </Group>
        <Anchor component="button" type="button" size="sm" c="dimmed" onClick={onRestart}>
          Back to sign in
        </Anchor>
      </Stack>
    </form>
  );
}
