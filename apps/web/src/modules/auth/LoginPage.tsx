import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import type { LoginResult } from '@pitboss/contract';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { callApi } from '../../lib/api';
import { useSchemaForm } from '../../lib/form';
import { loadLoginSchema } from '../../lib/schemaLoaders';
import { toast } from '../../lib/toast';
import { setToken } from '../../lib/token';
import { resetAuth } from '../../stores/auth';

// The second step (2FA) loads only for admins who have it on: the sign-in page's first load stays small.
const TwoFactorStep = lazy(() => import('./TwoFactorStep'));

export default function LoginPage() {
  const navigate = useNavigate();
  const form = useSchemaForm(loadLoginSchema, { email: '', password: '' });
  const [submitting, setSubmitting] = useState(false);
  const [challenge, setChallenge] = useState<string | null>(null);

  function signedIn(result: LoginResult, message: string) {
    // A fresh session: nothing kept from a previous admin; the private layout loads getadmindetail.
    resetAuth();
    void import('../../lib/queryClient').then((m) => m.queryClient.clear());
    setToken(result.token);
    toast.success(message || 'Signed in');
    // Only a path inside the app: never an absolute URL (open redirect).
    const next = new URLSearchParams(window.location.search).get('next');
    navigate(next && /^\/(?!\/)[^\\]*$/.test(next) ? next : '/dashboard', { replace: true });
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const body = await form.validate();
    if (!body) return;
    setSubmitting(true);
    const res = await callApi('POST /api/admin/login', { body });
    setSubmitting(false);
    if (!res.success || !res.result) {
      if (res.errors) form.setErrors(res.errors);
      toast.error(res.message);
      return;
    }
    if ('twoFactorRequired' in res.result) {
      setChallenge(res.result.challenge);
      return;
    }
    signedIn(res.result, res.message);
  }

  if (challenge) {
    return (
      <Suspense fallback={null}>
        <TwoFactorStep
          challenge={challenge}
          onSignedIn={signedIn}
          onRestart={() => {
            setChallenge(null);
            form.reset({ email: form.values.email, password: '' });
          }}
        />
      </Suspense>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} fz="h3">
            Sign in
          </Title>
          <Text size="sm" c="dimmed">
            Use your administrator account.
          </Text>
        </div>
        <TextInput label="Email" type="email" autoComplete="username" autoFocus required withAsterisk={false} {...form.textProps('email')} />
        <PasswordInput label="Password" autoComplete="current-password" required withAsterisk={false} {...form.textProps('password')} />
        <Group justify="space-between">
          <Anchor component={Link} to="/forgetPassword" size="sm">
            Forgot password?
          </Anchor>
          <Button type="submit" loading={submitting}>
            Sign in
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
