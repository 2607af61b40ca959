import type { SavedView } from '@pitboss/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { callApi, fetchApi } from '../../lib/api';
import { toast } from '../../lib/toast';
import { listKey, openSavedState, savedStateOf } from '../listState';
import type { ResourceListController } from './useResourceList';

export const savedViewKeys = { list: (list: string) => ['saved-views', list] as const };

/** The view just opened, and what of it the list no longer has. */
export interface OpenedNotice {
  name: string;
  dropped: string[];
}

/**
 * A list's saved views (the page `list`: its route pattern): mine and those shared with me, opening
 * one (its filters, sort and search into the URL, its columns into the column choices), saving the
 * current state, and the default view, opened when the page is visited with no list parameters.
 */
export function useSavedViews(list: ResourceListController, listPage: string | undefined) {
  const queryClient = useQueryClient();
  const enabled = listPage !== undefined;
  const page = listPage ?? '';
  const query = useQuery({ queryKey: savedViewKeys.list(page), queryFn: ({ signal }) => fetchApi('GET /api/admin/saved-views', { query: { list: page }, signal }), enabled });
  const views: SavedView[] = query.data?.items ?? [];
  const [opened, setOpened] = useState<OpenedNotice | null>(null);
  // The view last opened or saved, while the list still shows its filters, sort and search.
  const [applied, setApplied] = useState<{ id: string; key: string } | null>(null);
  const currentKey = listKey(list.state, list.fixed);
  const activeId = applied && applied.key === currentKey ? applied.id : null;
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: savedViewKeys.list(page) }), [queryClient, page]);

  const { spec, fixed, replaceParams, columns } = list;
  const open = useCallback(
    (view: SavedView, options: { replace?: boolean } = {}) => {
      const result = openSavedState(spec, view.state, fixed);
      replaceParams(result.params, options.replace === true);
      columns.showOnly(result.columns);
      setApplied({ id: view._id, key: result.key });
      setOpened(result.dropped.length > 0 ? { name: view.name, dropped: result.dropped } : null);
    },
    [spec, fixed, replaceParams, columns],
  );

  // The default view, once, on a visit with no list parameters of its own.
  const defaultApplied = useRef(false);
  useEffect(() => {
    if (defaultApplied.current || !query.data) return;
    defaultApplied.current = true;
    const preferred = query.data.items.find((v) => v.isDefault);
    if (preferred && list.openedPlain) open(preferred, { replace: true });
  }, [query.data, list.openedPlain, open]);

  const current = useCallback(() => savedStateOf(list.state, list.columns.visibleColumns.map((c) => c.key), fixed), [list.state, list.columns.visibleColumns, fixed]);

  const save = useCallback(
    async (input: { name: string; shared: boolean; isDefault: boolean }) => {
      const res = await callApi('POST /api/admin/saved-views', { body: { list: page, ...input, state: current() } });
      if (res.success && res.result) {
        toast.success(res.message);
        setApplied({ id: res.result._id, key: currentKey });
        await refresh();
      }
      return res;
    },
    [page, current, refresh, currentKey],
  );

  const update = useCallback(
    async (view: SavedView, body: { name?: string; shared?: boolean; state?: 'current' }) => {
      const res = await callApi('PATCH /api/admin/saved-views/:id', {
        params: { id: view._id },
        body: { ...(body.name !== undefined ? { name: body.name } : {}), ...(body.shared !== undefined ? { shared: body.shared } : {}), ...(body.state ? { state: current() } : {}) },
      });
      if (res.success) toast.success(res.message);
      else toast.error(res.message);
      await refresh();
      return res;
    },
    [current, refresh],
  );

  const remove = useCallback(
    async (view: SavedView) => {
      const res = await callApi('DELETE /api/admin/saved-views/:id', { params: { id: view._id } });
      if (res.success) toast.success(res.message);
      else toast.error(res.message);
      await refresh();
      return res;
    },
    [refresh],
  );

  const setDefault = useCallback(
    async (view: SavedView | null) => {
      const res = await callApi('PUT /api/admin/saved-views/default', { body: { list: page, id: view ? view._id : null } });
      if (res.success) toast.success(res.message);
      else toast.error(res.message);
      await refresh();
      return res;
    },
    [page, refresh],
  );

  return { enabled, views, isLoading: query.isPending, error: query.error, open, opened, dismissNotice: () => setOpened(null), activeId, save, update, remove, setDefault };
}

export type SavedViewsController = ReturnType<typeof useSavedViews>;
