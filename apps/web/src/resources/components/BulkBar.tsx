import { formatMoney, type ActionSpec, type BulkActionResult, type BulkPreview, type ResourceSpec } from '@pitboss/contract';
import { Alert, Anchor, Button, Group, Menu, Modal, Paper, ScrollArea, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconArchive, IconChevronDown, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { toast } from '../../lib/toast';
import type { ResourceListController } from '../hooks/useResourceList';
import { ActionDialog, type SubmitAnswer } from './ActionDialog';
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

/** What a bulk action left alone, and why: shown after it ran, until closed. */
function SkippedList({ outcome, onClose }: { outcome: { action: ActionSpec; message: string; result: BulkActionResult } | null; onClose: () => void }) {
  return (
    <Modal opened={outcome !== null} onClose={onClose} title={<Text fw={600}>{outcome?.message}</Text>} centered size="lg">
      {outcome && (
        <Stack data-testid="bulk-skipped">
          <Text size="sm">
            {outcome.result.skipped.length === 1 ? 'This record was left as it was:' : `These ${outcome.result.skipped.length} records were left as they were:`}
          </Text>
          <ScrollArea.Autosize mah={360}>
            <Table verticalSpacing={4}>
              <Table.Tbody>
                {outcome.result.skipped.map((s) => (
                  <Table.Tr key={s.id} data-skipped-id={s.id}>
                    <Table.Td w={90} ff="monospace">
                      #{s.id}
                    </Table.Td>
                    <Table.Td>{s.reason}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-autofocus>
              Close
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** Actions over the selection: the declared bulk actions (approve, block…), set a status, delete (confirmed). */
/**
 * What a bulk action would act on, before it runs: how many (and how many it would skip for their
 * state), and per coin the total and the largest item, so a set is never approved blind.
 */
function BulkPreviewSummary({ preview, loading, error, spec }: { preview: BulkPreview | undefined; loading: boolean; error: boolean; spec: ResourceSpec }) {
  if (loading) return <Skeleton h={40} radius="sm" />;
  if (error || !preview) return <Text size="sm" c="red">Could not read what this covers: check the selection before going on.</Text>;
  const what = (n: number) => `${n.toLocaleString('en')} ${midSentence(n === 1 ? spec.label : spec.plural)}`;
  return (
    <Paper withBorder p="xs" radius="sm" data-testid="bulk-preview">
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          Acts on {what(preview.count)}
          {preview.notApplicable > 0 ? ` (${what(preview.notApplicable)} skipped: their state does not allow it)` : ''}
        </Text>
        {preview.totals.map((t) => (
          <Text size="sm" key={t.coin} data-coin={t.coin}>
            Total <b>{formatMoney(t.total, t.decimals, t.coin)}</b> over {t.count.toLocaleString('en')} · largest <b>{formatMoney(t.largest.amount, t.decimals, t.coin)}</b> (#{t.largest._id})
          </Text>
        ))}
      </Stack>
    </Paper>
  );
}

export function BulkBar({ list }: { list: ResourceListController }) {
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [pendingAction, setPendingAction] = useState<ActionSpec | null>(null);
  const [outcome, setOutcome] = useState<{ action: ActionSpec; message: string; result: BulkActionResult } | null>(null);
  const isArchive = list.spec.deleteMode === 'archive';
  // Status changes are confirmed too: disabling admins ends their sessions, and "all matching" can be thousands.
  const [pendingStatus, setPendingStatus] = useState<string | null>(null);
  // Read when an action's dialog opens: what it would act on, its total per coin and largest item.
  const preview = useQuery({
    queryKey: ['bulk-preview', list.spec.name, pendingAction?.name, list.selectionKey],
    queryFn: ({ signal }) => list.previewBulkAction(pendingAction!, signal),
    enabled: pendingAction !== null,
    staleTime: 0,
    gcTime: 0,
  });
  // The summary of the last bulk action outlives the selection it cleared.
  if (!list.canSelect || list.selectedCount === 0) return <SkippedList outcome={outcome} onClose={() => setOutcome(null)} />;
  const count = list.selectedCount;
  const what = count === 1 ? midSentence(list.spec.label) : midSentence(list.spec.plural);
  const tooMany = list.totalCapped && list.allMatching ? true : count > list.bulkActionLimit;

  const runAction = async (input: Record<string, unknown>): Promise<SubmitAnswer> => {
    const action = pendingAction;
    if (!action) return undefined;
    const res = await list.runBulkAction(action, input);
    if (!res.success || !res.result) {
      toast.error(res.message);
      return { errors: res.errors ?? {} };
    }
    setPendingAction(null);
    if (res.result.done > 0) toast.success(res.message);
    else toast.error(res.message);
    if (res.result.skipped.length > 0) setOutcome({ action, message: res.message, result: res.result });
    return undefined;
  };
  return (
    <Paper withBorder p="xs" radius="md" bg="var(--mantine-color-blue-light)" data-testid="bulk-bar">
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {count.toLocaleString()} {what} selected
        </Text>
        <Group gap="xs">
          {tooMany && list.bulkActions.length > 0 && (
            <Text size="xs" c="dimmed">
              Actions: at most {list.bulkActionLimit.toLocaleString()} at once
            </Text>
          )}
          {list.bulkActions.map((a) => (
            <Button
              key={a.name}
              size="xs"
              variant={a.danger ? 'light' : 'default'}
              color={a.danger ? 'red' : undefined}
              disabled={tooMany}
              onClick={() => setPendingAction(a)}
              data-bulk-action={a.name}
            >
              {a.label}
            </Button>
          ))}
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
      <ActionDialog
        resource={list.spec.name}
        action={pendingAction}
        title={pendingAction ? `${pendingAction.label}: ${count.toLocaleString()} ${what}` : ''}
        subject={<BulkPreviewSummary loading={preview.isPending} error={preview.isError} preview={preview.data} spec={list.spec} />}
        note={
          list.allMatching
            ? `Every ${midSentence(list.spec.label)} matching the current search and filters, one by one; any the action does not apply to is skipped and listed.`
            : `Each selected ${midSentence(list.spec.label)}, one by one; any the action does not apply to is skipped and listed.`
        }
        onClose={() => setPendingAction(null)}
        submit={runAction}
      />
      <SkippedList outcome={outcome} onClose={() => setOutcome(null)} />
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
