import { Button, Checkbox, Menu, ScrollArea, Stack } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import type { ResourceListController } from '../hooks/useResourceList';

/**
 * Show or hide columns; the choice is kept per resource in this browser. A long list (a market's
 * thirty columns) scrolls inside the menu, so "Reset to default" stays in view.
 */
export function ColumnMenu({ list }: { list: ResourceListController }) {
  const { spec, columns } = list;
  return (
    <Menu position="bottom-end" closeOnItemClick={false} withinPortal>
      <Menu.Target>
        <Button size="xs" variant="default" leftSection={<IconColumns size={14} />}>
          Columns
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Visible columns</Menu.Label>
        <ScrollArea.Autosize mah="min(60vh, 440px)" type="auto">
          <Stack gap={6} px="xs" py={4}>
            {spec.columns.map((c) => (
              <Checkbox key={c.key} size="xs" label={c.label} checked={columns.isVisible(c)} onChange={(e) => columns.setVisible(c.key, e.currentTarget.checked)} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
        <Menu.Divider />
        <Menu.Item onClick={columns.reset}>Reset to default</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
