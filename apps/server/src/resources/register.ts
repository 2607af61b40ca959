import { registerImageUpload } from '../modules/uploads/routes.js';
import { Readable } from 'node:stream';
import {
  accessFor, BULK_ACTION_MAX, CHOICES_LIMIT, choicePlaces, choicesPath, clearHiddenFields, type Choice, type ReferenceSpec, deleteRefusal, ERROR_CODES, listQuerySchema, namedRightsOf, referenceProblems, transitionOf, type BulkPreview,
  resourceBase, resourceEndpoints, type ActionSpec, type AuditAction, type BulkActionBody, type BulkActionResult, type Endpoint, type FormFieldSpec, type ListQuery, type ResourceSpec,
  type ActionOutput,
} from '@pitboss/contract';
import type { z } from 'zod';
import { and, asc, Column, eq, getTableColumns, getTableName, gte, ilike, inArray, is, isNotNull, isNull, lte, or, Param, SQL, sql, StringChunk } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { Actor, AdminActor, AppContext } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { ok } from '../http/envelope.js';
import { route } from '../http/route.js';
import { AppError, badRequest, conflict, notFound, uniqueViolation } from '../http/errors.js';
import type { App } from '../http/types.js';
import { auditActor, auditCount, redact, writeAudit } from '../lib/audit.js';
import { formatInZone } from '../lib/timezone.js';
import { EXPORT_BATCH, exportCsvChunks, type ExportMode } from './export.js';
import { baseSelect, withBatchFields, type ApiRecord, type ResourceDef, type Row } from './define.js';
import { encodeCursor, keysetCondition, orderBy, sortOf, sortParts, sortValue } from './sort.js';

/** Lists of large tables (keyset) count their total up to here, and say "10,000+" beyond. */
const COUNT_CAP = 10_000;
/**
 * A free-text search (`q`, `ILIKE '%…%'`) rechecks every candidate row the trigram index gives:
 * its total is counted up to here ("1,000+" beyond), so the count stays a few milliseconds when a
 * term matches tens of thousands of rows.
 */
const SEARCH_COUNT_CAP = 1_000;

type Col = AnyPgColumn | SQL;

function col(def: ResourceDef, key: string): Col {
  const c = def.columns[key];
  if (!c) throw new Error(`${def.spec.name}: no column for "${key}"`);
  return c;
}

function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}

/** WHERE of a list query: search, typed filters (dates as the caller's days), base condition. */
export function whereOf(def: ResourceDef, query: Record<string, unknown>, timezone: string, scope?: SQL, actor?: AdminActor): SQL | undefined {
  const conds: (SQL | undefined)[] = [def.baseWhere, scope];
  const q = typeof query.q === 'string' ? query.q.trim() : '';
  if (q && def.searchColumns?.length) conds.push(or(...def.searchColumns.map((c) => ilike(c as AnyPgColumn, likePattern(q)))));
  if (def.spec.deleteMode === 'archive' && def.archivedAtColumn) {
    // Archived rows stay out of lists unless asked for.
    const wanted = Array.isArray(query.archived) ? (query.archived as string[]) : ['false'];
    if (!wanted.includes('true')) conds.push(isNull(def.archivedAtColumn));
    else if (!wanted.includes('false')) conds.push(isNotNull(def.archivedAtColumn));
  }
  for (const f of def.spec.filters) {
    if (f.key === 'archived' && def.spec.deleteMode === 'archive') continue;
    const custom = f.type === 'equals' || f.type === 'oneOf' ? def.filterWhere?.[f.key] : undefined;
    if (custom) {
      if (f.type === 'oneOf') {
        const values = Array.isArray(query[f.key]) ? (query[f.key] as string[]) : [];
        if (values.length > 0) conds.push(or(...values.map((v) => custom(v, actor))));
        continue;
      }
      const v = typeof query[f.key] === 'string' ? String(query[f.key]).trim() : '';
      if (v !== '') conds.push(custom(v, actor));
      continue;
    }
    const c = col(def, f.key);
    if (f.type === 'equals' && typeof query[f.key] === 'string' && query[f.key] !== '') {
      const v = String(query[f.key]).trim();
      conds.push(def.caseInsensitive?.includes(f.key) ? sql`lower(${c}) = lower(${v})` : eq(c as AnyPgColumn, v));
    }
    if (f.type === 'oneOf' && Array.isArray(query[f.key]) && (query[f.key] as string[]).length > 0) conds.push(inArray(c as AnyPgColumn, query[f.key] as string[]));
    if (f.type === 'range') {
      if (query[`${f.key}_min`] !== undefined) conds.push(gte(c as AnyPgColumn, query[`${f.key}_min`]));
      if (query[`${f.key}_max`] !== undefined) conds.push(lte(c as AnyPgColumn, query[`${f.key}_max`]));
    }
    if (f.type === 'dateRange') {
      const from = query[`${f.key}_from`];
      const to = query[`${f.key}_to`];
      if (typeof from === 'string') conds.push(sql`${c} >= (${from}::date::timestamp at time zone ${timezone})`);
      if (typeof to === 'string') conds.push(sql`${c} < ((${to}::date + 1)::timestamp at time zone ${timezone})`);
    }
  }
  const list = conds.filter((x): x is SQL => x !== undefined);
  return list.length ? and(...list) : undefined;
}

/**
 * Whether a condition names only the resource's own table: every chunk is text, a parameter or a
 * column of that table (anything else, a joined column, a subquery, says no).
 */
function onlyOwnColumns(def: ResourceDef, chunk: unknown): boolean {
  if (chunk === undefined || typeof chunk === 'string' || typeof chunk === 'number' || is(chunk, StringChunk) || is(chunk, Param)) return true;
  if (is(chunk, Column)) return chunk.table === def.table;
  if (is(chunk, SQL)) return chunk.queryChunks.every((c) => onlyOwnColumns(def, c));
  if (Array.isArray(chunk)) return chunk.every((c) => onlyOwnColumns(def, c));
  return false;
}

/**
 * The rows the capped total counts: the bare table when the declared SELECT's joins keep its rows
 * (`joinsKeepRows`) and the conditions name only the table's columns, so an index alone can answer
 * (counting 10 000 rows through two joins took 60–300 ms); the declared SELECT otherwise.
 */
