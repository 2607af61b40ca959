import type { ActionOutput, RecordOf, ResourceSpec } from '@pitboss/contract';
import { getTableColumns, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Actor, AdminActor, AppContext } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import type { ExportContext } from './csv-columns.js';
import type { AdminRow } from '../modules/auth/sessions.js';

/** What a write hook gets: the transaction, the admin acting (with their address), and the app. Never the HTTP request. */
export interface WriteContext {
  tx: DbOrTx;
  actor: AdminActor;
  ctx: AppContext;
}

export type Row = Record<string, unknown>;
export type ApiRecord = Record<string, unknown> & { _id: string };

/**
 * What an action does, given the locked record as it was: a service call taking the transaction
 * and the actor (never the HTTP request), so a job or the platform API runs the same code through
 * `runAction`. It may return the success message. State checks and the audit entry are the
 * mechanism's.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: handlers may return nothing (void) or their message.
export type ActionHandler = (tx: DbOrTx, actor: Actor, record: ApiRecord, input: Record<string, unknown>, ctx: AppContext) => Promise<string | void | ActionAnswer>;

/** What an action with a declared `output` answers: its message and the rows shown once (ActionSpec.output). */
export interface ActionAnswer {
  message: string;
  output: ActionOutput;
}

/**
 * The server half of a resource declaration: the contract's spec plus the
 * table and the few hooks where a module has its own rules. Everything else
 * (list with filters/sort/search/pagination, CSV export, read, create,
 * update, delete, bulk, audit, permissions) comes from `registerResource`.
 */
