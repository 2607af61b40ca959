import { sortKeys, type FilterSpec, type ResourceSpec, type SavedViewState } from '@pitboss/contract';

/**
 * The list state of a resource page lives in the URL, under the same names
 * the API uses (`page, limit, sort, q, cursor`, and per filter `key`,
 * `key_min`/`key_max`, `key_from`/`key_to`), so a copied link reproduces the
 * view and the API query is the URL's own parameters. Values that would not
 * pass the contract's list query are dropped when read, so a hand-edited link
 * degrades to a valid view instead of an error.
 */
export interface ListState {
  page: number;
  limit: number;
  sort: string;
  q: string;
  cursor: string;
  /** Keyset, backward: the page before this cursor (Previous). `page` then counts where the keyset pages are. */
  before: string;
  /** Filter parameters by API name (`status`, `sortOrder_min`, `createdAt_from`…), only the ones set. */
  filters: Record<string, string>;
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_LIMIT = 20;

const WHOLE_NUMBER = /^-?\d{1,30}$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The URL/API parameter names a filter uses, each with the check its value must pass. */
export function filterParams(filter: FilterSpec): { name: string; valid: (v: string) => string | null }[] {
  switch (filter.type) {
    case 'equals':
      // A reference holds the record's id: anything else in a hand-edited link is dropped.
      if (filter.reference) return [{ name: filter.key, valid: (v) => (/^\d{1,18}$/.test(v) ? v : null) }];
      return [{ name: filter.key, valid: (v) => (v.trim() && v.length <= 200 ? v : null) }];
    case 'oneOf': {
      const allowed = new Set(filter.options.map((o) => o.value));
      return [
        {
          name: filter.key,
          valid: (v) => {
            const kept = v.split(',').filter((x) => allowed.has(x));
            return kept.length ? [...new Set(kept)].join(',') : null;
          },
        },
      ];
    }
    case 'range':
      return ['min', 'max'].map((end) => ({ name: `${filter.key}_${end}`, valid: (v: string) => (WHOLE_NUMBER.test(v) ? v : null) }));
    case 'dateRange':
      return ['from', 'to'].map((end) => ({ name: `${filter.key}_${end}`, valid: (v: string) => (DATE_ONLY.test(v) ? v : null) }));
  }
}

function validSort(spec: ResourceSpec, sort: string | null): string {
  if (!sort) return spec.defaultSort;
  return sortKeys(spec).includes(sort.replace(/^-/, '')) ? sort : spec.defaultSort;
}

export function readListState(spec: ResourceSpec, params: URLSearchParams): ListState {
  const page = Number(params.get('page'));
  const limit = Number(params.get('limit'));
  const filters: Record<string, string> = {};
  for (const filter of spec.filters) {
    for (const p of filterParams(filter)) {
      const raw = params.get(p.name);
      const value = raw === null ? null : p.valid(raw);
      if (value !== null) filters[p.name] = value;
    }
  }
  return {
    page: Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1,
    limit: Number.isInteger(limit) && limit >= 1 && limit <= 200 ? limit : DEFAULT_LIMIT,
    sort: validSort(spec, params.get('sort')),
    q: spec.search ? (params.get('q') ?? '').slice(0, 200) : '',
    cursor: spec.keyset ? (params.get('cursor') ?? '').slice(0, 500) : '',
    before: spec.keyset && !params.get('cursor') ? (params.get('before') ?? '').slice(0, 500) : '',
    filters,
  };
}

/** The URL for a state: defaults left out, so the plain list has a plain address. */
export function writeListState(spec: ResourceSpec, state: ListState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q.trim()) params.set('q', state.q.trim());
  for (const [name, value] of Object.entries(state.filters)) if (value !== '') params.set(name, value);
  if (state.sort !== spec.defaultSort) params.set('sort', state.sort);
  if (state.limit !== DEFAULT_LIMIT) params.set('limit', String(state.limit));
  if (state.cursor) params.set('cursor', state.cursor);
  else if (state.before) params.set('before', state.before);
  // On a keyset page the page number only says where it is; elsewhere it is the page.
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

/** What "all matching" means: the filters and the search, as strings (the bulk endpoint's `query`). */
export function matchingQuery(state: ListState): Record<string, string> {
  const query: Record<string, string> = { ...state.filters };
  if (state.q.trim()) query.q = state.q.trim();
  return query;
}

/** The export: the same rows in the same order, without paging. */
export function exportQuery(state: ListState): Record<string, string> {
  return { ...matchingQuery(state), sort: state.sort };
}

/** The list call: one page (or the keyset page after `cursor`, or before `before`). */
export function listQuery(state: ListState): Record<string, string> {
  const query: Record<string, string> = { ...exportQuery(state), limit: String(state.limit) };
  if (state.cursor) query.cursor = state.cursor;
  else if (state.before) query.before = state.before;
  else query.page = String(state.page);
  return query;
}

export function activeFilterCount(state: ListState): number {
  return Object.keys(state.filters).length + (state.q.trim() ? 1 : 0);
}

/**
 * Where "Add" goes from a child tab: the child's add page with the parent chosen in the form field
 * named like the scoping filter (event → markets: `eventId`), coming back to the parent's page.
 * Null when the child has no add page or no such field.
 */
export function addFromParentLink(spec: ResourceSpec, fixed: Record<string, string> | undefined, parentPath: string | undefined): string | null {
  if (!spec.pages.add || !fixed || !parentPath) return null;
  const keys = Object.keys(fixed);
  if (keys.length === 0 || !keys.every((k) => spec.form?.some((f) => f.key === k))) return null;
  const params = new URLSearchParams({ ...fixed, back: parentPath });
  return `${spec.pages.add}?${params.toString()}`;
}

/** The filters (but the fixed ones), sort and search of a list state, as one string: equal states, equal keys. */
export function listKey(state: Pick<ListState, 'filters' | 'sort' | 'q'>, fixed: Readonly<Record<string, string>> = {}): string {
  const filters = Object.entries(state.filters)
    .filter(([name]) => !(name in fixed))
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([filters, state.sort, state.q.trim()]);
}

/** What a saved view keeps of a list: its filters (but the page's fixed ones), sort, search and visible columns. */
export function savedStateOf(state: ListState, visibleColumns: readonly string[], fixed: Readonly<Record<string, string>> = {}): SavedViewState {
  return {
    filters: Object.fromEntries(Object.entries(state.filters).filter(([name]) => !(name in fixed))),
    sort: state.sort,
    q: state.q.trim(),
    columns: [...visibleColumns],
  };
}

/** A saved view as this list opens it: its URL, its columns (null: the defaults), and what it names that the list no longer has. */
export interface OpenedView {
  params: URLSearchParams;
  /** What the list shows once it is open (`listKey`: to tell whether the list still shows it). */
  key: string;
  columns: string[] | null;
  /** `filter "region"`, `column "legacy"`, `sort "rank"`: left out, and said so. */
  dropped: string[];
}

/**
 * Opens a saved view on the list as it is declared now: a filter parameter, value, sort or column it
 * no longer has (or a fixed filter of the page) is left out and named in `dropped`, the rest applies.
 */
export function openSavedState(spec: ResourceSpec, saved: SavedViewState, fixed: Readonly<Record<string, string>> = {}): OpenedView {
  const dropped: string[] = [];
  const params = new Map(spec.filters.flatMap((f) => filterParams(f).map((p) => [p.name, p] as const)));
  const filters: Record<string, string> = {};
  for (const [name, value] of Object.entries(saved.filters)) {
    if (name in fixed) continue;
    const param = params.get(name);
    const valid = param ? param.valid(value) : null;
    if (valid === null) dropped.push(param ? `filter value "${name}=${value}"` : `filter "${name}"`);
    else filters[name] = valid;
  }
  let sort = spec.defaultSort;
  if (saved.sort) {
    if (sortKeys(spec).includes(saved.sort.replace(/^-/, ''))) sort = saved.sort;
    else dropped.push(`sort "${saved.sort.replace(/^-/, '')}"`);
  }
  let columns: string[] | null = null;
  if (saved.columns) {
    const known = new Set(spec.columns.map((c) => c.key));
    for (const key of saved.columns) if (!known.has(key)) dropped.push(`column "${key}"`);
    columns = saved.columns.filter((key) => known.has(key));
    if (columns.length === 0) columns = null;
  }
  const q = spec.search ? saved.q.slice(0, 200) : '';
  if (saved.q && !spec.search) dropped.push('search');
  const state: ListState = { page: 1, limit: DEFAULT_LIMIT, sort, q, cursor: '', before: '', filters };
  return { params: writeListState(spec, state), key: listKey(state, fixed), columns, dropped };
}