function countedRows(def: ResourceDef, db: DbOrTx, where: SQL | undefined, cap: number | null) {
  const bare = !def.select || (def.joinsKeepRows === true && onlyOwnColumns(def, where));
  const q = bare ? db.select({ one: sql`1` }).from(def.table).where(where).$dynamic() : baseSelect(def, db).where(where);
  return cap === null ? q : q.limit(cap + 1);
}

export async function listRecords(def: ResourceDef, db: DbOrTx, query: ListQuery, timezone: string, scope?: SQL, actor?: AdminActor) {
  const where = whereOf(def, query, timezone, scope, actor);
  const s = sortOf(def, query.sort);
  const limit = query.limit;
  let rows: Row[];
  let page = query.page;
  const before = def.spec.keyset ? query.before : undefined;
  const after = def.spec.keyset ? query.cursor : undefined;
  if (after && before) throw badRequest('Page after a cursor or before one, not both', { before: 'Use cursor or before, not both' });
  if (after || before) {
    // Backward (Previous): the rows just before the cursor, read in the reverse order, then turned round.
    const cond = and(where, keysetCondition(def, s, (after ?? before)!, !!before));
    rows = await baseSelect(def, db).where(cond).orderBy(...orderBy(def, before ? { ...s, dir: s.dir === 'desc' ? 'asc' : 'desc' } : s)).limit(limit + 1);
    page = 0;
  } else {
    rows = await baseSelect(def, db).where(where).orderBy(...orderBy(def, s)).limit(limit + 1).offset((page - 1) * limit);
  }
  const hasMore = rows.length > limit;
  const pageRows = rows.slice(0, limit);
  if (before) pageRows.reverse();
  const items = (await withBatchFields(def, db, pageRows)).map((r) => def.toRecord(r));
  const cursorAt = (i: number) => encodeCursor(sortValue(s, pageRows[i]!, items[i]!), items[i]!._id);
  // Large tables get a capped count: counting millions of rows on every page is not worth it.
  const searching = typeof query.q === 'string' && query.q.trim() !== '' && (def.searchColumns?.length ?? 0) > 0;
  const cap = def.spec.keyset ? (searching ? SEARCH_COUNT_CAP : COUNT_CAP) : null;
  const counted = await db.execute(sql`select count(*) as n from (${countedRows(def, db, where, cap)}) t`);
  const total = Number((counted as unknown as { rows: { n: string | number }[] }).rows[0]?.n ?? 0);
  const last = items[items.length - 1];
  const first = items[0];
  const result: Record<string, unknown> = { items, total: cap === null ? total : Math.min(total, cap), page, limit };
  if (cap !== null && total > cap) result.totalCapped = true;
  if (def.spec.keyset) {
    const cursorable = !def.nullable?.includes(s.key);
    // Going forward, more rows after this page is what the extra row says; coming back, the page we came from is after it.
    result.nextCursor = cursorable && last && (before || hasMore) ? cursorAt(items.length - 1) : null;
    // Rows before this page: the page we came from (forward), or the extra row (backward).
    result.prevCursor = cursorable && first && (after || (before && hasMore)) ? cursorAt(0) : null;
  }
  return result;
}

export async function loadRecord(def: ResourceDef, db: DbOrTx, id: number, scope?: SQL): Promise<{ row: Row; record: ApiRecord }> {
  const [row] = await baseSelect(def, db).where(and(def.baseWhere, scope, eq(def.idColumn, id))).limit(1);
  if (!row) throw notFound(def.spec.label);
  await withBatchFields(def, db, [row]);
  return { row, record: def.toRecord(row) };
}

function translateDbError(def: ResourceDef, err: unknown): never {
  const constraint = uniqueViolation(err);
  if (constraint) {
    const known = def.uniqueErrors?.[constraint];
    if (known) throw conflict(known.message, { [known.field]: known.message });
    throw conflict(`This ${def.spec.label.toLowerCase()} already exists`);
  }
  const code = (err as { code?: string; cause?: { code?: string } })?.code ?? (err as { cause?: { code?: string } })?.cause?.code;
  if (code === '23503' || code === '23001') throw conflict(`This ${def.spec.label.toLowerCase()} is in use and cannot be removed`);
  throw err;
}

function withUpdatedAt(def: ResourceDef, values: Row, now = new Date()): Row {
  return 'updatedAt' in getTableColumns(def.table) ? { ...values, updatedAt: now } : values;
}

/** The resources a server serves, by API name: where references point. */
export type ResourceRegistry = Readonly<Record<string, ResourceDef>>;

/**
 * Every reference value of `input` names a row of its target (read through the target's own SELECT,
 * base condition and scope): a missing one is a 400 on its field, before any write (not a foreign-key
 * error from the database, and not a silent dangling id where there is no foreign key).
 */
export async function checkReferenceValues(
  registry: ResourceRegistry,
  db: DbOrTx,
  actor: AdminActor,
  fields: readonly FormFieldSpec[],
  input: Record<string, unknown>,
  /** What each field accepts beyond existing (`ResourceDef.accepts`, looked up by the field's key). */
  accepts: (key: string) => SQL | undefined = () => undefined,
): Promise<void> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    if (field.type !== 'reference') continue;
    const value = input[field.key];
    if (value === undefined || value === null || value === '') continue;
    const target = registry[field.reference.resource];
    if (!target) throw new Error(`reference to "${field.reference.resource}", which this server does not serve`);
    const id = String(value);
    const found = async (extra?: SQL) =>
      (await baseSelect(target, db).where(and(target.baseWhere, target.scope?.(actor), eq(target.idColumn, Number(id)), extra)).limit(1)).length > 0;
    const accepted = accepts(field.key);
    if (!/^\d{1,18}$/.test(id) || !(await found())) errors[field.key] = `No ${target.spec.label.toLowerCase()} with id ${id}`;
    else if (accepted && !(await found(accepted))) errors[field.key] = `This ${target.spec.label.toLowerCase()} cannot be chosen here`;
  }
  const first = Object.values(errors)[0];
  if (first) throw badRequest(first, errors);
}

/**
 * A reference input's choices (`GET <base>/choices/<place>`, under the right that opens the list,
 * form or action it belongs to): the target's records as id and label only, read through the
 * target's own SELECT, base condition and scope. A search looks in the label's column alone unless
 * the admin may view the target (then the target's own search: a user by email too), so the offer
 * never answers a question about a field the admin cannot see. The declaration's filter (open
 * events only) narrows a search, not the labels of ids already chosen; what the input accepts
 * (`ResourceDef.accepts`) narrows a search, and an action's labels by id too: an action's picker
 * offers nothing the action refuses.
 */
