import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { getToken, removeToken } from '../lib/token';
import { resetAuth } from '../stores/auth';

export default function ServerErrorPage() {
  useDocumentTitle('Server error');
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="xs" ta="center">
        <Text fz={64} fw={800} c="gray.4" lh={1}>
          500
        </Text>
        <Title order={1} fz="h3">
          Server error
        </Title>
        <Text c="dimmed" size="sm">
          {/* The server's own words when it gave any (e.g. a blocked address), else the generic line. */}
          {new URLSearchParams(window.location.search).get('reason') ?? 'The server could not answer. Try again in a moment.'}
        </Text>
        <Group mt="sm">
          <Button variant="default" onClick={() => window.location.assign(getToken() ? '/dashboard' : '/login')}>
            Try again
          </Button>
          <Button
            variant="subtle"
            onClick={() => {
              // Signing in again means leaving the stored session, or /login would send us straight back here.
              removeToken();
              resetAuth();
              window.location.assign('/login');
            }}
          >
            Sign in
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
