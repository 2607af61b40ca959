import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { getToken } from '../lib/token';

export default function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="xs" ta="center">
        <Text fz={64} fw={800} c="gray.4" lh={1}>
          404
        </Text>
        <Title order={1} fz="h3">
          Page not found
        </Title>
        <Text c="dimmed" size="sm">
          The address does not match any page of the back-office.
        </Text>
        <Button component={Link} to={getToken() ? '/dashboard' : '/login'} mt="sm">
          {getToken() ? 'Go to the dashboard' : 'Go to sign in'}
        </Button>
      </Stack>
    </Center>
  );
}
