import { Center, Loader } from '@mantine/core';

export function FullPageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Center h="100vh" role="status" aria-label={label}>
      <Loader size="md" />
    </Center>
  );
}
