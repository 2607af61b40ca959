import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The same header on every page: title (the page's one h1, drawn as before at h3 size), optional description, actions on the right. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" mb="md" wrap="wrap" gap="sm">
      <Stack gap={2}>
        <Title order={1} fz="h3" lh="var(--mantine-h2-line-height)">
          {title}
        </Title>
        {description ? (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        ) : null}
      </Stack>
      {actions ? <Group gap="xs">{actions}</Group> : null}
    </Group>
  );
}