export async function referenceChoices(
  target: ResourceDef,
  reference: ReferenceSpec,
  db: DbOrTx,
  actor: AdminActor,
  canViewTarget: boolean,
  query: { q?: string | undefined; ids?: string | undefined },
  timezone: string,
  /**
   * The records some row of the declaration's own table points at, by the input's column (a user who
   * has withdrawals): a filter's search offers only those; and for an admin who may not view the
   * target, the labels of ids (a filter's or a form field's) are only those, so the endpoint names
   * no record the admin's own list does not already show.
   */
  referenced?: { where: SQL; narrowsSearch: boolean },
  accepted?: { where: SQL; namesIds: boolean },
): Promise<Choice[]> {
  const scope = target.scope?.(actor);
  const choice = (row: Row): Choice => {
    const r = target.toRecord(row);
    const v = r[reference.labelKey];
    const label = typeof v === 'string' && v !== '' ? v : `#${r._id}`;
    if (!reference.extra?.length) return { _id: r._id, label };
    // The declared public facts a money field reads (a coin's decimals and symbol).
    return { _id: r._id, label, extra: Object.fromEntries(reference.extra.map((k) => [k, r[k] ?? null])) as NonNullable<Choice['extra']> };
  };
  if (query.ids !== undefined) {
    const ids = query.ids.split(',').map(Number);
    const named = canViewTarget ? undefined : referenced?.where;
    const acceptedOnly = accepted?.namesIds ? accepted.where : undefined;
    const rows = await baseSelect(target, db).where(and(target.baseWhere, scope, inArray(target.idColumn as AnyPgColumn, ids), named, acceptedOnly)).limit(ids.length);
    return rows.map(choice);
  }
  const q = query.q?.trim() ?? '';
  const labelColumn = target.columns[reference.labelKey];
  // The target's own search for an admin who may view it, and for a label that is no column of its
  // own (a store allocation's "pack at store", searched by those names); else the label's column.
  const targetSearch = q !== '' && (canViewTarget || !labelColumn);
  const labelSearch = q !== '' && !targetSearch ? ilike(labelColumn as AnyPgColumn, likePattern(q)) : undefined;
  const filter = listQuerySchema(target.spec).parse(reference.filter ?? {});
  const where = whereOf(target, targetSearch ? { ...filter, q } : filter, timezone, scope, actor);
  const rows = await baseSelect(target, db)
    .where(and(where, labelSearch, referenced?.narrowsSearch ? referenced.where : undefined, accepted?.where))
    .orderBy(...orderBy(target, sortOf(target, target.spec.defaultSort)))
    .limit(CHOICES_LIMIT);
  return rows.map(choice);
}

/** What an action's reference inputs accept (`ResourceDef.accepts` under `<action>.<field>`), by field. */
const actionAccepts = (def: ResourceDef, action: string) => (key: string) => def.accepts?.[`${action}.${key}`];

/**
 * The condition that some row of the list points at the target record: the declaration's own
 * (`referencedBy`), or `exists` on the input's column of the list's own table within the list's
 * base condition (an open position's user: not one with closed positions only), indexed where the
 * list filters by that column. A reference input with neither is refused at start: its choices
 * would name records the list never shows.
 */
function referencingRows(def: ResourceDef, target: ResourceDef, key: string): SQL {
  const declared = def.referencedBy?.[key];
  if (declared) return declared(target.idColumn);
  // A filter's declared column; a form field not filtered by, the table's column of its name.
  const fk = def.columns[key] ?? (getTableColumns(def.table) as Record<string, AnyPgColumn>)[key];
  const own = fk && is(fk, Column) && fk.table === def.table && !def.filterWhere?.[key] && getTableName(def.table) !== getTableName(target.table);
  if (!own) throw new Error(`${def.spec.name}: the reference input "${key}" is no column of its own table: declare referencedBy.${key}`);
  return sql`exists (select 1 from ${def.table} where ${fk} = ${target.idColumn}${def.baseWhere ? sql` and ${def.baseWhere}` : sql``})`;
}

async function createRecord(def: ResourceDef, ctx: AppContext, actor: AdminActor, body: Row, registry: ResourceRegistry): Promise<ApiRecord> {
  // What does not apply to the choices made (`visibleWhen`) is stored as null.
  const input = clearHiddenFields(def.spec.form ?? [], body);
  try {
    return await ctx.db.transaction(async (tx) => {
      const w = { tx, actor, ctx };
      await checkReferenceValues(registry, tx, actor, def.spec.form ?? [], input, (key) => def.accepts?.[key]);
      if (def.create) return def.create(input, w);
      const values = def.prepareCreate ? await def.prepareCreate(input, w) : input;
      const [inserted] = (await tx.insert(def.table).values(values).returning({ id: def.idColumn })) as { id: number }[];
      if (def.relations) await def.relations.save(inserted!.id, input, w);
      const { record } = await loadRecord(def, tx, inserted!.id);
      await writeAudit(tx, actor, { action: 'create', resource: def.spec.name, recordId: record._id, after: record });
      return record;
    });
  } catch (err) {
    translateDbError(def, err);
  }
}

/** Whether an input value equals the record's (instants by time, id lists as sets, empty as null). */
function sameFieldValue(field: FormFieldSpec, current: unknown, next: unknown): boolean {
  const empty = (v: unknown) => v === null || v === undefined || v === '';
  if (empty(current) || empty(next)) return empty(current) && empty(next);
  if (field.type === 'datetime') return Date.parse(String(current)) === Date.parse(String(next));
  if (Array.isArray(current) || Array.isArray(next)) {
    const norm = (v: unknown) => (Array.isArray(v) ? v.map(String).sort() : [String(v)]).join('\u0000');
    return norm(current) === norm(next);
  }
  return String(current) === String(next);
}

/**
 * A patch with the fields that no longer apply (`visibleWhen`, judged on the record as it will be)
 * set to null: sent or stored, their value goes (a reward card moved from trading volume to packs
 * opened loses its period).
 */
function hiddenCleared(def: ResourceDef, before: ApiRecord, input: Row): Row {
  const fields = (def.spec.form ?? []).filter((f) => f.visibleWhen);
  if (fields.length === 0) return input;
  const cleared = clearHiddenFields(fields, input, before);
  const out = { ...input };
  for (const f of fields) {
    if (cleared[f.key] !== null || (input[f.key] === undefined && (before[f.key] === null || before[f.key] === undefined || before[f.key] === ''))) continue;
    out[f.key] = null;
  }
  return out;
}

