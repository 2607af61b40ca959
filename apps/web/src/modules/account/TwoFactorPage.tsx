import { Alert, Badge, Button, Code, CopyButton, Group, Image, Paper, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { TwoFactorStatus } from '@pitboss/contract';
import { IconShieldCheck, IconShieldOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { DateTime } from '../../components/DateTime';
import { useState, type FormEvent } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { QueryStatus } from '../../components/QueryStatus';
import { reloadAdminDetail } from '../../app/guards';
import { callApi, fetchApi } from '../../lib/api';
import { queryClient } from '../../lib/queryClient';
import { toast } from '../../lib/toast';

const statusQuery = { queryKey: ['2fa-status'], queryFn: ({ signal }: { signal: AbortSignal }) => fetchApi('GET /api/admin/2fa', { signal }) };
const refresh = () => queryClient.invalidateQueries({ queryKey: ['2fa-status'] });

/** The recovery codes, shown once: copy or download them now. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join('\n');
  function download() {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'pitboss-recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  }
  return (
    <Paper withBorder p="md" radius="md" maw={560} data-testid="recovery-codes">
      <Stack gap="sm">
        <Title order={2} fz="h4">
          Your recovery codes
        </Title>
        <Alert color="yellow" variant="light">
          They are shown only now. Keep them somewhere safe: each one signs you in once if you lose your authenticator.
        </Alert>
        <SimpleGrid cols={2} spacing="xs">
          {codes.map((c) => (
            <Code key={c} fz="md" data-recovery-code={c}>
              {c}
            </Code>
          ))}
        </SimpleGrid>
        <Group>
          <CopyButton value={text}>{({ copied, copy }) => <Button variant="default" onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}</CopyButton>
          <Button variant="default" onClick={download}>
            Download
          </Button>
          <Button onClick={onDone}>I have saved them</Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Enrolment: password → QR code and key → first code → on. */
function Enrol({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const [password, setPassword] = useState('');
  const [setup, setSetup] = useState<{ secret: string; qrCode: string } | null>(null);
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function start(event: FormEvent) {
    event.preventDefault();
    if (!password) return setErrors({ password: 'Password is required' });
    setBusy(true);
    const res = await callApi('POST /api/admin/2fa/setup', { body: { password } });
    setBusy(false);
    if (!res.success || !res.result) {
      setErrors(res.errors ?? {});
      if (!res.errors) toast.error(res.message);
      return;
    }
    setErrors({});
    setPassword('');
    setSetup(res.result);
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (!code) return setErrors({ code: 'Enter the code' });
    setBusy(true);
    const res = await callApi('POST /api/admin/2fa/enable', { body: { code } });
    setBusy(false);
    if (!res.success || !res.result) {
      setErrors(res.errors ?? {});
      if (!res.errors) toast.error(res.message);
      setCode('');
      return;
    }
    toast.success(res.message || 'Two-factor authentication is on');
    onEnabled(res.result.recoveryCodes);
  }

  if (!setup) {
    return (
      <form onSubmit={start} noValidate>
        <Stack gap="sm" maw={420}>
          <Text size="sm">Use an authenticator app (Google Authenticator, 1Password, Authy…). Confirm your password to start.</Text>
          <PasswordInput label="Password" autoComplete="current-password" value={password} error={errors.password} onChange={(e) => setPassword(e.currentTarget.value)} />
          <Group>
            <Button type="submit" loading={busy}>
              Set up two-factor authentication
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }
  return (
    <form onSubmit={confirm} noValidate>
      <Stack gap="sm">
        <Text size="sm">1. Scan this QR code with your authenticator app, or type the key by hand.</Text>
        <Image src={setup.qrCode} alt="QR code for your authenticator app" w={200} h={200} bg="white" />
        <Group gap="xs">
          <Text size="sm">Key:</Text>
          <Code data-testid="totp-secret">{setup.secret}</Code>
          <CopyButton value={setup.secret}>{({ copied, copy }) => <Button size="compact-xs" variant="subtle" onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}</CopyButton>
        </Group>
        <Text size="sm">2. Enter the 6-digit code the app shows.</Text>
        <Group align="flex-start">
          <TextInput
            aria-label="Code from the app"
            placeholder="123456"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            error={errors.code}
            onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
          />
          <Button type="submit" loading={busy}>
            Turn on
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Password and a code (or recovery code): turning off, or new recovery codes. */
function Reauth({ label, danger, onSubmit }: { label: string; danger?: boolean; onSubmit: (body: { password: string; code: string }) => Promise<Record<string, string> | null> }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing: Record<string, string> = {};
    if (!password) missing.password = 'Password is required';
    if (!code.trim()) missing.code = 'Enter the code';
    if (Object.keys(missing).length) return setErrors(missing);
    setBusy(true);
    const errs = await onSubmit({ password, code });
    setBusy(false);
    setErrors(errs ?? {});
    if (!errs) {
      setPassword('');
      setCode('');
    }
  }
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <PasswordInput label="Password" autoComplete="current-password" value={password} error={errors.password} onChange={(e) => setPassword(e.currentTarget.value)} />
        <TextInput label="Code from the app, or a recovery code" autoComplete="off" value={code} error={errors.code} onChange={(e) => setCode(e.currentTarget.value)} />
        <Group>
          <Button type="submit" color={danger ? 'red' : undefined} variant={danger ? 'light' : 'default'} loading={busy}>
            {label}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Enabled({ status, onCodes }: { status: TwoFactorStatus; onCodes: (codes: string[]) => void }) {
  return (
    <Stack gap="md">
      <Group gap="xs">
        <Badge color="green" leftSection={<IconShieldCheck size={14} />}>
          On
        </Badge>
        {status.enabledAt && (
          <Text size="sm" c="dimmed">
            since <DateTime value={status.enabledAt} absolute />
          </Text>
        )}
        <Text size="sm" c={status.recoveryCodesLeft <= 2 ? 'red' : 'dimmed'}>
          {status.recoveryCodesLeft === 1 ? '1 recovery code left' : `${status.recoveryCodesLeft} recovery codes left`}
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Paper withBorder p="md" radius="md">
          <Title order={2} fz="h5" mb="xs">
            New recovery codes
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            The old codes stop working.
          </Text>
          <Reauth
            label="Make new codes"
            onSubmit={async (body) => {
              const res = await callApi('POST /api/admin/2fa/recovery-codes', { body });
              if (!res.success || !res.result) {
                if (!res.errors) toast.error(res.message);
                return res.errors ?? {};
              }
              toast.success(res.message || 'New recovery codes made');
              onCodes(res.result.recoveryCodes);
              return null;
            }}
          />
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Title order={2} fz="h5" mb="xs">
            Turn off
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {status.required ? 'This site requires two-factor authentication: turning it off confines you to this page until you enrol again.' : 'Signing in will ask for the password only.'}
          </Text>
          <Reauth
            label="Turn off two-factor authentication"
            danger
            onSubmit={async (body) => {
              const res = await callApi('POST /api/admin/2fa/disable', { body });
              if (!res.success) {
                if (!res.errors) toast.error(res.message);
                return res.errors ?? {};
              }
              toast.success(res.message || 'Two-factor authentication is off');
              await refresh();
              await reloadAdminDetail();
              return null;
            }}
          />
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}

export default function TwoFactorPage() {
  const query = useQuery(statusQuery);
  const status = query.data;
  const [codes, setCodes] = useState<string[] | null>(null);

  async function showCodes(next: string[]) {
    setCodes(next);
    await refresh();
    // The guard reads the flag: a confined admin is free from now on.
    await reloadAdminDetail();
  }

  return (
    <>
      <PageHeader title="Two-factor authentication" description="A code from an authenticator app on top of your password (TOTP)." />
      {status?.required && !status.enabled && (
        <Alert color="orange" variant="light" mb="md" icon={<IconShieldOff size={18} />} title="Required on this site">
          Turn on two-factor authentication to use the rest of the back-office.
        </Alert>
      )}
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      ) : (
        <QueryStatus query={query} loadingLabel="Loading your 2FA status">
          {status && (
            <Paper withBorder p="md" radius="md">
              {status.enabled ? (
                <Enabled status={status} onCodes={showCodes} />
              ) : (
                <Stack gap="sm">
                  <Group gap="xs">
                    <Badge color="gray" leftSection={<IconShieldOff size={14} />}>
                      Off
                    </Badge>
                  </Group>
                  <Enrol onEnabled={showCodes} />
                </Stack>
              )}
            </Paper>
          )}
        </QueryStatus>
      )}
    </>
  );
}