export interface ResourceDef<K extends string = string, S extends z.ZodObject = z.ZodObject, R extends Row = Row> {
  spec: ResourceSpec<K, S>;
  table: PgTable;
  idColumn: AnyPgColumn;
  /** Column (or expression) of each filter and sort key: keys of the record (a typo fails the type check). */
  columns: Partial<Record<K, AnyPgColumn | SQL>>;
  /**
   * The condition of an `equals` filter (or of each chosen value of a `oneOf` filter, OR-ed) that is not a plain column comparison (an event's tag, held
   * in a join table), given the filter's trimmed value and the admin asking (a ticket's "mine": assigned
   * to the caller; absent for a system caller). Takes the place of the filter's column.
   */
  filterWhere?: Partial<Record<K, (value: string, actor?: AdminActor) => SQL>>;
  searchColumns?: (AnyPgColumn | SQL)[];
  /**
   * A reference filter or form field that is no column of the list's own table (a trade's user: its
   * maker or its taker; a resolution's event, through its market): the condition that some row of
   * the list points at the target record `id`. A filter's choices offer only those records, and name
   * by id, to an admin who may not view the target, only those. An input on a column of the own
   * table gets it from the column; any other must declare it (checked at start).
   */
  referencedBy?: Partial<Record<K, (id: AnyPgColumn) => SQL>>;
  /**
   * What a reference input accepts of its target beyond its existing (a ticket's assignee: an active
   * sub-admin who may view tickets), keyed by form field (`categoryId`) or `<action>.<field>`
   * (`assign.adminId`): a condition on the target's rows. Any other value is refused with 400 on the
   * field before the write, and the input's choices offer only these (an action's, by id too: every
   * action's reference input declares it, checked at start, since no list row vouches for its ids).
   */
  accepts?: Record<string, SQL>;
  /** `equals` filters compared without regard to case (emails, names). */
  caseInsensitive?: string[];
  /**
   * Sort keys ordered by several columns of the table, then id (`resources/sort.ts`): what the list
   * orders by, what its keyset cursor carries (every column's value) and what an index
   * `(columns…, id)` serves. A money column sorts by its coin, then its amount (`[coinId, amount]`):
   * minor units compare only within a coin (1 SOL is 10^9 of them, 1 USDC 10^6), so amounts rank
   * within each coin, coins grouped (`ColumnSpec.sortWithin` says so). NOT NULL integer or text
   * columns of the table only, whose values the declared SELECT keeps (`getTableColumns`).
   */
  sortBy?: Partial<Record<K, readonly AnyPgColumn[]>>;
  /** Columns that may hold NULL (keyset and export fall back to id order). */
  nullable?: string[];
  /** Always-applied condition (e.g. only sub-admins' sign-ins). */
  baseWhere?: SQL;
  /** A condition from the signed-in admin, applied to every read and write (e.g. own rows only). */
  scope?(actor: AdminActor): SQL | undefined;
  /**
   * The declared SELECT's joins neither drop nor repeat the table's rows (inner joins on NOT NULL
   * foreign keys, left joins on a primary key): a list's total may then be counted on the table
   * alone when its conditions name only the table's columns.
   */
  joinsKeepRows?: boolean;
  /**
   * The SELECT the list and read use (a drizzle select builder, its rows typed `R`); default: every
   * column of the table (`R` is then the table's row).
   */
  select?: (db: DbOrTx) => SelectOf<Row>;
  /**
   * Row fields loaded for a whole batch of rows in one query (a user's balances) where a correlated
   * subquery in `select` would run once per row: over a 1 M-row export that per-row subquery is most
   * of the database's time. Given the rows' ids, returns the value of each id; an id left out gets
   * `null`. Applied wherever rows are read (list, read, bulk, export), before `toRecord`.
   */
  batchFields?: Record<string, (db: DbOrTx, ids: number[]) => Promise<Map<number, unknown>>>;
  /** The record as the API returns it: typed from the declaration's record schema (`RecordOf`). */
  toRecord(row: R): RecordOf<ResourceSpec<K, S>>;
  /** What one admin may see of a record (e.g. secrets only for super admins); default: all of it. */
  viewFor?(record: ApiRecord, viewer: AdminRow): ApiRecord;
  /** Turns validated input into column values (sanitise, normalise, domain checks). */
  prepareCreate?(input: Row, w: WriteContext): Promise<Row> | Row;
  prepareUpdate?(input: Row, w: WriteContext & { existing: Row }): Promise<Row> | Row;
  /**
   * Rows of other tables the record's input also sets (an event's tags in a join table): `keys` are
   * the input fields that are not columns (the prepare hooks leave them out of the column values);
   * `save` writes them after the row is inserted or updated, in the same transaction and before the
   * record is read back for the audit entry, and says whether anything changed.
   */
  relations?: { keys: readonly string[]; save(id: number, input: Row, w: WriteContext): Promise<boolean> };
  /**
   * Runs before records are deleted (one, or a bulk selection), in the delete's transaction: throws
   * (409 with the reason) to refuse, e.g. a tag still linked to events or a market that has opened.
   * Not called for archive resources (archiving keeps the row and its links).
   */
  beforeDelete?(records: ApiRecord[], w: WriteContext): Promise<void>;
  /** Whole custom writes, for resources with more rules than columns (sub-admins). */
  create?(input: Row, w: WriteContext): Promise<ApiRecord>;
  /** What the created record's answer says, when "<Label> created" says too little (a check's result). */
  createdMessage?(record: ApiRecord): string;
  update?(id: number, input: Row, w: WriteContext): Promise<ApiRecord>;
  /** Unique constraint → field and message. */
  uniqueErrors?: Record<string, { field: string; message: string }>;
  /** For `deleteMode: 'archive'`: the timestamp column that marks a row archived. */
  archivedAtColumn?: AnyPgColumn;
  /** Column set to the new status by bulk status changes. */
  statusColumn?: AnyPgColumn;
  /** Called after a committed write (cache invalidation). */
  afterWrite?(): void;
  /**
   * Locks an action must take before the record's row lock, so it keeps the lock order of the
   * services it calls (an order's market before the order row, as a placement does).
   */
  lockBeforeAction?(tx: DbOrTx, id: number): Promise<void>;
  /** One handler per action the spec declares (checked at start). */
  actions?: Record<string, ActionHandler>;
  /**
   * The handlers' services write their own audit entries (they are also called by the platform API
   * and jobs), so the mechanism does not add a second one.
   */
  auditedByHandlers?: boolean;
  /** CSV columns; default: the spec's columns. */
  csv?: { header: string; value(record: ApiRecord): unknown }[];
  /**
   * The export written by the database (`sqlExport` in export.ts): a COPY of the declared SELECT
   * whose cells are the columns' own text, finished in one pass over its bytes. Every CSV column is
   * the declared SELECT's field of the same key unless `cells` says otherwise; `joins` adds FROM
   * items per row (a user's balances). Only for declarations without `csv` or `viewFor`;
   * `export.test.ts` holds it to the bytes of the record path. The COPY runs with the session's
   * TimeZone set to the caller's zone (dates are written local by it): SQL whose value depends on
   * the session's zone (a timestamptz cast to date or text) would differ from the record path's.
   */
  sqlExport?: SqlExportSpec;
}

/** See `ResourceDef.sqlExport`. `field(key)` names a field of the declared SELECT (as `b.cN`). */
export interface SqlExportSpec {
  /**
   * Per CSV column (spec column key): the SQL of the value the record carries (rendered by the
   * column's type), or `{ cell }`: the cell's text itself as `toCell` gives it (a list), before the
   * formula guard and quoting; or `{ cell, finish }`: `finish` turns the cell's text from the
   * database ('' for NULL) into the CSV field the record path writes (`csvField(toCell(…))`), in Node,
   * with the export's context (read once when it starts: the coins, in the order of their columns).
   * A column that is several CSV columns (`balances`: two per coin, csv-columns.ts) needs a
   * `finish`, which writes all of them, comma-separated, each as `csvField` writes it; one that is
   * none (no coins) has no cell. A `money` column (two CSV columns) is not offered here: a
   * declaration with one exports by the raw read instead (`sqlExportPlan`).
   */
  cells?(field: (key: string) => SQL, context: ExportContext): Record<string, SQL | { cell: SQL; finish?: (text: string, context: ExportContext) => string }>;
  /**
   * FROM items joined after the declared SELECT `b`: per row (`left join lateral (… where x.user_id =
   * ${field('id')}) x on true`) when the whole export is one stream; with `batchIds` (a keyset
   * batch: its ids as a sorted array expression), they may load for the whole batch at once.
   */
  joins?(field: (key: string) => SQL, batchIds?: SQL): SQL;
  /**
   * PGlite's keyset batches (rewritten on the export's worker thread): cells whose rows are read
   * apart, raw, by a second COPY in the batch's transaction, and joined to the batch on the worker,
   * so the database does not build their text (PGlite runs in the server's thread; the worker has
   * the other core). On that path the main COPY writes the row's `key` field in the cell's place and
   * `joins` is left out; every other path uses `cells` and `joins`, and `export.test.ts` holds both
   * to the record path's bytes.
   */
  sideReads?: Record<string, SideRead>;
}

