import { Center, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

/** An honest empty state: says what is (not) there, never shows invented data. */
export function EmptyState({ icon, title, children }: { icon?: ReactNode; title: string; children?: ReactNode }) {
  return (
    <Center py="xl" px="md">
      <Stack align="center" gap="xs" maw={460} ta="center">
        {icon ? (
          <ThemeIcon size={48} radius="xl" variant="light" color="gray">
            {icon}
          </ThemeIcon>
        ) : null}
        <Text fw={600}>{title}</Text>
        {children ? (
          <Text size="sm" c="dimmed">
            {children}
          </Text>
        ) : null}
      </Stack>
    </Center>
  );
}
