import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { getToken } from '../lib/token';

/** What went wrong, in a line: a page that failed to load after a deployment says so. */
function describe(error: unknown): { detail: string; stale: boolean } {
  if (isRouteErrorResponse(error)) return { detail: `${error.status} ${error.statusText}`, stale: false };
  const message = error instanceof Error ? error.message : String(error);
  const stale = /dynamically imported module|Importing a module script failed|error loading dynamically|Failed to fetch/i.test(message);
  return { detail: message.slice(0, 300), stale };
}

/**
 * Every route's error element (seed §8: "Unexpected Application Error!"): a render or loading
 * error shows this page, inside the shell when the shell itself still works, with a way back,
 * instead of the router's developer page.
 */
export default function RouteErrorPage() {
  const error = useRouteError();
  const { detail, stale } = describe(error);
  return (
    // Plain parts only: this page is in the first load (it must show when loading a chunk failed).
    <Stack align="center" justify="center" gap="sm" ta="center" mih="60vh" p="md" maw={600} mx="auto">
        <Title order={1} fz="h3">
          Unexpected Application Error!
        </Title>
        <Text c="dimmed" size="sm">
          {stale
            ? 'This page could not be loaded, most likely because a new version was deployed. Reloading fetches it.'
            : 'Something on this page failed. Your data is safe: nothing was saved by the failure. Reload, or go back to the dashboard.'}
        </Text>
        <Text size="xs" c="dimmed" ff="monospace" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="route-error-detail">
          {detail}
        </Text>
        <Group mt="xs">
          <Button onClick={() => window.location.reload()}>Reload</Button>
          <Button variant="default" onClick={() => window.location.assign(getToken() ? '/dashboard' : '/login')}>
            Go to the dashboard
          </Button>
        </Group>
    </Stack>
  );
}
