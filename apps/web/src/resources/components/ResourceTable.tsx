import type { ColumnSpec } from '@pitboss/contract';
import { ActionIcon, Checkbox, Group, Skeleton, Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort, IconChevronRight, IconPencil } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { ResourceRecord } from '../api';
import type { ResourceListController } from '../hooks/useResourceList';
import { RecordCell } from './CellValue';
import { RecordActions } from './RecordActions';

/**
 * A column's heading, in the table's small bold type: a heading wider than its values ("Quantity"
 * over "40") sets the column's least width, so headings stay short and wrap between words.
 */
function SortHeader({ column, sort, onSort }: { column: ColumnSpec; sort: string; onSort: (key: string) => void }) {
  if (!column.sortable) return <>{column.label}</>;
  const dir = sort === column.key ? 'asc' : sort === `-${column.key}` ? 'desc' : null;
  const Icon = dir === 'asc' ? IconArrowUp : dir === 'desc' ? IconArrowDown : IconArrowsSort;
  // Amounts of different coins do not compare: they rank within each coin, coins grouped (`sortWithin`).
  const within = column.sortWithin ? `sorted within each ${column.sortWithin}` : null;
  const button = (
    <UnstyledButton onClick={() => onSort(column.key)} aria-label={`Sort by ${column.label}${within ? `, ${within}` : ''}`} data-sort={dir ?? 'none'}>
      <Group gap={4} wrap="nowrap">
        <Text span fw={600} size="xs">
          {column.label}
        </Text>
        <Icon size={14} stroke={1.6} opacity={dir ? 1 : 0.4} />
      </Group>
    </UnstyledButton>
  );
  if (!within) return button;
  return (
    <Tooltip label={`Sorted within each ${column.sortWithin}: amounts rank per ${column.sortWithin}, ${column.sortWithin}s grouped`} multiline maw={260} openDelay={300}>
      {button}
    </Tooltip>
  );
}

/** Amounts and counts line up on the right (their digits are of equal width: see CellValue). */
const alignOf = (c: ColumnSpec): 'right' | undefined => (c.type === 'money' || c.type === 'number' ? 'right' : undefined);

interface Props {
  list: ResourceListController;
  /** Rows without an update page open here (a details drawer). */
  onOpen: (record: ResourceRecord) => void;
}

/**
 * The table of a resource list: sortable headers, typed cells, row selection, row links. Made to fit
 * its page at 1440 px (a table wider than its container scrolls sideways, its actions out of view):
 * compact cells, small headings, dates that may take two lines, the record's title column (its
 * `titleField`) kept wide enough to read; a declaration hides its less used columns by default
 * (`hidden`, shown again from Columns).
 */
export function ResourceTable({ list, onOpen }: Props) {
  const navigate = useNavigate();
  const columns = list.columns.visibleColumns;
  const selectable = list.canSelect;
  // Declared actions (approve, reject…) the admin may run get a column: the list is where a queue is worked through.
  const hasActions = list.hasActions;
  const skeletonRows = Math.min(list.state.limit, 8);
  const ariaSort = (key: string) => (list.state.sort === key ? 'ascending' : list.state.sort === `-${key}` ? 'descending' : undefined);

  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover verticalSpacing="xs" horizontalSpacing="xs" aria-busy={list.isFetching} style={{ opacity: list.isFetching && !list.isLoading ? 0.6 : 1, transition: 'opacity 120ms' }}>
        <Table.Thead>
          <Table.Tr>
            {selectable && (
              <Table.Th w={40}>
                <Checkbox
                  aria-label="Select all on this page"
                  checked={list.pageAllSelected && list.items.length > 0}
                  indeterminate={list.pageSomeSelected}
                  disabled={list.items.length === 0}
                  onChange={list.togglePage}
                />
              </Table.Th>
            )}
            {columns.map((c) => (
              <Table.Th key={c.key} aria-sort={ariaSort(c.key)} fz="xs" ta={alignOf(c)}>
                <SortHeader column={c} sort={list.state.sort} onSort={list.toggleSort} />
              </Table.Th>
            ))}
            {hasActions && <Table.Th fz="xs">Actions</Table.Th>}
            <Table.Th w={48} aria-label="Open" />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.isLoading
            ? Array.from({ length: skeletonRows }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders in a fixed order
                <Table.Tr key={`skeleton-${i}`} data-skeleton>
                  {selectable && (
                    <Table.Td>
                      <Skeleton h={16} w={16} />
                    </Table.Td>
                  )}
                  {columns.map((c) => (
                    <Table.Td key={c.key}>
                      <Skeleton h={14} radius="sm" />
                    </Table.Td>
                  ))}
                  {hasActions && <Table.Td />}
                  <Table.Td />
                </Table.Tr>
              ))
            : list.items.map((record) => {
                const href = list.rowLink(record);
                const selected = list.isSelected(record._id);
                return (
                  <Table.Tr
                    key={record._id}
                    data-row-id={record._id}
                    bg={selected ? 'var(--mantine-primary-color-light)' : undefined}
                    style={{ cursor: 'pointer' }}
                    onClick={() => (href ? navigate(href) : onOpen(record))}
                  >
                    {selectable && (
                      <Table.Td onClick={(e) => e.stopPropagation()}>
                        <Checkbox aria-label={`Select row ${record._id}`} checked={selected} onChange={() => list.toggleRow(record._id)} />
                      </Table.Td>
                    )}
                    {columns.map((c) => (
                      <Table.Td key={c.key} ta={alignOf(c)}>
                        <RecordCell spec={list.spec} column={c} record={record} compact />
                      </Table.Td>
                    ))}
                    {hasActions && (
                      <Table.Td onClick={(e) => e.stopPropagation()}>
                        <RecordActions spec={list.spec} record={record} size="xs" inList />
                      </Table.Td>
                    )}
                    <Table.Td onClick={(e) => e.stopPropagation()}>
                      {href ? (
                        <Tooltip label={list.canEdit ? 'Edit' : 'View'}>
                          <ActionIcon component={Link} to={href} variant="subtle" aria-label={list.canEdit ? 'Edit' : 'View'}>
                            {list.canEdit ? <IconPencil size={16} /> : <IconChevronRight size={16} />}
                          </ActionIcon>
                        </Tooltip>
                      ) : (
                        <Tooltip label="Details">
                          <ActionIcon variant="subtle" aria-label="Details" onClick={() => onOpen(record)}>
                            <IconChevronRight size={16} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
