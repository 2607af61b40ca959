import { accessFor, isSuperAdmin, savedViewLists, type SavedView, type SavedViewState } from '@pitboss/contract';
import { and, asc, eq, ne, or } from 'drizzle-orm';
import type { AdminActor } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { conflict, forbidden, notFound, uniqueViolation } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import type { AdminRow } from '../auth/sessions.js';
import { admins } from '../sub-admins/table.js';
import { savedViewDefaults, savedViews } from './table.js';

const RESOURCE = 'saved-views';

/** Whether the admin may view the list (its route's restriction name; none: every admin). */
export function mayViewList(admin: AdminRow, list: string): boolean {
  const found = savedViewLists().get(list);
  if (!found) return false;
  return found.restriction === null || accessFor(admin, found.restriction).canView;
}

/** Refuses a list the admin may not view: its views, their own included, are not theirs to see. */
function assertMayViewList(admin: AdminRow, list: string): void {
  if (!mayViewList(admin, list)) throw forbidden('You may not view this list, nor its saved views');
}

type ViewRow = typeof savedViews.$inferSelect & { ownerName: string };

const viewSelect = (tx: DbOrTx) =>
  tx
    .select({
      id: savedViews.id, adminId: savedViews.adminId, list: savedViews.list, name: savedViews.name, shared: savedViews.shared, state: savedViews.state,
      createdAt: savedViews.createdAt, updatedAt: savedViews.updatedAt, ownerName: admins.name,
    })
    .from(savedViews)
    .innerJoin(admins, eq(admins.id, savedViews.adminId))
    .$dynamic();

function toView(row: ViewRow, caller: AdminRow, defaultId: number | null): SavedView {
  return {
    _id: String(row.id), list: row.list, name: row.name, shared: row.shared, state: row.state,
    owner: { id: String(row.adminId), name: row.ownerName }, mine: row.adminId === caller.id, isDefault: row.id === defaultId,
    createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(),
  };
}

/** What an audit entry keeps of a view. */
const audited = (row: Pick<ViewRow, 'adminId' | 'list' | 'name' | 'shared' | 'state'>) => ({ owner: row.adminId, list: row.list, name: row.name, shared: row.shared, state: row.state });

async function defaultOf(tx: DbOrTx, adminId: number, list: string): Promise<number | null> {
  const [row] = await tx.select({ viewId: savedViewDefaults.viewId }).from(savedViewDefaults).where(and(eq(savedViewDefaults.adminId, adminId), eq(savedViewDefaults.list, list)));
  return row?.viewId ?? null;
}

/** The caller's views of a list and those shared by others, by name (theirs first). */
export async function listSavedViews(tx: DbOrTx, caller: AdminRow, list: string): Promise<SavedView[]> {
  assertMayViewList(caller, list);
  const rows = await viewSelect(tx)
    .where(and(eq(savedViews.list, list), or(eq(savedViews.adminId, caller.id), eq(savedViews.shared, true))))
    .orderBy(asc(savedViews.name), asc(savedViews.id));
  const defaultId = await defaultOf(tx, caller.id, list);
  return rows.map((r: ViewRow) => toView(r, caller, defaultId)).sort((a, b) => Number(b.mine) - Number(a.mine));
}

/**
 * One view as the caller may see it: theirs, or shared on a list they may view. Any other (another's
 * private view, one of a list they may not view) is not found: its existence is not theirs to learn.
 */
async function loadVisible(tx: DbOrTx, caller: AdminRow, id: number, lock = false): Promise<ViewRow> {
  const q = viewSelect(tx).where(eq(savedViews.id, id));
  const [row] = (await (lock ? q.for('update', { of: savedViews }) : q)) as ViewRow[];
  if (!row || (row.adminId !== caller.id && !row.shared) || !mayViewList(caller, row.list)) throw notFound('Saved view');
  return row;
}

const nameTaken = () => conflict('You already have a view of this name on this list', { name: 'You already have a view of this name on this list' });

