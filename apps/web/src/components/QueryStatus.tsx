import { Alert, Button, Center, Loader, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { isNotFound } from '../lib/api';

interface QueryLike {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => unknown;
}

/** One place for the loading and error states of a query; children render once data is there. */
export function QueryStatus({ query, children, loadingLabel = 'Loading' }: { query: QueryLike; children: ReactNode; loadingLabel?: string }) {
  if (query.isPending) {
    return (
      <Center py="xl" role="status" aria-label={loadingLabel}>
        <Loader size="sm" />
      </Center>
    );
  }
  if (query.isError && isNotFound(query.error)) {
    return (
      <Alert color="gray" variant="light" icon={<IconAlertTriangle size={18} />} title="Not found" my="md">
        {query.error?.message || 'It may have been deleted, or the link is wrong.'}
      </Alert>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Could not load this" my="md">
        <Stack gap="xs" align="flex-start">
          {query.error?.message}
          <Button size="xs" variant="light" color="red" onClick={() => query.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  return <>{children}</>;
}
