import { z } from 'zod';
import type { RestrictionName } from '../restrictions.js';
import { RESOURCES } from '../resources/index.js';
import { ACCOUNT_ACCESS, endpoint } from '../resources/endpoint.js';
import { ROUTES } from '../routes.js';

/**
 * Saved views: a list's filters, sort, search and columns kept under a name by one admin, private
 * or shared with every admin who may view that list, and each admin's default view per list. A view
 * belongs to one list page, named by its route pattern (`/faq`, `/event-resolution/{id}`): a
 * resource's list, or one of its list views (`ListViewSpec`), which show it with other columns and
 * fixed filters.
 */

/** Every list page a view may be saved on, with the restriction name its route checks (null: every admin). */
export function savedViewLists(): ReadonlyMap<string, { resource: string; restriction: RestrictionName | null }> {
  lists ??= new Map(
    Object.values(RESOURCES).flatMap((spec) =>
      [spec.pages.list, ...(spec.views ?? []).map((v) => v.page)].map((page) => {
        const route = ROUTES.find((r) => r.path === page);
        return [page, { resource: spec.name, restriction: route ? (route.restriction ?? null) : spec.restriction }] as const;
      }),
    ),
  );
  return lists;
}
let lists: Map<string, { resource: string; restriction: RestrictionName | null }> | undefined;

/** A filter parameter, sort or column name as a view stores it (checked against the list when it is opened). */
const paramName = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,79}$/, 'Not a parameter name');

/**
 * What a view holds: the list's state as its URL says it (filter parameters by API name, the sort,
 * the search) and the visible columns (null: the list's defaults). Names are kept as saved: a view
 * naming a filter or column the list no longer has opens without it, and says so.
 */
export const savedViewStateSchema = z
  .object({
    filters: z
      .record(paramName, z.string().max(500, 'At most 500 characters'))
      .refine((f) => Object.keys(f).length <= 60, 'At most 60 filter parameters')
      .default({}),
    sort: z.string().max(81, 'Too long').regex(/^(-?[A-Za-z][A-Za-z0-9_]*)?$/, 'Not a sort key').default(''),
    q: z.string().max(200, 'At most 200 characters').default(''),
    columns: z.array(paramName).max(200, 'At most 200 columns').nullable().default(null),
  })
  .strict();
export type SavedViewState = z.output<typeof savedViewStateSchema>;

const viewName = z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(80, 'At most 80 characters');
const listName = z
  .string({ error: 'List is required' })
  .max(200, 'Unknown list')
  .refine((l) => savedViewLists().has(l), 'No list has this page');

export const savedViewSchema = z.object({
  _id: z.string(),
  /** The list page's route pattern. */
  list: z.string(),
  name: z.string(),
  /** Shared with every admin who may view the list (they may open it, not change it). */
  shared: z.boolean(),
  state: savedViewStateSchema,
  owner: z.object({ id: z.string(), name: z.string() }),
  /** The caller's own view: theirs to rename, share, change and delete. */
  mine: z.boolean(),
  /** The caller's default view of this list. */
  isDefault: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedView = z.infer<typeof savedViewSchema>;

const listQuery = z.object({ list: listName });
const viewIdParams = z.object({ id: z.coerce.number({ error: 'Invalid id' }).int().positive('Invalid id') });

export const savedViewEndpoints = {
  listSavedViews: endpoint('GET /api/admin/saved-views', {
    access: ACCOUNT_ACCESS,
    summary: 'The saved views of a list I may view: mine, and those shared by other admins (403 when I may not view the list)',
    query: listQuery,
    result: z.object({ items: z.array(savedViewSchema) }),
  }),
  createSavedView: endpoint('POST /api/admin/saved-views', {
    access: ACCOUNT_ACCESS,
    summary: 'Save a list\'s current state under a name (unique per admin and list), private or shared',
    body: z.object({ list: listName, name: viewName, shared: z.boolean().default(false), state: savedViewStateSchema, isDefault: z.boolean().default(false) }),
    result: savedViewSchema,
  }),
  updateSavedView: endpoint('PATCH /api/admin/saved-views/:id', {
    access: ACCOUNT_ACCESS,
    summary: 'Rename, share or unshare, or save the state again of one of my views',
    params: viewIdParams,
    body: z
      .object({ name: viewName.optional(), shared: z.boolean().optional(), state: savedViewStateSchema.optional() })
      .refine((b) => b.name !== undefined || b.shared !== undefined || b.state !== undefined, 'Nothing to change'),
    result: savedViewSchema,
  }),
  deleteSavedView: endpoint('DELETE /api/admin/saved-views/:id', {
    access: ACCOUNT_ACCESS,
    summary: 'Delete one of my views (a super admin may delete any shared view)',
    params: viewIdParams,
  }),
  setDefaultSavedView: endpoint('PUT /api/admin/saved-views/default', {
    access: ACCOUNT_ACCESS,
    summary: 'Set (or with null clear) my default view of a list: one of mine or one shared with me',
    body: z.object({ list: listName, id: z.string().regex(/^\d{1,15}$/, 'Invalid id').nullable() }),
    result: z.object({ defaultId: z.string().nullable() }),
  }),
};