async function readBack(tx: DbOrTx, caller: AdminRow, id: number): Promise<SavedView> {
  const row = await loadVisible(tx, caller, id);
  return toView(row, caller, await defaultOf(tx, caller.id, row.list));
}

export async function createSavedView(
  tx: DbOrTx,
  actor: AdminActor,
  input: { list: string; name: string; shared: boolean; state: SavedViewState; isDefault: boolean },
): Promise<SavedView> {
  const caller = actor.admin;
  assertMayViewList(caller, input.list);
  let id: number;
  try {
    const [row] = await tx.insert(savedViews).values({ adminId: caller.id, list: input.list, name: input.name, shared: input.shared, state: input.state }).returning({ id: savedViews.id });
    id = row!.id;
  } catch (err) {
    if (uniqueViolation(err)) throw nameTaken();
    throw err;
  }
  await writeAudit(tx, actor, { action: 'create', resource: RESOURCE, recordId: id, after: audited({ adminId: caller.id, ...input }) });
  if (input.isDefault) await setDefault(tx, actor, input.list, id);
  return readBack(tx, caller, id);
}

/** Only the owner changes a view: anyone else who may see it (a shared one) is refused, others do not find it. */
export async function updateSavedView(tx: DbOrTx, actor: AdminActor, id: number, input: { name?: string | undefined; shared?: boolean | undefined; state?: SavedViewState | undefined }): Promise<SavedView> {
  const caller = actor.admin;
  const before = await loadVisible(tx, caller, id, true);
  if (before.adminId !== caller.id) throw forbidden('Only its owner may change a saved view');
  const patch = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.shared !== undefined ? { shared: input.shared } : {}),
    ...(input.state !== undefined ? { state: input.state } : {}),
  };
  try {
    await tx.update(savedViews).set({ ...patch, updatedAt: new Date() }).where(eq(savedViews.id, id));
  } catch (err) {
    if (uniqueViolation(err)) throw nameTaken();
    throw err;
  }
  // No longer shared: it stops being anyone else's default.
  if (before.shared && input.shared === false) await tx.delete(savedViewDefaults).where(and(eq(savedViewDefaults.viewId, id), ne(savedViewDefaults.adminId, caller.id)));
  await writeAudit(tx, actor, { action: 'update', resource: RESOURCE, recordId: id, before: audited(before), after: audited({ ...before, ...patch }) });
  return readBack(tx, caller, id);
}

/** The owner deletes their view; a super admin may delete any shared view (one shared with them). */
export async function deleteSavedView(tx: DbOrTx, actor: AdminActor, id: number): Promise<void> {
  const caller = actor.admin;
  const before = await loadVisible(tx, caller, id, true);
  if (before.adminId !== caller.id && !(before.shared && isSuperAdmin(caller))) throw forbidden('Only its owner (or a super admin, for a shared view) may delete a saved view');
  await tx.delete(savedViews).where(eq(savedViews.id, id));
  await writeAudit(tx, actor, { action: 'delete', resource: RESOURCE, recordId: id, before: audited(before) });
}

/** Sets the caller's default view of a list (one they may see, of that list), or clears it with null. */
export async function setDefault(tx: DbOrTx, actor: AdminActor, list: string, id: number | null): Promise<number | null> {
  const caller = actor.admin;
  assertMayViewList(caller, list);
  const before = await defaultOf(tx, caller.id, list);
  if (id === null) {
    await tx.delete(savedViewDefaults).where(and(eq(savedViewDefaults.adminId, caller.id), eq(savedViewDefaults.list, list)));
  } else {
    const view = await loadVisible(tx, caller, id);
    if (view.list !== list) throw notFound('Saved view');
    await tx
      .insert(savedViewDefaults)
      .values({ adminId: caller.id, list, viewId: id })
      .onConflictDoUpdate({ target: [savedViewDefaults.adminId, savedViewDefaults.list], set: { viewId: id } });
  }
  if (before !== id) await writeAudit(tx, actor, { action: 'set_default', resource: RESOURCE, recordId: id ?? before, before: { list, default: before }, after: { list, default: id } });
  return id;
}
