import type { ResourceSpec } from '@pitboss/contract';
import { Accordion, Alert, Anchor, Badge, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { fetchList, resourceKeys } from '../api';
import { AuditDiff } from './AuditDiff';
import { formatDate, humanise, statusColor } from './CellValue';
import { AUDIT_ACTIONS, isAuditAction } from '@pitboss/contract';
import { exactDateTime } from '../../lib/dates';

const HISTORY_LIMIT = 50;

/** The audit trail of one record, newest first, each entry opening to its before/after diff. */
export function RecordHistory({ spec, id }: { spec: ResourceSpec; id: string }) {
  const filters = { resource: spec.name, recordId: id };
  const query = useQuery({
    // Under the resource's key too, so a save refreshes it.
    queryKey: [...resourceKeys.all(spec.name), 'history', id],
    queryFn: ({ signal }) => fetchList({ name: 'audit-log' }, { ...filters, limit: HISTORY_LIMIT, sort: '-createdAt' }, signal),
  });
  const fullLog = `/audit-log?${new URLSearchParams(filters).toString()}`;

  if (query.isPending) {
    return (
      <Stack gap="xs">
        {Array.from({ length: 3 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders in a fixed order
          <Skeleton key={i} h={40} radius="sm" />
        ))}
      </Stack>
    );
  }
  if (query.error) {
    return (
      <Alert color="red" variant="light" title="Could not load the history">
        <Group justify="space-between">
          <Text size="sm">{query.error.message}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
            Retry
          </Button>
        </Group>
      </Alert>
    );
  }
  const items = query.data.items;
  if (items.length === 0) return <Text c="dimmed" size="sm">No recorded changes.</Text>;
  return (
    <Stack gap="sm" data-testid="record-history">
      <Accordion variant="separated" multiple>
        {items.map((entry) => (
          <Accordion.Item key={entry._id} value={entry._id}>
            <Accordion.Control>
              <Group gap="sm" wrap="nowrap">
                <Text size="sm" w={140} style={{ whiteSpace: 'nowrap' }} title={exactDateTime(entry.createdAt)}>
                  {formatDate(entry.createdAt)}
                </Text>
                <Badge variant="light" color={statusColor(String(entry.action))}>
                  {isAuditAction(String(entry.action)) ? AUDIT_ACTIONS[String(entry.action) as keyof typeof AUDIT_ACTIONS] : humanise(String(entry.action))}
                </Badge>
                <Text size="sm" c="dimmed" truncate>
                  {String(entry.adminEmail ?? 'system')}
                  {entry.ip ? ` · ${String(entry.ip)}` : ''}
                </Text>
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <AuditDiff before={entry.before} after={entry.after} />
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
      <Text size="xs" c="dimmed">
        {query.data.total > items.length ? `Latest ${items.length} of ${query.data.total}. ` : ''}
        <Anchor component={Link} to={fullLog} size="xs">
          Open in the audit log
        </Anchor>
      </Text>
    </Stack>
  );
}