/** Fields the declaration makes editable only in some states (a market's ticker once open): a change elsewhere is a 409. */
function checkEditableFields(def: ResourceDef, before: ApiRecord, input: Row): void {
  const machine = def.spec.states;
  if (!machine) return;
  const status = String(before.status);
  const label = machine.states.find((st) => st.value === status)?.label.toLowerCase() ?? status;
  const errors: Record<string, string> = {};
  for (const field of def.spec.form ?? []) {
    if (!field.editableIn || field.editableIn.includes(status) || input[field.key] === undefined) continue;
    if (sameFieldValue(field, before[field.key], input[field.key])) continue;
    errors[field.key] = `${field.label} cannot change once the ${machine.noun.toLowerCase()} is ${label}`;
  }
  const messages = Object.values(errors);
  if (messages.length) throw new AppError(409, ERROR_CODES.INVALID_STATE, messages.length === 1 ? messages[0]! : `${messages.length} fields cannot change once the ${machine.noun.toLowerCase()} is ${label}`, errors);
}

async function updateOne(def: ResourceDef, tx: DbOrTx, ctx: AppContext, actor: AdminActor, id: number, patch: Row, registry?: ResourceRegistry): Promise<ApiRecord> {
  const w = { tx, actor, ctx };
  if (registry) await checkReferenceValues(registry, tx, actor, def.spec.form ?? [], patch, (key) => def.accepts?.[key]);
  if (def.update) return def.update(id, patch, w);
  // The row lock serialises an edit with a concurrent action: the state checked below is the one the write sees.
  await tx.select({ id: def.idColumn }).from(def.table).where(eq(def.idColumn, id)).for('update');
  const { row, record: before } = await loadRecord(def, tx, id);
  const input = hiddenCleared(def, before, patch);
  checkEditableFields(def, before, input);
  const values = def.prepareUpdate ? await def.prepareUpdate(input, { ...w, existing: row }) : input;
  const relationKeys = def.relations?.keys ?? [];
  const clean = Object.fromEntries(Object.entries(values).filter(([k, v]) => v !== undefined && !relationKeys.includes(k)));
  const related = relationKeys.some((k) => input[k] !== undefined) ? await def.relations!.save(id, input, w) : false;
  // Nothing to change: no write, no audit entry.
  if (Object.keys(clean).length === 0 && !related) return before;
  const set = withUpdatedAt(def, clean);
  if (Object.keys(set).length > 0) await tx.update(def.table).set(set).where(eq(def.idColumn, id));
  const { record } = await loadRecord(def, tx, id);
  await writeAudit(tx, actor, { action: 'update', resource: def.spec.name, recordId: id, before, after: record });
  return record;
}

async function deleteOne(def: ResourceDef, tx: DbOrTx, ctx: AppContext, actor: AdminActor, id: number): Promise<void> {
  await tx.select({ id: def.idColumn }).from(def.table).where(eq(def.idColumn, id)).for('update');
  const { record } = await loadRecord(def, tx, id);
  if (def.spec.deleteMode === 'archive') return setArchived(def, tx, actor, id, true, record);
  const refused = deleteRefusal(def.spec, record);
  if (refused) throw new AppError(409, ERROR_CODES.INVALID_STATE, refused, { status: refused });
  await def.beforeDelete?.([record], { tx, actor, ctx });
  await tx.delete(def.table).where(eq(def.idColumn, id));
  await writeAudit(tx, actor, { action: 'delete', resource: def.spec.name, recordId: id, before: record });
}

/** Archive (or restore) keeps the row and its history; archiving twice changes nothing. */
async function setArchived(def: ResourceDef, tx: DbOrTx, actor: AdminActor, id: number, archived: boolean, before?: ApiRecord): Promise<void> {
  const column = def.archivedAtColumn!;
  const prior = before ?? (await loadRecord(def, tx, id)).record;
  if (Boolean(prior.archivedAt) === archived) return;
  await tx.update(def.table).set(withUpdatedAt(def, { [columnKey(def, column)]: archived ? new Date() : null })).where(eq(def.idColumn, id));
  const { record } = await loadRecord(def, tx, id);
  await writeAudit(tx, actor, { action: archived ? 'archive' : 'restore', resource: def.spec.name, recordId: id, before: prior, after: record });
}

function columnKey(def: ResourceDef, column: AnyPgColumn): string {
  const entry = Object.entries(getTableColumns(def.table)).find(([, c]) => c === column);
  if (!entry) throw new Error(`${def.spec.name}: archive column is not a column of its table`);
  return entry[0];
}

