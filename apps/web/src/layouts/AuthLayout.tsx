import { Box, Center, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { Outlet, useMatches } from 'react-router';
import type { RouteHandle } from '../app/routes';
import { useDocumentTitle } from '../components/useDocumentTitle';

/** Centred card for the public pages (sign in, forgot and reset password). */
export function AuthLayout() {
  const handle = useMatches().at(-1)?.handle as RouteHandle | undefined;
  useDocumentTitle(handle?.route.title ?? 'Sign in');
  return (
    <Center mih="100vh" p="md">
      <Stack w="100%" maw={400} gap="lg">
        <Group gap="xs" justify="center">
          <ThemeIcon size={36} radius="md" variant="filled" aria-hidden>
            <Text fw={800} fz="lg" c="white">
              P
            </Text>
          </ThemeIcon>
          <Box>
            <Text fw={700} lh={1.1}>
              Pitboss
            </Text>
            <Text size="xs" c="dimmed" lh={1.1}>
              Admin back-office
            </Text>
          </Box>
        </Group>
        <Paper withBorder shadow="sm" radius="md" p="xl">
          <Outlet />
        </Paper>
      </Stack>
    </Center>
  );
}
