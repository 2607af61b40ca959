import { accessFor, approvalsResource, BULK_ACTION_MAX, bulkActionsFor, mayCreate, permittedActions, recordPath, type ActionSpec, type BulkActionResult, type ResourceSpec } from '@pitboss/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from '../../lib/toast';
import { useAdmin, usePageAccess } from '../../stores/auth';
import { clearDateFilters, setDateFilters } from '../../stores/dateFilter';
import { bulkAction, bulkPreviewAction, bulkRunAction, exportCsv, fetchList, resourceKeys, type ResourceRecord, type WriteResponse } from '../api';
import { exportQuery, listQuery, matchingQuery, readListState, writeListState, type ListState } from '../listState';
import { useColumnVisibility } from './useColumnVisibility';

export type BulkCommand = { action: 'delete' } | { action: 'status'; status: string };

export interface ListOptions {
  /**
   * A child list on its parent's page: its state lives in the component, not the URL (a page may
   * hold several), and its access is the child's own restriction name.
   */
  embedded?: boolean;
  /** Filters the list always applies (the parent's id): not shown, not removable. */
  fixed?: Record<string, string>;
}

type SetParams = (next: (prev: URLSearchParams) => URLSearchParams, options?: { replace?: boolean }) => void;

/** URL search params, or the same surface over component state for an embedded list. */
function useListParams(embedded: boolean): [URLSearchParams, SetParams] {
  const [urlParams, setUrlParams] = useSearchParams();
  const [local, setLocal] = useState(() => new URLSearchParams());
  const setLocalParams = useCallback<SetParams>((next) => setLocal((prev) => next(prev)), []);
  return embedded ? [local, setLocalParams] : [urlParams, setUrlParams as unknown as SetParams];
}

/**
 * Headless list controller: URL-synced state (page, limit, sort, q, filters,
 * cursor), the query, selection (including "all matching"), bulk actions,
 * column visibility and CSV export. The view only renders what it returns.
 */