/** A declaration the server cannot serve fails at start, not at the first request. */
function checkDeclaration(def: ResourceDef, registry: ResourceRegistry): void {
  const { spec } = def;
  const problems: string[] = [];
  // References point at resources this server serves (by their declarations).
  problems.push(...referenceProblems(spec, Object.fromEntries(Object.entries(registry).map(([name, d]) => [name, d.spec]))));
  const sortable = spec.columns.filter((c) => c.sortable).map((c) => c.key);
  for (const key of sortable) if (key !== '_id' && !def.columns[key] && !def.sortBy?.[key]) problems.push(`sortable column "${key}" has no server column`);
  // Money texts do not sort as texts, nor minor units across coins: a money column sorts by its coin, then its amount.
  for (const c of spec.columns) if (c.sortable && c.type === 'money' && !def.sortBy?.[c.key]) problems.push(`sortable money column "${c.key}" needs sortBy (its coin, then its amount)`);
  for (const c of spec.columns) if (c.sortable && c.type === 'money' && !c.sortWithin) problems.push(`sortable money column "${c.key}" does not say what its amounts rank within (sortWithin)`);
  for (const key of Object.keys(def.sortBy ?? {})) {
    if (!sortable.includes(key)) problems.push(`sortBy "${key}" is not a sortable column`);
    else sortParts(def, key);
  }
  for (const f of spec.filters) {
    if (f.key === 'archived' && spec.deleteMode === 'archive') continue;
    if (def.filterWhere?.[f.key] && f.type !== 'equals' && f.type !== 'oneOf') problems.push(`filter "${f.key}" has a custom condition but is not an equals or oneOf filter`);
    if (!def.columns[f.key] && !def.filterWhere?.[f.key]) problems.push(`filter "${f.key}" has no server column`);
  }
  for (const field of spec.form ?? []) {
    for (const st of field.editableIn ?? []) if (!spec.states?.states.some((x) => x.value === st)) problems.push(`field "${field.key}" is editable in the undeclared state "${st}"`);
  }
  if (!sortable.includes(spec.defaultSort.replace(/^-/, ''))) problems.push(`default sort "${spec.defaultSort}" is not a sortable column`);
  const names = new Set<string>();
  for (const a of spec.actions ?? []) {
    if (names.has(a.name)) problems.push(`action "${a.name}" declared twice`);
    names.add(a.name);
    if (!def.actions?.[a.name]) problems.push(`action "${a.name}" has no handler`);
    if (typeof a.right === 'object' && !namedRightsOf(spec.restriction ?? '').some((r) => r.key === (a.right as { named: string }).named)) {
      problems.push(`action "${a.name}" needs the unknown right "${a.right.named}" of ${spec.restriction}`);
    }
    for (const field of a.fields ?? []) if (!a.input || !(field.key in a.input.shape)) problems.push(`action "${a.name}" field "${field.key}" is not in its input`);
    if (a.bulk && !spec.restriction) problems.push(`action "${a.name}" has a bulk form on a resource without a restriction name`);
  }
  for (const name of Object.keys(def.actions ?? {})) if (!names.has(name)) problems.push(`handler "${name}" has no declared action`);
  for (const st of spec.deletableIn ?? []) if (!spec.states?.states.some((x) => x.value === st)) problems.push(`deletable in the undeclared state "${st}"`);
  if (spec.states) {
    const values = new Set(spec.states.states.map((st) => st.value));
    if (!values.has(spec.states.initial)) problems.push(`initial state "${spec.states.initial}" is not declared`);
    for (const [name, t] of Object.entries(spec.states.transitions as Record<string, { from: readonly string[]; to: string }>)) {
      for (const st of [...t.from, t.to]) if (!values.has(st)) problems.push(`transition "${name}" names the undeclared state "${st}"`);
    }
  }
  if (!spec.restriction && (!def.scope || !spec.readOnly || spec.actions?.length)) problems.push('a resource open to every admin must be read-only and scoped');
  if (problems.length) throw new Error(`Resource ${spec.name}: ${problems.join('; ')}`);
}

const BULK_MAX = 50_000;

/** Ids as one `bigint[]` parameter (ids are validated digits): one bind value however many there are. */
function idArray(ids: number[]): SQL {
  return sql`${`{${ids.join(',')}}`}::bigint[]`;
}

/** Audit rows for many records in one INSERT … SELECT over a single JSON parameter. */
async function auditMany(tx: DbOrTx, actor: AdminActor, resource: string, action: AuditAction, entries: { recordId: string; before?: unknown; after?: unknown }[]): Promise<void> {
  if (entries.length === 0) return;
  const who = auditActor(actor);
  const json = JSON.stringify(entries.map((e) => ({ record_id: e.recordId, before: e.before === undefined ? null : redact(e.before), after: e.after === undefined ? null : redact(e.after) })));
  await tx.execute(sql`
    insert into audit_log (actor_kind, admin_id, admin_email, action, resource, record_id, before, after, ip)
    select ${who.actorKind}, ${who.adminId}, ${who.adminEmail}, ${action}, ${resource}, x.record_id, x.before, x.after, ${who.ip}
    from jsonb_to_recordset(${json}::jsonb) as x(record_id text, before jsonb, after jsonb)`);
}

/** Bulk status change, set-based: one UPDATE for the records whose status differs, one audit INSERT. */
async function bulkStatus(def: ResourceDef, tx: DbOrTx, actor: AdminActor, records: ApiRecord[], status: string): Promise<void> {
  const column = def.statusColumn;
  if (!column) throw new Error(`${def.spec.name}: bulk status needs statusColumn`);
  const changing = records.filter((r) => r.status !== status);
  if (changing.length === 0) return;
  const now = new Date();
  await tx.update(def.table).set(withUpdatedAt(def, { [columnKey(def, column)]: status }, now)).where(sql`${def.idColumn} = any(${idArray(changing.map((r) => Number(r._id)))})`);
  const updatedAt = 'updatedAt' in getTableColumns(def.table) ? { updatedAt: now.toISOString() } : {};
  await auditMany(tx, actor, def.spec.name, 'update', changing.map((r) => ({ recordId: r._id, before: r, after: { ...r, status, ...updatedAt } })));
}

/** Bulk delete (or archive), set-based: one DELETE or UPDATE, one audit INSERT. */
async function bulkRemove(def: ResourceDef, tx: DbOrTx, ctx: AppContext, actor: AdminActor, records: ApiRecord[]): Promise<void> {
  if (def.spec.deleteMode === 'archive') {
    const live = records.filter((r) => !r.archivedAt);
    if (live.length === 0) return;
    const now = new Date();
    await tx.update(def.table).set(withUpdatedAt(def, { [columnKey(def, def.archivedAtColumn!)]: now }, now)).where(sql`${def.idColumn} = any(${idArray(live.map((r) => Number(r._id)))})`);
    await auditMany(tx, actor, def.spec.name, 'archive', live.map((r) => ({ recordId: r._id, before: r, after: { ...r, archivedAt: now.toISOString() } })));
    return;
  }
  const refused = records.filter((r) => deleteRefusal(def.spec, r));
  if (refused.length === 1) throw new AppError(409, ERROR_CODES.INVALID_STATE, deleteRefusal(def.spec, refused[0]!)!);
  if (refused.length > 1) throw new AppError(409, ERROR_CODES.INVALID_STATE, `${refused.length} of these ${def.spec.plural.toLowerCase()} cannot be deleted in their state: ${deleteRefusal(def.spec, refused[0]!)}`);
  await def.beforeDelete?.(records, { tx, actor, ctx });
  await tx.delete(def.table).where(sql`${def.idColumn} = any(${idArray(records.map((r) => Number(r._id)))})`);
  await auditMany(tx, actor, def.spec.name, 'delete', records.map((r) => ({ recordId: r._id, before: r })));
}

function exportFilename(spec: ResourceSpec, timezone: string): string {
  return `${spec.name}-${formatInZone(new Date(), timezone).slice(0, 10)}.csv`;
}

