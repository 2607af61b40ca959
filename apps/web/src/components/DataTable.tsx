import { Group, Pagination, Paper, ScrollArea, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { EmptyState } from './EmptyState';

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  width?: number | string;
}

/**
 * A server-paginated table: columns, rows, empty state and the pager.
 * Loading and error states come from `QueryStatus` around it.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  page,
  limit,
  total,
  onPageChange,
  empty,
  caption,
}: {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  page: number;
  limit: number;
  total: number;
  onPageChange: (page: number) => void;
  empty: ReactNode;
  caption: string;
}) {
  const pages = Math.max(1, Math.ceil(total / limit));
  const from = total === 0 ? 0 : (page - 1) * limit + 1;
  const to = Math.min(total, page * limit);
  return (
    <Paper withBorder radius="md">
      {rows.length === 0 ? (
        <EmptyState title={typeof empty === 'string' ? empty : 'Nothing here yet'}>{typeof empty === 'string' ? null : empty}</EmptyState>
      ) : (
        <ScrollArea type="auto">
          <Table striped highlightOnHover miw={720} aria-label={caption}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.key} w={c.width}>
                    {c.header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={rowKey(row)}>
                  {columns.map((c) => (
                    <Table.Td key={c.key}>{c.render(row)}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      <Group justify="space-between" px="md" py="xs" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
        <Text size="xs" c="dimmed">
          {total === 0 ? 'No rows' : `${from}–${to} of ${total}`}
        </Text>
        {pages > 1 ? <Pagination size="sm" total={pages} value={Math.min(page, pages)} onChange={onPageChange} aria-label="Pages" /> : null}
      </Group>
    </Paper>
  );
}