export function useResourceList(spec: ResourceSpec, options: ListOptions = {}) {
  const queryClient = useQueryClient();
  const embedded = options.embedded === true;
  const [params, setParams] = useListParams(embedded);
  const [initialPlain] = useState(() => params.size === 0);
  const fixedKey = JSON.stringify(options.fixed ?? {});
  const state = useMemo(() => {
    const read = readListState(spec, params);
    return { ...read, filters: { ...read.filters, ...(JSON.parse(fixedKey) as Record<string, string>) } };
  }, [spec, params, fixedKey]);
  const pageAccess = usePageAccess();
  const admin = useAdmin();
  const access = embedded ? (admin && spec.restriction ? accessFor(admin, spec.restriction) : { canView: false, canEdit: false }) : pageAccess;

  const canEdit = access.canEdit && !spec.readOnly;
  const canAdd = Boolean(spec.pages.add) && mayCreate(spec, access);
  const canDelete = canEdit && (spec.deleteMode === 'delete' || spec.deleteMode === 'archive');
  const bulkStatuses = canEdit ? (spec.bulkStatuses ?? []) : [];
  // Declared actions with a bulk form the admin holds the right for (approve, block…); states are checked per record.
  const bulkActions = bulkActionsFor(spec, access);
  // An Actions column only for an admin whose rights permit some action (a view-only admin gets none).
  const hasActions = permittedActions(spec, access, { inList: true }).length > 0;
  const canSelect = canDelete || bulkStatuses.length > 0 || bulkActions.length > 0;

  // ── URL state ────────────────────────────────────────────────────────────
  /** Applies a change to the list state; filters, search, sort and size go back to the first page. */
  const update = useCallback(
    (patch: Partial<ListState>, options: { firstPage?: boolean; replace?: boolean } = {}) => {
      setParams(
        (prev) => {
          const current = readListState(spec, prev);
          const next = { ...current, ...patch, ...(options.firstPage ? { page: 1, cursor: '', before: '' } : {}) };
          return writeListState(spec, next);
        },
        { replace: options.replace ?? false },
      );
    },
    [spec, setParams],
  );

  const setPage = useCallback((page: number) => update({ page, cursor: '', before: '' }), [update]);
  const setLimit = useCallback((limit: number) => update({ limit }, { firstPage: true }), [update]);
  const setSearch = useCallback((q: string) => update({ q }, { firstPage: true, replace: true }), [update]);
  // Keyset pages: the cursor moves, the page number follows so the list can say where it is.
  const nextPage = useCallback((cursor: string) => update({ cursor, before: '', page: state.page + 1 }), [update, state.page]);
  const firstPage = useCallback(() => update({ page: 1, cursor: '', before: '' }), [update]);
  // Back to page 1 is the first page itself (new rows on top included), not the rows before a cursor.
  const previousPage = useCallback(
    (before: string) => (state.page <= 2 ? update({ page: 1, cursor: '', before: '' }) : update({ before, cursor: '', page: state.page - 1 })),
    [update, state.page],
  );

  const toggleSort = useCallback(
    (key: string) => update({ sort: state.sort === key ? `-${key}` : key }, { firstPage: true }),
    [state.sort, update],
  );

  /** Sets (or with '' clears) filter parameters at once, e.g. `{ createdAt_from, createdAt_to }`. */
  const setFilters = useCallback(
    (values: Readonly<Record<string, string>>) => {
      setParams(
        (prev) => {
          const current = readListState(spec, prev);
          const filters = { ...current.filters };
          for (const [name, value] of Object.entries(values)) {
            if (value === '') delete filters[name];
            else filters[name] = value;
          }
          return writeListState(spec, { ...current, filters, page: 1, cursor: '', before: '' });
        },
        { replace: true },
      );
    },
    [spec, setParams],
  );
  /** Sets (or with '' clears) one filter parameter, e.g. `status`, `sortOrder_min`, `createdAt_from`. */
  const setFilter = useCallback((name: string, value: string) => setFilters({ [name]: value }), [setFilters]);

  /** Replaces the whole list state with these parameters (a saved view opened); `replace` keeps the history entry. */
  const replaceParams = useCallback((next: URLSearchParams, replace = false) => setParams(() => next, { replace }), [setParams]);

  const clearFilters = useCallback(() => update({ filters: {}, q: '' }, { firstPage: true }), [update]);

  // The shared date-filter state (seed: `{isDate, filters}`) mirrors this list's date ranges.
  const dateKey = JSON.stringify(
    Object.fromEntries(
      spec.filters
        .filter((f) => f.type === 'dateRange')
        .flatMap((f) => [`${f.key}_from`, `${f.key}_to`])
        .filter((name) => state.filters[name])
        .map((name) => [name, state.filters[name]!]),
    ),
  );
  useEffect(() => {
    if (!embedded) setDateFilters(JSON.parse(dateKey) as Record<string, string>);
  }, [dateKey, embedded]);
  useEffect(() => (embedded ? undefined : clearDateFilters), [embedded]);

  // ── Data ─────────────────────────────────────────────────────────────────
  const apiQuery = useMemo(() => listQuery(state), [state]);
  const query = useQuery({
    queryKey: resourceKeys.list(spec.name, apiQuery),
    queryFn: ({ signal }) => fetchList(spec, apiQuery, signal),
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  const items: ResourceRecord[] = data?.items ?? [];
  const total = data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / state.limit));

  // A page past the end (after a delete, or an old link): go to the last one.
  useEffect(() => {
    if (!query.isPlaceholderData && data && !state.cursor && !state.before && data.items.length === 0 && state.page > 1 && total > 0) {
      update({ page: pageCount }, { replace: true });
    }
  }, [query.isPlaceholderData, data, state.cursor, state.before, state.page, total, pageCount, update]);

  // ── Selection ────────────────────────────────────────────────────────────
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [allMatching, setAllMatching] = useState(false);
  const matchKey = JSON.stringify(matchingQuery(state));
  // biome-ignore lint/correctness/useExhaustiveDependencies: a selection belongs to one query; a new query (its key) clears it.
  useEffect(() => {
    setSelected(new Set());
    setAllMatching(false);
  }, [matchKey]);

  const pageIds = useMemo(() => items.map((r) => r._id), [items]);
  const pageAllSelected = allMatching || (pageIds.length > 0 && pageIds.every((id) => selected.has(id)));
  const pageSomeSelected = !pageAllSelected && pageIds.some((id) => selected.has(id));
  const selectedCount = allMatching ? total : selected.size;

  const isSelected = useCallback((id: string) => allMatching || selected.has(id), [allMatching, selected]);

  const toggleRow = useCallback(
    (id: string) => {
      if (allMatching) {
        // Leaving "all matching": keep this page's rows except the one unticked.
        setAllMatching(false);
        setSelected(new Set(pageIds.filter((x) => x !== id)));
        return;
      }
      setSelected((prev) => {
        const next = new Set(prev);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
    },
    [allMatching, pageIds],
  );

  const togglePage = useCallback(() => {
    if (pageAllSelected) {
      setAllMatching(false);
      setSelected((prev) => new Set([...prev].filter((id) => !pageIds.includes(id))));
    } else {
      setSelected((prev) => new Set([...prev, ...pageIds]));
    }
  }, [pageAllSelected, pageIds]);

  const selectAllMatching = useCallback(() => setAllMatching(true), []);
  const clearSelection = useCallback(() => {
    setAllMatching(false);
    setSelected(new Set());
  }, []);

  // ── Bulk actions ─────────────────────────────────────────────────────────
  const bulk = useMutation({
    mutationFn: (command: BulkCommand) => {
      const base = command.action === 'status' ? { action: 'status' as const, status: command.status } : { action: 'delete' as const };
      return bulkAction(spec, allMatching ? { ...base, query: matchingQuery(state) } : { ...base, ids: [...selected] });
    },
    onSuccess: (res) => {
      if (!res.success) {
        toast.error(res.message);
        return;
      }
      toast.success(res.message);
      clearSelection();
      void queryClient.invalidateQueries({ queryKey: resourceKeys.all(spec.name) });
    },
  });

  /** What a declared action would act on in the selection (or every matching record): count, total per coin, largest. */
  const previewBulkAction = useCallback(
    (action: ActionSpec, signal?: AbortSignal) => bulkPreviewAction(spec, action.name, allMatching ? { query: matchingQuery(state) } : { ids: [...selected] }, signal),
    [spec, allMatching, state, selected],
  );

  /**
   * Runs a declared action over the selection (or every matching record): the answer says how many
   * were done and which were skipped, and why. The list refreshes either way; what stays selected
   * is what was skipped (nothing, after "all matching").
   */
  const runBulkAction = useCallback(
    async (action: ActionSpec, input: Record<string, unknown>): Promise<WriteResponse<BulkActionResult>> => {
      const body = allMatching ? { query: matchingQuery(state), input } : { ids: [...selected], input };
      const res = await bulkRunAction(spec, action.name, body);
      if (res.success) {
        const skipped = res.result?.skipped ?? [];
        if (allMatching || skipped.length === 0) clearSelection();
        else setSelected(new Set(skipped.map((x) => x.id)));
        await queryClient.invalidateQueries({ queryKey: resourceKeys.all(spec.name) });
        void queryClient.invalidateQueries({ queryKey: resourceKeys.all(approvalsResource.name) });
      }
      return res;
    },
    [allMatching, state, selected, spec, clearSelection, queryClient],
  );
  /** One bulk action call touches at most this many records (the server refuses more). */
  const bulkActionLimit = BULK_ACTION_MAX;

  // ── Export ───────────────────────────────────────────────────────────────
  const [exportBytes, setExportBytes] = useState<number | null>(null);
  const runExport = useCallback(async () => {
    setExportBytes(0);
    try {
      const res = await exportCsv(spec, exportQuery(state), setExportBytes);
      if (res.success) toast.success(`Exported ${res.result?.filename ?? 'CSV'}`);
      else toast.error(res.message);
    } finally {
      setExportBytes(null);
    }
  }, [spec, state]);

  const columns = useColumnVisibility(spec);

  const rowLink = useCallback(
    (record: ResourceRecord): string | null => {
      // A queue of several resources' records: each row names its own page.
      if (spec.linkField) {
        const link = record[spec.linkField];
        return typeof link === 'string' && /^\/(?![/\\])/.test(link) ? link : null;
      }
      const page = spec.recordPage ?? spec.pages.update;
      return page ? recordPath(page, record._id) : null;
    },
    [spec.pages.update, spec.recordPage, spec.linkField],
  );

  return {
    spec,
    state,
    embedded,
    fixed: options.fixed ?? {},
    // access
    canEdit,
    canAdd,
    canDelete,
    canSelect,
    hasActions,
    bulkStatuses,
    bulkActions,
    // state changes
    setPage,
    setLimit,
    setSearch,
    setFilter,
    setFilters,
    clearFilters,
    replaceParams,
    /** Whether the page opened with no list parameters (where a default saved view applies). */
    openedPlain: initialPlain,
    toggleSort,
    nextPage,
    previousPage,
    firstPage,
    // data
    items,
    total,
    totalCapped: data?.totalCapped === true,
    nextCursor: data?.nextCursor ?? null,
    prevCursor: data?.prevCursor ?? null,
    pageCount,
    isLoading: query.isPending,
    isFetching: query.isFetching,
    error: query.error,
    refetch: query.refetch,
    // selection
    isSelected,
    toggleRow,
    togglePage,
    pageAllSelected,
    pageSomeSelected,
    selectedCount,
    allMatching,
    previewBulkAction,
    /** Names the selection (the ids, or the matching query): what a preview of it is read for. */
    selectionKey: allMatching ? `query:${matchKey}` : `ids:${[...selected].sort().join(',')}`,
    selectAllMatching,
    clearSelection,
    // bulk, export, columns
    runBulk: bulk.mutateAsync,
    bulkPending: bulk.isPending,
    runBulkAction,
    bulkActionLimit,
    runExport,
    exportBytes,
    columns,
    rowLink,
  };
}

export type ResourceListController = ReturnType<typeof useResourceList>;