/**
 * The CSV export of a list query: every matching row, streamed in keyset batches (see
 * `exportCsvChunks`). `mode` forces how rows are read and `batch` the rows per query (the tests compare the paths across batch boundaries); by default the
 * raw read when the declaration allows it.
 */
export function exportCsv(
  def: ResourceDef, db: DbOrTx, query: ListQuery, timezone: string, view: (r: ApiRecord) => ApiRecord, scope?: SQL, mode?: ExportMode, batch?: number, actor?: AdminActor,
): AsyncGenerator<string | Buffer> {
  return exportCsvChunks({ def, db, where: whereOf(def, query, timezone, scope, actor), sort: sortOf(def, query.sort), timezone, view, ...(mode ? { mode } : {}), ...(batch ? { batch } : {}) });
}

/**
 * Runs a declared action on one record, for any actor (admin through the API, the platform, a job),
 * in one transaction: reads the record (404, and what the handler's message names), calls the
 * handler, reads it again for the answer. What the action does is its service's: an action that
 * moves the record's state goes through `transition` (resources/transition.ts), which locks the row,
 * checks the declared machine (409 naming the state), updates and writes the audit entry with the
 * actor, whoever calls the service; the mechanism neither locks, checks nor audits it again. An
 * action that moves no state is locked here, and when its services wrote no audit entry (a test
 * mail, codes, an assignment) audited here, with the record before and after and the input (secrets redacted); one that moves
 * the state and wrote none is a server error (its service skipped `transition`).
 */
export async function runAction(def: ResourceDef, ctx: AppContext, actor: Actor, id: number, name: string, input: Record<string, unknown>): Promise<{ record: ApiRecord; message: string; output?: ActionOutput }> {
  const action = def.spec.actions?.find((a) => a.name === name);
  const handler = def.actions?.[name];
  if (!action || !handler) throw new Error(`${def.spec.name}: no action "${name}"`);
  const moves = transitionOf(def.spec.states, action.name) !== undefined;
  return ctx.db.transaction(async (tx) => {
    // A move is locked by its service's `transition` (in the service's lock order: an order's market
    // first). An action that moves no state is serialised here, as its entry's `before` is read here.
    if (!moves) await tx.select({ id: def.idColumn }).from(def.table).where(eq(def.idColumn, id)).for('update');
    const { record: before } = await loadRecord(def, tx, id);
    const audited = auditCount(tx);
    const answer = await handler(tx, actor, before, input, ctx);
    const { message, output } = typeof answer === 'object' ? answer : { message: answer, output: undefined };
    const { record: after } = await loadRecord(def, tx, id);
    if (auditCount(tx) === audited) {
      if (moves) throw new Error(`${def.spec.name}: the action "${action.name}" moves the state but its service did not audit it: make the move with transition()`);
      // What the action showed once (codes) is not written to the audit log: only that it ran and what it says.
      const extra = { ...(Object.keys(input).length ? { input } : {}), ...(output ? { result: output.summary } : {}) };
      await writeAudit(tx, actor, { action: action.name, resource: def.spec.name, recordId: id, before, after: Object.keys(extra).length ? { ...after, ...extra } : after });
    }
    return { record: after, message: message || `${action.label}: done`, ...(output ? { output } : {}) };
  });
}

/**
 * The records one bulk action call works on, in id order: the selected ids (those that exist, under
 * the base condition and scope) or every record matching a list query; more than
 * `BULK_ACTION_MAX` is a 400 before anything runs.
 */
async function bulkTargets(
  def: ResourceDef, db: DbOrTx, body: { ids?: string[]; query?: Record<string, string> }, listQuery: z.ZodObject, timezone: string, scope: SQL | undefined, actor?: AdminActor,
): Promise<{ ids: number[]; missing: string[] }> {
  if (body.ids) {
    const wanted = [...new Set(body.ids)];
    const rows: Row[] = await baseSelect(def, db).where(and(def.baseWhere, scope, sql`${def.idColumn} = any(${idArray(wanted.map(Number))})`));
    const found = new Set(rows.map((r) => def.toRecord(r)._id));
    return { ids: wanted.filter((id) => found.has(id)).map(Number).sort((a, b) => a - b), missing: wanted.filter((id) => !found.has(id)) };
  }
  const parsed = listQuery.omit({ page: true, limit: true, cursor: true, before: true, sort: true }).safeParse(body.query);
  if (!parsed.success) throw badRequest('Invalid query', { query: parsed.error.issues[0]?.message ?? 'Invalid query' });
  const rows: Row[] = await baseSelect(def, db).where(whereOf(def, parsed.data, timezone, scope, actor)).orderBy(asc(def.idColumn)).limit(BULK_ACTION_MAX + 1);
  if (rows.length > BULK_ACTION_MAX) {
    const message = `Too many records: at most ${BULK_ACTION_MAX.toLocaleString('en')} at once, narrow the filters`;
    throw badRequest(message, { query: message });
  }
  return { ids: rows.map((r) => Number(def.toRecord(r)._id)), missing: [] };
}

/**
 * Runs one declared action over many records, each exactly as the single action runs it
 * (`runAction`: its own transaction, its service's row lock, state check and audit entry), one after the
 * other in id order. A record refused (wrong state, the service's own rules) is skipped with the
 * reason and the rest go on: what is done stays done, each in its own commit.
 */
export async function runBulkAction(
  def: ResourceDef, ctx: AppContext, actor: Actor, ids: readonly number[], action: ActionSpec, input: Record<string, unknown>,
): Promise<BulkActionResult> {
  const result: BulkActionResult = { done: 0, skipped: [] };
  for (const id of ids) {
    try {
      await runAction(def, ctx, actor, id, action.name, input);
      result.done += 1;
    } catch (err) {
      if (err instanceof AppError && err.status < 500) result.skipped.push({ id: String(id), reason: err.message });
      else {
        // Its transaction rolled back; the others stand. Logged for the operator, named in the answer.
        ctx.log.error({ err, resource: def.spec.name, action: action.name, id }, 'bulk action failed on one record');
        result.skipped.push({ id: String(id), reason: 'Server error: left unchanged' });
      }
    }
  }
  return result;
}

/**
 * What a bulk action would act on, read before it runs: the records of the selection its state
 * allows, and per coin (the declared `amount`) their total and the largest, in minor units.
 */
