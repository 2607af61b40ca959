import { Alert, Anchor, Button, Group, Menu, Paper, Text } from '@mantine/core';
import { IconArchive, IconChevronDown, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { ResourceListController } from '../hooks/useResourceList';
import { ConfirmModal } from './ConfirmModal';
import { midSentence } from '../text';

const label = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "Select all matching" banner: shown once every row of the page is ticked and more match. */
export function SelectAllBanner({ list }: { list: ResourceListController }) {
  if (!list.canSelect || !list.pageAllSelected || list.items.length === 0) return null;
  if (list.allMatching) {
    return (
      <Alert variant="light" color="blue" p="xs">
        <Group gap="xs" justify="center">
          <Text size="sm">
            All {list.total.toLocaleString()}
            {list.totalCapped ? '+' : ''} matching {midSentence(list.spec.plural)} are selected.
          </Text>
          <Anchor component="button" size="sm" onClick={list.clearSelection}>
            Clear selection
          </Anchor>
        </Group>
      </Alert>
    );
  }
  if (list.total <= list.items.length) return null;
  return (
    <Alert variant="light" color="blue" p="xs">
      <Group gap="xs" justify="center">
        <Text size="sm">All {list.items.length} on this page are selected.</Text>
        <Anchor component="button" size="sm" onClick={list.selectAllMatching}>
          Select all matching ({list.total.toLocaleString()}
          {list.totalCapped ? '+' : ''})
        </Anchor>
      </Group>
    </Alert>
  );
}

/** Actions over the selection: set a status, delete (confirmed). */
export function BulkBar({ list }: { list: ResourceListController }) {
  const [confirmDelete, setConfirmDelete] = useState(false);
  const isArchive = list.spec.deleteMode === 'archive';
  // Status changes are confirmed too: disabling admins ends their sessions, and "all matching" can be thousands.
  const [pendingStatus, setPendingStatus] = useState<string | null>(null);
  if (!list.canSelect || list.selectedCount === 0) return null;
  const count = list.selectedCount;
  const what = count === 1 ? midSentence(list.spec.label) : midSentence(list.spec.plural);
  return (
    <Paper withBorder p="xs" radius="md" bg="var(--mantine-color-blue-light)" data-testid="bulk-bar">
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {count.toLocaleString()} {what} selected
        </Text>
        <Group gap="xs">
          {list.bulkStatuses.length > 0 && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button size="xs" variant="default" rightSection={<IconChevronDown size={14} />} loading={list.bulkPending}>
                  Set status
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {list.bulkStatuses.map((s) => (
                  <Menu.Item key={s} onClick={() => setPendingStatus(s)}>
                    {label(s)}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
          {list.canDelete && (
            <Button size="xs" color="red" variant="light" leftSection={isArchive ? <IconArchive size={14} /> : <IconTrash size={14} />} onClick={() => setConfirmDelete(true)}>
              {isArchive ? 'Archive' : 'Delete'}
            </Button>
          )}
          <Button size="xs" variant="subtle" color="gray" onClick={list.clearSelection}>
            Clear
          </Button>
        </Group>
      </Group>
      <ConfirmModal
        opened={pendingStatus !== null}
        title={`Set ${count.toLocaleString()} ${what} to “${pendingStatus ? label(pendingStatus) : ''}”?`}
        confirmLabel="Change status"
        color="blue"
        loading={list.bulkPending}
        onCancel={() => setPendingStatus(null)}
        onConfirm={() => {
          if (pendingStatus) void list.runBulk({ action: 'status', status: pendingStatus }).finally(() => setPendingStatus(null));
        }}
      >
        {list.allMatching
          ? `Every ${midSentence(list.spec.label)} matching the current search and filters will change.`
          : 'The selected records will change.'}
      </ConfirmModal>
      <ConfirmModal
        opened={confirmDelete}
        title={`${isArchive ? 'Archive' : 'Delete'} ${count.toLocaleString()} ${what}?`}
        confirmLabel={isArchive ? 'Archive' : 'Delete'}
        loading={list.bulkPending}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          void list.runBulk({ action: 'delete' }).finally(() => setConfirmDelete(false));
        }}
      >
        {isArchive
          ? list.allMatching
            ? `Every ${midSentence(list.spec.label)} matching the current search and filters will be archived (they can be restored).`
            : 'The selected records will be archived (they can be restored).'
          : list.allMatching
            ? `Every ${midSentence(list.spec.label)} matching the current search and filters will be deleted. This cannot be undone.`
            : 'The selected records will be deleted. This cannot be undone.'}
      </ConfirmModal>
    </Paper>
  );
}