/** See `SqlExportSpec.sideReads`. */
export interface SideRead {
  /** The declared SELECT's field whose text keys the rows (an id: digits, never quoted by COPY). */
  key: string;
  /** The batch's rows behind the cell: the key as first column, ordered by it (`batchIds`: the batch's keys as a sorted array). */
  rows(batchIds: SQL): SQL;
  /**
   * What `finish` needs besides the rows (structured-cloneable: it goes to the worker), read once per
   * export, from the export's context (the coins, in the order of their columns) or the database.
   */
  context?(db: DbOrTx, context: ExportContext): Promise<unknown> | unknown;
  /**
   * The CSV field from one key's rows (their COPY CSV lines, key first, each ending in LF; '' when
   * it has none) and the context: registered with `finishFrom`, so the worker can load it.
   */
  finish(lines: string, context: never): string;
}

/** The declaration's SELECT (its joins and fields), or the whole table's, open to `where`, `orderBy`, `limit`. */
export function baseSelect(def: ResourceDef, db: DbOrTx): DynamicSelect {
  // A declared SELECT is the same kind of builder with other fields: the mechanism only adds its
  // conditions, order and limit, and reads its rows as `Row`s.
  return (def.select ? def.select(db) : db.select().from(def.table)).$dynamic() as DynamicSelect;
}

/** A dynamic select builder over a resource's rows, as the mechanism uses it (conditions, order, limit, rows as `Row`s). */
interface DynamicSelect extends PromiseLike<Row[]> {
  where(where: SQL | undefined): DynamicSelect;
  orderBy(...columns: (AnyPgColumn | SQL | SQL.Aliased)[]): DynamicSelect;
  limit(limit: number): DynamicSelect;
  offset(offset: number): DynamicSelect;
  for(strength: 'update'): DynamicSelect;
  as(alias: string): unknown;
  getSQL(): SQL;
  toSQL(): { sql: string; params: unknown[] };
}

/**
 * A resource's server definition, typed from its parts: the record `toRecord` returns is the
 * declaration's (`RecordOf<spec>`), and the row it reads is the declared SELECT's (or the table's)
 * with the declared `batchFields`.
 */
export function defineResource<K extends string, S extends z.ZodObject, T extends PgTable, Sel extends Row = T['$inferSelect'], B extends Row = Record<never, never>>(
  def: Omit<ResourceDef<K, S, Sel & B>, 'table' | 'select' | 'batchFields' | 'toRecord'> & {
    table: T;
    select?: (db: DbOrTx) => SelectOf<Sel>;
    batchFields?: { [F in keyof B]: (db: DbOrTx, ids: number[]) => Promise<Map<number, B[F]>> };
    toRecord(row: Sel & B): RecordOf<ResourceSpec<K, S>>;
  },
): ResourceDef<K, S, Sel & B> {
  return def;
}

/** What `select` returns: a drizzle select builder, awaited as its rows, open to `where`, `orderBy`, `limit`. */
export interface SelectOf<R> extends PromiseLike<R[]> {
  $dynamic(): unknown;
}

const idKeys = new WeakMap<ResourceDef, string>();

/** The rows with the declaration's `batchFields` filled in (one query per field for all of them). */
export async function withBatchFields<R extends Row>(def: ResourceDef, db: DbOrTx, rows: R[]): Promise<R[]> {
  if (!def.batchFields || rows.length === 0) return rows;
  let idKey = idKeys.get(def);
  if (idKey === undefined) {
    idKey = Object.entries(getTableColumns(def.table)).find(([, c]) => c === def.idColumn)?.[0];
    if (!idKey) throw new Error(`${def.spec.name}: batch fields need the id column among the table's columns`);
    idKeys.set(def, idKey);
  }
  const key = idKey;
  const ids = rows.map((r) => Number(r[key]));
  for (const [field, load] of Object.entries(def.batchFields)) {
    const values = await load(db, ids);
    for (let i = 0; i < rows.length; i++) (rows[i] as Row)[field] = values.get(ids[i]!) ?? null;
  }
  return rows;
}

/** A timestamp as the API shows it: ISO text, or null. */
export function isoOrNull(d: unknown): string | null {
  return d instanceof Date ? d.toISOString() : d === null || d === undefined ? null : String(d);
}

/** A timestamp that is always there (NOT NULL) as the API shows it: ISO text. */
export function iso(d: Date): string {
  return d.toISOString();
}
