import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { getToken } from '../lib/token';

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
          The server could not answer. Try again in a moment.
        </Text>
        <Group mt="sm">
          <Button variant="default" onClick={() => window.location.assign(getToken() ? '/dashboard' : '/login')}>
            Try again
          </Button>
          <Button component={Link} to="/login" variant="subtle">
            Sign in
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