async function bulkPreview(def: ResourceDef, db: DbOrTx, ids: readonly number[], action: ActionSpec): Promise<BulkPreview> {
  const rows: Row[] = ids.length ? await baseSelect(def, db).where(sql`${def.idColumn} = any(${idArray([...ids])})`) : [];
  const records = rows.map((r) => def.toRecord(r));
  const move = transitionOf(def.spec.states, action.name);
  const applies = records.filter((r) => !move || move.from.includes(String(r.status)));
  const totals = new Map<string, BulkPreview['totals'][number]>();
  const amount = def.spec.amount;
  if (amount) {
    for (const r of applies) {
      const coin = String(r[amount.coin]);
      const value = BigInt(String(r[amount.key]));
      const title = String(r[def.spec.titleField] ?? r._id);
      const t = totals.get(coin);
      if (!t) totals.set(coin, { coin, decimals: Number(r[amount.decimals]), count: 1, total: value.toString(), largest: { _id: r._id, title, amount: value.toString() } });
      else {
        t.count += 1;
        t.total = (BigInt(t.total) + value).toString();
        if (value > BigInt(t.largest.amount)) t.largest = { _id: r._id, title, amount: value.toString() };
      }
    }
  }
  return { count: applies.length, notApplicable: records.length - applies.length, totals: [...totals.values()].sort((a, b) => a.coin.localeCompare(b.coin)) };
}

function bulkMessage(spec: ResourceSpec, action: ActionSpec, total: number, result: BulkActionResult): string {
  const what = total === 1 ? spec.label.toLowerCase() : spec.plural.toLowerCase();
  const skipped = result.skipped.length ? `; ${result.skipped.length} skipped` : '';
  return `${action.label}: ${result.done} of ${total} ${what} done${skipped}`;
}

/**
 * Registers every resource of a server: the references between them are checked against this set
 * (a reference to a resource the server does not serve stops the start), then each one's routes.
 */
export function registerResources(app: App, ctx: AppContext, defs: readonly ResourceDef[]): void {
  const registry: Record<string, ResourceDef> = {};
  for (const def of defs) {
    if (Object.hasOwn(registry, def.spec.name)) throw new Error(`Resource ${def.spec.name} is registered twice`);
    registry[def.spec.name] = def;
  }
  for (const def of defs) registerResource(app, ctx, def, registry);
}

