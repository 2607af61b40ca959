import { Button, Group, Pagination, Select, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconChevronsLeft } from '@tabler/icons-react';
import type { ResourceListController } from '../hooks/useResourceList';
import { PAGE_SIZES } from '../listState';

/** Page numbers and page size; keyset resources page with First / Previous / Next (cursors) and say which page they are on. */
export function ListPagination({ list }: { list: ResourceListController }) {
  const { state, total, items } = list;
  const sizes = PAGE_SIZES.includes(state.limit as (typeof PAGE_SIZES)[number]) ? PAGE_SIZES.map(String) : [...PAGE_SIZES.map(String), String(state.limit)];
  const sizeSelect = (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" c="dimmed">
        Rows
      </Text>
      <Select
        size="xs"
        w={76}
        aria-label="Rows per page"
        data={sizes}
        value={String(state.limit)}
        onChange={(v) => v && list.setLimit(Number(v))}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
    </Group>
  );
  const totalText = `${total.toLocaleString()}${list.totalCapped ? '+' : ''}`;

  if (list.spec.keyset) {
    const onFirst = !state.cursor && !state.before && state.page === 1;
    const from = (state.page - 1) * state.limit + 1;
    return (
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed" data-testid="list-position">
          Page {state.page.toLocaleString()}
          {items.length > 0 ? ` · ${from.toLocaleString()}–${(from + items.length - 1).toLocaleString()}` : ''} of {totalText}
        </Text>
        <Group gap="xs">
          {sizeSelect}
          <Button size="xs" variant="default" leftSection={<IconChevronsLeft size={14} />} disabled={onFirst} onClick={list.firstPage}>
            First
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconChevronLeft size={14} />}
            disabled={onFirst || (!list.prevCursor && state.page > 2)}
            onClick={() => list.previousPage(list.prevCursor ?? '')}
          >
            Previous
          </Button>
          <Button
            size="xs"
            variant="default"
            rightSection={<IconChevronRight size={14} />}
            disabled={!list.nextCursor}
            onClick={() => list.nextCursor && list.nextPage(list.nextCursor)}
          >
            Next
          </Button>
        </Group>
      </Group>
    );
  }

  const from = total === 0 ? 0 : (state.page - 1) * state.limit + 1;
  const to = Math.min(total, (state.page - 1) * state.limit + items.length);
  return (
    <Group justify="space-between" wrap="wrap">
      <Text size="sm" c="dimmed">
        {from.toLocaleString()}–{to.toLocaleString()} of {totalText}
      </Text>
      <Group gap="md">
        {sizeSelect}
        {list.pageCount > 1 && <Pagination size="sm" total={list.pageCount} value={Math.min(state.page, list.pageCount)} onChange={list.setPage} withEdges />}
      </Group>
    </Group>
  );
}
