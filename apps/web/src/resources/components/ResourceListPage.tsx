import type { ResourceSpec, ViewSubjectSpec } from '@pitboss/contract';
import { Alert, Anchor, Badge, Box, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconDownload, IconInbox, IconPlus, IconRefresh } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { ResourceRecord } from '../api';
import { useResourceList, type ListOptions, type ResourceListController } from '../hooks/useResourceList';
import { activeFilterCount, addFromParentLink } from '../listState';
import { BulkBar, SelectAllBanner } from './BulkBar';
import { ColumnMenu } from './ColumnMenu';
import { FilterBar } from './FilterBar';
import { ListPagination } from './ListPagination';
import { RecordDrawer } from './RecordDrawer';
import { ResourceTable } from './ResourceTable';
import { midSentence } from '../text';
import { ViewSubject } from './ViewSubject';
import { SavedViewsMenu } from './SavedViewsMenu';
import { useSavedViews, type SavedViewsController } from '../hooks/useSavedViews';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function ErrorState({ list }: { list: ResourceListController }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={`Could not load ${midSentence(list.spec.plural)}`}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{list.error?.message}</Text>
        <Button size="xs" variant="light" color="red" leftSection={<IconRefresh size={14} />} onClick={() => void list.refetch()}>
          Retry
        </Button>
      </Stack>
    </Alert>
  );
}

function EmptyState({ list }: { list: ResourceListController }) {
  const filtered = activeFilterCount(list.state) > Object.keys(list.fixed).length;
  return (
    <Stack align="center" gap="xs" py="xl" data-testid="empty-state">
      <ThemeIcon size={48} radius="xl" variant="light" color="gray">
        <IconInbox size={26} />
      </ThemeIcon>
      <Text fw={500}>{filtered ? `No ${midSentence(list.spec.plural)} match these filters` : `No ${midSentence(list.spec.plural)} yet`}</Text>
      {filtered ? (
        <Button size="xs" variant="subtle" onClick={list.clearFilters}>
          Clear filters
        </Button>
      ) : (
        list.canAdd &&
        !list.embedded &&
        list.spec.pages.add && (
          <Button size="xs" variant="light" component={Link} to={list.spec.pages.add} leftSection={<IconPlus size={14} />}>
            {list.spec.adding?.label ?? `Add ${midSentence(list.spec.label)}`}
          </Button>
        )
      )}
    </Stack>
  );
}

/**
 * The list page of any declared resource: a thin view over `useResourceList`. Embedded, it is a
 * child list on its parent's page (a tab), scoped by `fixed` filters; `parentPath` is that page,
 * where a record added from the tab comes back to.
 */
/** A saved view opened without what the list no longer has: which, by name. */
function DroppedNotice({ views }: { views: SavedViewsController }) {
  const notice = views.opened;
  if (!notice) return null;
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} title={`View "${notice.name}" opened without what this list no longer has`} withCloseButton closeButtonLabel="Dismiss" onClose={views.dismissNotice} data-testid="saved-view-notice">
      <Text size="sm">Left out: {notice.dropped.join(', ')}. Save the view again to keep it this way.</Text>
    </Alert>
  );
}

export function ResourceListPage({
  spec, fixed, embedded, parentPath, title, description, subject, listPage,
}: {
  spec: ResourceSpec; parentPath?: string;
  /** A list view's own heading and note (ListViewSpec), and the record its route names with that record's id. */
  title?: string; description?: string; subject?: { spec: ViewSubjectSpec; id: string };
  /** The page's route pattern, under which its saved views are kept (none on a record's tab). */
  listPage?: string;
} & ListOptions) {
  const list = useResourceList(spec, { ...(fixed ? { fixed } : {}), embedded: embedded === true });
  const views = useSavedViews(list, embedded ? undefined : listPage);
  const [opened, setOpened] = useState<ResourceRecord | null>(null);
  const addLink = embedded ? addFromParentLink(spec, fixed, parentPath) : null;
  const exporting = list.exportBytes !== null;
  // The parent's filter is not the user's to change: it stays out of the filter bar.
  const visibleState = useMemo(
    () => (fixed ? { ...list.state, filters: Object.fromEntries(Object.entries(list.state.filters).filter(([k]) => !(k in fixed))) } : list.state),
    [list.state, fixed],
  );
  const filterSpec = useMemo(() => (fixed ? { ...spec, filters: spec.filters.filter((f) => !(f.key in fixed)) } : spec), [spec, fixed]);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Group gap="sm" align="center">
          {embedded ? <Title order={4}>{spec.plural}</Title> : <Title order={1} fz="h2" lh="var(--mantine-h2-line-height)">
              {title ?? spec.plural}
            </Title>}
          {!list.isLoading && !list.error && (
            <Badge variant="light" color="gray" size="lg" data-testid="list-total">
              {list.total.toLocaleString()}
              {list.totalCapped ? '+' : ''}
            </Badge>
          )}
        </Group>
        <Group gap="xs">
          <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => void list.runExport()} loading={false} disabled={exporting}>
            {exporting ? `Downloading… ${formatBytes(list.exportBytes ?? 0)}` : 'Export CSV'}
          </Button>
          {/* A list view (a queue, an event's markets: it has its own title) is for working records, not adding them. */}
          {list.canAdd && !embedded && !title && spec.pages.add && (
            <Button component={Link} to={spec.pages.add} leftSection={<IconPlus size={16} />}>
              {spec.adding?.label ?? `Add ${midSentence(spec.label)}`}
            </Button>
          )}
          {list.canAdd && embedded && addLink && (
            <Button component={Link} to={addLink} leftSection={<IconPlus size={16} />}>
              Add {midSentence(spec.label)}
            </Button>
          )}
        </Group>
      </Group>

      {subject && <ViewSubject subject={subject.spec} id={subject.id} firstRow={list.items[0]} loading={list.isLoading} />}

      <DroppedNotice views={views} />

      {description && (
        <Text size="sm" c="dimmed" mt={-8}>
          {description}
        </Text>
      )}

      <Paper withBorder={!embedded} radius="md" p={embedded ? 0 : 'md'}>
        <Stack gap="sm">
          <Group justify="space-between" align="flex-end" wrap="wrap">
            <Box style={{ flex: '1 1 280px', minWidth: 0 }}>
              <FilterBar spec={filterSpec} state={visibleState} setSearch={list.setSearch} setFilter={list.setFilter} setFilters={list.setFilters} clearFilters={list.clearFilters} />
            </Box>
            <Group gap="xs" style={{ flexShrink: 0 }}>
              {views.enabled && <SavedViewsMenu views={views} />}
              <ColumnMenu list={list} />
            </Group>
          </Group>
          <SelectAllBanner list={list} />
          <BulkBar list={list} />
          {list.error && !list.isFetching ? (
            <ErrorState list={list} />
          ) : !list.isLoading && list.items.length === 0 ? (
            <EmptyState list={list} />
          ) : (
            <ResourceTable list={list} onOpen={setOpened} />
          )}
          {!list.error && (list.isLoading || list.items.length > 0) && <ListPagination list={list} />}
          {spec.footnote && (
            <Text size="xs" c="dimmed" data-testid="list-footnote">
              {spec.footnote.text}{' '}
              {spec.footnote.link && (
                <Anchor href={spec.footnote.link.href} target="_blank" rel="noreferrer" size="xs">
                  {spec.footnote.link.label}
                </Anchor>
              )}
            </Text>
          )}
        </Stack>
      </Paper>

      <RecordDrawer spec={spec} record={opened} onClose={() => setOpened(null)} onChange={setOpened} />
    </Stack>
  );
}