/** One resource's routes. `registry`: the resources its references may point at (itself alone by default). */
export function registerResource(app: App, ctx: AppContext, def: ResourceDef, registry: ResourceRegistry = { [def.spec.name]: def }): void {
  const { spec } = def;
  checkDeclaration(def, registry);
  const base = resourceBase(spec.name);
  // Every route is one of the endpoints the contract derives from the declaration: access, schemas
  // and the result check come from there (a route not declared there cannot be registered here).
  const endpoints = new Map(resourceEndpoints(spec).map((e) => [e.key, e]));
  const ep = (method: string, suffix = ''): Endpoint => {
    const e = endpoints.get(`${method} ${base}${suffix}`);
    if (!e) throw new Error(`${spec.name}: ${method} ${base}${suffix} is not among the declaration's endpoints`);
    return e;
  };
  const idOf = (req: { params: unknown }) => Number((req.params as { id: string }).id);
  const listQuery = listQuerySchema(spec);
  // The declaration's per-request condition (own rows only…), applied to every read and write.
  const scopeOf = (req: FastifyRequest): SQL | undefined => def.scope?.(req.actor());
  const viewer = (req: FastifyRequest) => (r: ApiRecord): ApiRecord => (def.viewFor ? def.viewFor(r, req.admin!) : r);

  route(app, ep('GET'), async (req) => {
    const result = await listRecords(def, ctx.db, req.query as ListQuery, req.timezone, scopeOf(req), req.actor());
    return ok({ ...result, items: (result.items as ApiRecord[]).map(viewer(req)) });
  });

  route(app, ep('GET', '/export'), async (req, reply) => {
    const query = { ...(req.query as Record<string, unknown>), page: 1, limit: EXPORT_BATCH } as ListQuery;
    const chunks = exportCsv(def, ctx.db, query, req.timezone, viewer(req), scopeOf(req), undefined, undefined, req.actor());
    // Pull the header (and so run the first query) before answering 200.
    const head = await chunks.next();
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportFilename(spec, req.timezone)}"`);
    async function* rest() {
      if (!head.done) yield head.value;
      yield* chunks;
    }
    return reply.send(Readable.from(rest()));
  });

  route(app, ep('GET', '/:id'), async (req) => ok(viewer(req)((await loadRecord(def, ctx.db, idOf(req), scopeOf(req))).record)));
  // Resources open to every admin (own rows through their scope) are read-only.
  const restriction = spec.restriction;
  if (!restriction) return;
  // Each reference input's choices, under the right of the list, form or action it belongs to.
  for (const { place, reference } of choicePlaces(spec)) {
    const target = registry[reference.resource]!;
    const path = choicesPath(spec.name, place).slice(base.length);
    // A filter offers the records some row of its list points at (`referencingRows`): picking one
    // never gives an empty list for want of rows. A form field offers every record its reference
    // allows, but names by id, to an admin who may not view the target, only those some record holds
    // (its current values). An action's input offers, by search and by id, only what it accepts.
    const referenced = place.kind === 'action' ? undefined : { where: referencingRows(def, target, place.key), narrowsSearch: place.kind === 'filter' };
    const accepts = place.kind === 'action' ? actionAccepts(def, place.action)(place.key) : place.kind === 'form' ? def.accepts?.[place.key] : undefined;
    // An action's input is no column a list shows: what it accepts is all that may be named by id.
    if (place.kind === 'action' && !accepts) throw new Error(`${spec.name}: the reference input "${place.key}" of the action "${place.action}" declares no accepts["${place.action}.${place.key}"]`);
    const accepted = accepts ? { where: accepts, namesIds: place.kind === 'action' } : undefined;
    route(app, ep('GET', path), async (req) => {
      const admin = req.admin!;
      const canView = target.spec.restriction === null || accessFor(admin, target.spec.restriction).canView;
      return ok({ items: await referenceChoices(target, reference, ctx.db, req.actor(), canView, req.query as { q?: string; ids?: string }, req.timezone, referenced, accepted) });
    });
  }
  // A form with an image field: its upload endpoint, under the same write right.
  const images = endpoints.get(`POST ${base}/images`);
  if (images) registerImageUpload(app, ctx, images);

  for (const action of spec.actions ?? []) {
    route(app, ep('POST', `/:id/${action.name}`), async (req) => {
      const input = (req.body ?? {}) as Record<string, unknown>;
      await checkReferenceValues(registry, ctx.db, req.actor(), action.fields ?? [], input, actionAccepts(def, action.name));
      const { record, message, output } = await runAction(def, ctx, req.actor(), idOf(req), action.name, input);
      def.afterWrite?.();
      return ok(action.output ? { ...record, actionOutput: output ?? { summary: message, ok: true, rows: [] } } : record, message);
    });
    if (!action.bulk) continue;
    // What it would cover, under the same right: count, total per coin, largest.
    route(app, ep('POST', `/bulk/${action.name}/preview`), async (req) => {
      const { ids } = await bulkTargets(def, ctx.db, req.body as { ids?: string[]; query?: Record<string, string> }, listQuery, req.timezone, scopeOf(req), req.actor());
      return ok(await bulkPreview(def, ctx.db, ids, action));
    });
    // The bulk form: the same right, each record through runAction, a summary of what was done and skipped.
    route(app, ep('POST', `/bulk/${action.name}`), async (req) => {
      const body = req.body as { ids?: string[]; query?: Record<string, string>; input?: Record<string, unknown> };
      const input = body.input ?? {};
      await checkReferenceValues(registry, ctx.db, req.actor(), action.fields ?? [], input, actionAccepts(def, action.name));
      const { ids, missing } = await bulkTargets(def, ctx.db, body, listQuery, req.timezone, scopeOf(req), req.actor());
      const result = await runBulkAction(def, ctx, req.actor(), ids, action, input);
      for (const id of missing) result.skipped.push({ id, reason: `${spec.label} not found` });
      if (result.done > 0) def.afterWrite?.();
      return ok(result, bulkMessage(spec, action, ids.length + missing.length, result));
    });
  }

  if (spec.readOnly) return;

  if (spec.create) {
    route(app, ep('POST'), async (req) => {
      const record = await createRecord(def, ctx, req.actor(), req.body as Row, registry);
      def.afterWrite?.();
      return ok(record, def.createdMessage?.(record) ?? `${spec.label} created`);
    });
  }

  if (spec.update) {
    route(app, ep('PATCH', '/:id'), async (req) => {
      try {
        const record = await ctx.db.transaction((tx) => updateOne(def, tx, ctx, req.actor(), idOf(req), req.body as Row, registry));
        def.afterWrite?.();
        return ok(record, `${spec.label} updated`);
      } catch (err) {
        translateDbError(def, err);
      }
    });
  }

  const removable = spec.deleteMode === 'delete' || spec.deleteMode === 'archive';
  if (spec.deleteMode === 'archive' && !def.archivedAtColumn) throw new Error(`${spec.name}: archive needs archivedAtColumn`);
  if (removable) {
    route(app, ep('DELETE', '/:id'), async (req) => {
      try {
        await ctx.db.transaction((tx) => deleteOne(def, tx, ctx, req.actor(), idOf(req)));
      } catch (err) {
        translateDbError(def, err);
      }
      def.afterWrite?.();
      return { success: true, message: `${spec.label} ${spec.deleteMode === 'archive' ? 'archived' : 'deleted'}` };
    });
  }

  if (spec.deleteMode === 'archive') {
    route(app, ep('POST', '/:id/restore'), async (req) => {
      await ctx.db.transaction((tx) => setArchived(def, tx, req.actor(), idOf(req), false));
      def.afterWrite?.();
      return ok((await loadRecord(def, ctx.db, idOf(req))).record, `${spec.label} restored`);
    });
  }

  if (spec.bulkStatuses?.length && !def.statusColumn && !def.update) throw new Error(`${spec.name}: bulkStatuses need statusColumn`);
  if (removable || spec.bulkStatuses?.length) {
    route(app, ep('POST', '/bulk'), async (req) => {
      const body = req.body as BulkActionBody;
      if (body.action === 'delete' && !removable) throw badRequest(`${spec.plural} cannot be deleted`, { action: 'Not allowed here' });
      if (body.action === 'status' && !spec.bulkStatuses?.includes(body.status!)) {
        throw badRequest('Unknown status', { status: `One of: ${(spec.bulkStatuses ?? []).join(', ')}` });
      }
      let where: SQL | undefined;
      if (body.ids) where = and(def.baseWhere, scopeOf(req), sql`${def.idColumn} = any(${idArray(body.ids.map(Number))})`);
      else {
        const parsed = listQuery.omit({ page: true, limit: true, cursor: true, before: true, sort: true }).safeParse(body.query);
        if (!parsed.success) throw badRequest('Invalid query', { query: parsed.error.issues[0]?.message ?? 'Invalid query' });
        where = whereOf(def, parsed.data, req.timezone, scopeOf(req), req.actor());
      }
      // One transaction: all change, with their audit entries, or none.
      let affected: number;
      try {
        affected = await ctx.db.transaction(async (tx) => {
          // The targets come through the declared SELECT, so filters on joined columns work as in the list.
          const rows: Row[] = await baseSelect(def, tx).where(where).orderBy(asc(def.idColumn)).limit(BULK_MAX + 1);
          if (rows.length > BULK_MAX) throw badRequest(`Too many records: narrow the filters (at most ${BULK_MAX.toLocaleString('en')} at once)`);
          if (body.ids && rows.length < new Set(body.ids).size) throw notFound(`${body.ids.length - rows.length} of the selected ${spec.plural.toLowerCase()}`);
          const records = (await withBatchFields(def, tx, rows)).map((r) => def.toRecord(r));
          if (def.update) {
            // A resource with its own write rules (sub-admins) applies them record by record.
            for (const r of records) {
              if (body.action === 'delete') await deleteOne(def, tx, ctx, req.actor(), Number(r._id));
              else await updateOne(def, tx, ctx, req.actor(), Number(r._id), { status: body.status });
            }
          } else if (body.action === 'delete') await bulkRemove(def, tx, ctx, req.actor(), records);
          else await bulkStatus(def, tx, req.actor(), records, body.status!);
          return records.length;
        });
      } catch (err) {
        if (err instanceof AppError) throw err;
        translateDbError(def, err);
      }
      def.afterWrite?.();
      return ok({ affected }, `${affected} ${affected === 1 ? spec.label.toLowerCase() : spec.plural.toLowerCase()} ${body.action === 'delete' ? (spec.deleteMode === 'archive' ? 'archived' : 'deleted') : 'updated'}`);
    });
  }
}
