import { and, Column, is, SQL, sql, Subquery } from 'drizzle-orm';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { PgDialect } from 'drizzle-orm/pg-core';
import { PGlite } from '@electric-sql/pglite';
import { createRequire } from 'node:module';
import { queryRows, type DbOrTx } from '../db/client.js';
import { parseJson } from '../lib/json.js';
import { isoInZone } from '../lib/timezone.js';
import { type CopyColumnKind, CopyCsvRewriter, CopyOutReader, inlineParams, lastRowFields, queryMessage } from './copy-csv.js';
import { rewriteOffThread, type SideJob, type WireKind, wireFunction, wireKinds, withContext } from './rewrite-off-thread.js';
import { coinsBySymbol, csvColumnsOf, type CsvColumn, type ExportContext, NO_CONTEXT, needsCoins } from './csv-columns.js';
import { csvField, csvLines, toCell } from './csv.js';
import { baseSelect, withBatchFields, type ApiRecord, type ResourceDef, type Row, type SideRead } from './define.js';
import { keysetPast, orderBy, type Sort, sortColumns, sortValue } from './sort.js';

/**
 * Rows per export query: big enough that a query's fixed cost is small, small enough that memory
 * stays flat. Measured best: 5 000 through PGlite (its per-query cost is high), 2 000 on
 * PostgreSQL (fewer objects outlive a young-generation collection).
 */
export const EXPORT_BATCH = 5_000;
const PG_BATCH = 2_000;
/** Rows per yielded chunk of CSV. */
const CHUNK_ROWS = 500;

/**
 * How the rows of one batch are read: the ORM's row mapping, the raw path below, or the CSV text
 * built by the database (`sqlExport`).
 */
export type ExportMode = 'records' | 'raw' | 'sql';

export interface ExportArgs {
  def: ResourceDef;
  db: DbOrTx;
  /** WHERE of the list (search, filters, base condition, scope), as `whereOf` builds it. */
  where: SQL | undefined;
  sort: Sort;
  timezone: string;
  view: (r: ApiRecord) => ApiRecord;
  /** Default: sql when declared (see `sqlExport`), else raw when the declared SELECT allows it (see `rawReader`), else records. */
  mode?: ExportMode;
  /** Rows per batch (tests use a few, to cross batch boundaries); default: per path, see above. */
  batch?: number;
}


// ── The raw read ─────────────────────────────────────────────────────────────
//
// The ORM maps every row field by field through generic code (and the PGlite driver copies a
// buffer per field): at a million rows that is most of an export's time. The raw read runs the
// same declared SELECT (same joins, WHERE, ORDER BY, LIMIT: the ORM still writes it) and builds
// each row with the fields' own decoders (`mapFromDriverValue`), so rows are the objects `toRecord`
// always got:
// - on PostgreSQL, node-postgres's array rows with the ORM's type parsers;
// - on PGlite, the database folds the whole batch into ONE JSON text (`json_agg` of one array per
//   row), parsed by one `JSON.parse`; each value is first turned into what the driver would have
//   given (per SQL type, `typeCodec`).
// `export.test.ts` compares both paths for every resource. A SELECT this cannot mirror exactly
// (nested selections, a result type not listed here) is exported through the ORM instead.

type DriverDecode = (v: unknown) => unknown;
const same: DriverDecode = (v) => v;

/**
 * Per result type (pg_type OID): whether it travels as its text form (`::text`, what the wire
 * carries) or as a JSON value, and how the driver's value is rebuilt from it. `int8` differs by
 * driver: node-postgres keeps the digits as a string, PGlite gives a number when it is safe and a
 * bigint otherwise (`int8` below is learnt from the driver itself).
 */
function typeCodec(oid: number, int8: DriverDecode): { asText: boolean; decode: DriverDecode } | null {
  switch (oid) {
    case 16: // bool: JSON true/false, as both drivers parse 't'/'f'
    case 21: // int2
    case 23: // int4
    case 26: // oid
    case 25: // text
    case 1043: // varchar
    case 19: // name
    case 2950: // uuid (a string on both drivers)
    case 114: // json: the value the driver's JSON.parse gives
    case 3802: // jsonb
      return { asText: false, decode: same };
    case 20: // int8
      return { asText: true, decode: int8 };
    case 700: // float4: the text, parsed as the drivers do (Number and parseFloat agree on float output)
    case 701: // float8
      return { asText: true, decode: (v) => Number(v) };
    case 1184: // timestamptz: the ORM reads the text (its drivers are configured so), then maps it
    case 1114: // timestamp
    case 1082: // date
    case 1186: // interval
    case 1700: // numeric: a string on both drivers
      return { asText: true, decode: same };
    default:
      return null;
  }
}

interface Decoder {
  mapFromDriverValue(v: unknown): unknown;
}
/** An SQL expression's decoder (the ORM's, kept off its public types): identity unless `.mapWith`. */
const decoderOf = (q: SQL): Decoder => (q as unknown as { decoder: Decoder }).decoder;

interface Plan {
  keys: string[];
  fields: unknown[];
  /** The ORM's decoder of each field (what `mapResultRow` applies to the driver's value). */
  orm: Decoder[];
  /** JSON value → the driver's value → the ORM's (the JSON read). */
  decoders: ((v: unknown) => unknown)[];
  asText: boolean[];
}

/** Reads one batch (the declared SELECT with its WHERE, ORDER BY and LIMIT) into rows as the ORM would map them. */
interface RawReader {
  read(batch: { getSQL(): SQL; toSQL(): { sql: string; params: unknown[] } }): Promise<Row[]>;
  batchSize: number;
}

/** What node-postgres's pool offers here (the drizzle handle's `$client`): a raw query, or a connection of its own (COPY). */
interface PgPool {
  query(config: { text: string; values: unknown[]; rowMode: 'array'; types: { getTypeParser: (oid: number, format?: string) => (v: string) => unknown } }): Promise<{ rows: unknown[][] }>;
  connect(): Promise<PgPoolClient>;
}
interface PgPoolClient {
  query(text: string): Promise<unknown>;
  query<T>(stream: T): T;
  release(destroy?: boolean): void;
}

// The ORM's node-postgres driver reads these types as their text (then maps them itself): the raw read does the same.
const TEXT_AS_IS = new Set([pg.types.builtins.TIMESTAMPTZ, pg.types.builtins.TIMESTAMP, pg.types.builtins.DATE, pg.types.builtins.INTERVAL, 1231, 1115, 1185, 1187, 1182]);
const asText = (v: string) => v;
const ormTypes = {
  getTypeParser: (oid: number, format?: string) => (TEXT_AS_IS.has(oid) ? asText : pg.types.getTypeParser(oid, (format ?? 'text') as 'text')) as (v: string) => unknown,
};

function pgPoolOf(db: DbOrTx): PgPool | null {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? (client as unknown as PgPool) : null;
}

/** The rows of a batch, keyed and decoded as the ORM's `mapResultRow` does for a flat selection. */
function toRows(arrays: unknown[][], keys: string[], decoders: ((v: unknown) => unknown)[]): Row[] {
  const n = keys.length;
  const rows: Row[] = new Array(arrays.length);
  for (let r = 0; r < arrays.length; r++) {
    const a = arrays[r]!;
    const row: Row = {};
    for (let i = 0; i < n; i++) {
      const v = a[i];
      row[keys[i]!] = v === null || v === undefined ? null : decoders[i]!(v);
    }
    rows[r] = row;
  }
  return rows;
}

async function driverInt8(db: DbOrTx): Promise<DriverDecode> {
  const res = (await db.execute(sql`select 1::int8 as small, 9007199254740993::int8 as big`)) as unknown as { rows: { small: unknown; big: unknown }[] };
  const { small, big } = res.rows[0]!;
  if (typeof small === 'string') return same;
  if (typeof small === 'number' && typeof big === 'bigint') {
    const min = BigInt(Number.MIN_SAFE_INTEGER);
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    return (v) => {
      const b = BigInt(v as string);
      return b < min || b > max ? b : Number(b);
    };
  }
  throw new Error(`export: unknown int8 representation (${typeof small}, ${typeof big})`);
}

async function buildPlan(def: ResourceDef, db: DbOrTx): Promise<Plan | null> {
  const query = baseSelect(def, db);
  const selection = (query as unknown as { _: { config: { fields: Record<string, unknown> } } })._.config.fields;
  // The ORM's column order (its `orderSelectedFields`) for a flat selection: the keys in order. A
  // nested one (a whole joined table) has the ORM nullify missing joins: not mirrored here.
  const fieldList = Object.entries(selection).map(([key, field]) => ({ key, field }));
  if (fieldList.some(({ field }) => !(is(field, Column) || is(field, SQL) || is(field, SQL.Aliased)) || is(field, Subquery))) return null;
  // The result types, from the database: a `limit 0` run of the declared SELECT.
  const probe = (await db.execute(query.limit(0))) as unknown as { fields: { dataTypeID: number }[] };
  if (probe.fields.length !== fieldList.length) return null;
  const int8 = await driverInt8(db);
  const plan: Plan = { keys: [], fields: [], orm: [], decoders: [], asText: [] };
  for (const [i, { key, field }] of fieldList.entries()) {
    const codec = typeCodec(probe.fields[i]!.dataTypeID, int8);
    // The ORM's decoder: the column itself, or an SQL expression's (identity unless `.mapWith`).
    const orm: Decoder | undefined = is(field, Column) ? field : is(field, SQL) ? decoderOf(field) : is(field, SQL.Aliased) ? decoderOf(field.sql) : undefined;
    if (!codec || !orm) return null;
    const driver = codec.decode;
    plan.keys.push(key);
    plan.fields.push(field);
    plan.orm.push(orm);
    plan.asText.push(codec.asText);
    plan.decoders.push(driver === same ? (v) => orm.mapFromDriverValue(v) : (v) => orm.mapFromDriverValue(driver(v)));
  }
  return plan;
}

// One plan per database handle and declaration (result types do not change while the server runs).
const plans = new WeakMap<object, WeakMap<ResourceDef, Promise<Plan | null>>>();

function planFor(def: ResourceDef, db: DbOrTx): Promise<Plan | null> {
  let byDef = plans.get(db);
  if (!byDef) {
    byDef = new WeakMap();
    plans.set(db, byDef);
  }
  let plan = byDef.get(def);
  if (!plan) {
    const mine = byDef;
    plan = buildPlan(def, db);
    // A failed probe is tried again by the next export, not remembered.
    plan.catch(() => mine.delete(def));
    byDef.set(def, plan);
  }
  return plan;
}

/**
 * The raw reader for this sort, or null when the export must go through the ORM.
 *
 * - PostgreSQL (node-postgres): the batch's SQL as the ORM writes it, run on the pool in array row
 *   mode with the ORM's type parsers; each value then goes through the field's ORM decoder. Only the
 *   ORM's generic row mapping is skipped. (Having the server build JSON costs it more than sending
 *   the rows: it is the bottleneck there.)
 * - PGlite: its driver copies a buffer per field, so the database folds the batch into one JSON text
 *   (`json_agg` of one array per row) parsed by one `JSON.parse`; each value is turned into the
 *   driver's value (per type, `typeCodec`), then the ORM's. The aggregate orders by the selected
 *   sort column and id, so the order is the query's, not an accident of the plan.
 */
export async function rawReader(def: ResourceDef, db: DbOrTx, s: Sort): Promise<RawReader | null> {
  const plan = await planFor(def, db);
  if (!plan) return null;
  const pool = pgPoolOf(db);
  if (pool) {
    const decoders = plan.orm.map((d) => (v: unknown) => d.mapFromDriverValue(v));
    return {
      batchSize: PG_BATCH,
      read: async (batch) => {
        const q = batch.toSQL();
        const res = await pool.query({ text: q.sql, values: q.params, rowMode: 'array', types: ormTypes });
        return toRows(res.rows, plan.keys, decoders);
      },
    };
  }
  // Every column of the sort (a composite one's parts), then id.
  const sortIndexes = sortColumns(def, s).map((c) => plan.fields.indexOf(c));
  if (sortIndexes.some((i) => i < 0)) return null;
  const names = plan.keys.map((_, i) => `c${i}`);
  // `c0, c1, …`: the declared SELECT's columns renamed by position (names may repeat across joins).
  const columnList = sql.raw(names.join(', '));
  const values = sql.raw(names.map((n, i) => (plan.asText[i] ? `t.${n}::text` : `t.${n}`)).join(', '));
  const order = sql.raw(sortIndexes.map((i) => `t.c${i} ${s.dir}`).join(', '));
  return {
    batchSize: EXPORT_BATCH,
    read: async (batch) => {
      const res = (await db.execute(
        sql`select coalesce(json_agg(json_build_array(${values}) order by ${order}), '[]')::text as j from (${batch.getSQL()}) as t(${columnList})`,
      )) as unknown as { rows: { j: string }[] };
      return toRows(parseJson(res.rows[0]!.j) as unknown[][], plan.keys, plan.decoders);
    },
  };
}

// ── The CSV written by the database (COPY) ───────────────────────────────────
//
// A declaration with `sqlExport` is exported by COPY: `COPY (SELECT <cells> FROM (<declared
// SELECT> WHERE …) b <joins> ORDER BY <sort>, id) TO …`. Each cell is the column's own text
// (dates already in the caller's zone: see copyDateCell); COPY quotes in C as `csvField` does,
// and Node adds the formula guard, writes empty strings as nothing, rewrites JSON cells and far
// dates and ends lines in CRLF, in one pass over the bytes (copy-csv.ts): the database does next
// to nothing per cell. `export.test.ts` holds it to the bytes of the record path.
// - PostgreSQL: ONE statement streamed `TO STDOUT` for the whole export (below, copyExportChunks).
// - PGlite, and PostgreSQL past COPY_MAX exports at once: keyset batches, each one COPY of the same
//   SELECT LIMITed after the last batch's key (copyBatchChunks).
/** Rows per COPY batch (PGlite; PostgreSQL past its streaming limit). */
const COPY_BATCH = 10_000;

interface SqlPlan {
  /** The batch CTE's column list `c0, c1, …` and the field accessor over it. */
  columnList: SQL;
  field(key: string): SQL;
  sortIndex: number;
  idIndex: number;
  /** The declared SELECT's index of a field key, or -1. */
  indexOf(key: string): number;
  /** The export's context, and how many CSV columns each declared column is (0: no cell). */
  context: ExportContext;
  widths: Map<string, number>;
}

/**
 * The SQL export's cells for this declaration, or null when it has none (or a column it cannot
 * name, or a `money` column: two CSV columns from one record text, which no declaration with
 * `sqlExport` has). Each CSV column is the declaration's `cells` entry, else the declared SELECT's
 * field of the same key, rendered by the column's type; a column that is several CSV columns
 * (`balances`) must have a `cells` entry with its `finish`, which writes them all.
 */
async function sqlExportPlan(def: ResourceDef, db: DbOrTx, s: Sort, context: ExportContext, columns: CsvColumn[]): Promise<SqlPlan | null> {
  // A composite sort (`sortBy`) exports through the rows, not COPY's one sort column.
  if (!def.sqlExport || def.csv || def.viewFor || s.parts) return null;
  if (def.spec.columns.some((c) => c.type === 'money')) return null;
  const widths = new Map<string, number>();
  for (const c of columns) widths.set(c.key!, (widths.get(c.key!) ?? 0) + 1);
  const plan = await planFor(def, db);
  if (!plan) return null;
  const sortIndex = plan.fields.indexOf(s.column);
  const idIndex = plan.fields.indexOf(def.idColumn);
  if (sortIndex < 0 || idIndex < 0) return null;
  const field = (key: string): SQL => {
    const i = plan.keys.indexOf(key);
    if (i < 0) throw new Error(`${def.spec.name}: the export has no field "${key}"`);
    return sql.raw(`b.c${i}`);
  };
  return { columnList: sql.raw(plan.keys.map((_, i) => `c${i}`).join(', ')), field, sortIndex, idIndex, indexOf: (key) => plan.keys.indexOf(key), context, widths };
}

// ── The export ───────────────────────────────────────────────────────────────

/**
 * What the export reads once when it starts, before its first row: the coins (by symbol) when a
 * column shows balances per coin, so its CSV columns, the header, are known then.
 */
async function exportContext(def: ResourceDef, db: DbOrTx): Promise<ExportContext> {
  if (!needsCoins(def.spec.columns)) return NO_CONTEXT;
  return { coins: coinsBySymbol(await queryRows<{ id: number; symbol: string; decimals: number }>(db, sql`select id, symbol, decimals from coins`)) };
}

/** The CSV lines of rows `from` … `to` − 1 through `toRecord` and the view (the record path, and the rows the SQL path leaves to Node). */
function csvOfRows(def: ResourceDef, rows: Row[], columns: CsvColumn[], isDate: boolean[], timezone: string, view: (r: ApiRecord) => ApiRecord, from = 0, to = rows.length): string {
  const width = columns.length;
  let out = '';
  for (let k = from; k < to; k++) {
    const r = view(def.toRecord(rows[k]!));
    for (let i = 0; i < width; i++) {
      const v = columns[i]!.value(r);
      if (i > 0) out += ',';
      out += csvField(isDate[i] && typeof v === 'string' && v ? toCell(isoInZone(new Date(v), timezone)) : toCell(v));
    }
    out += '\r\n';
  }
  return out;
}

/**
 * Every matching row as CSV, in keyset batches (no row cap, flat memory): the header, then one
 * chunk per batch. Each row goes through the declaration's `toRecord`, the caller's `view`
 * (redaction) and the CSV columns, whichever way it was read; or, with `sqlExport`, the database
 * writes the same bytes.
 */
export async function* exportCsvChunks({ def, db, where, sort, timezone, view, mode, batch }: ExportArgs): AsyncGenerator<string | Buffer> {
  const context = await exportContext(def, db);
  const columns: CsvColumn[] = def.csv ?? csvColumnsOf(def.spec.columns, context);
  // A declaration's own columns are dates when their header is a date column's label.
  const dateLabels = new Set(def.spec.columns.filter((c) => c.type === 'date').map((c) => c.label));
  const isDate = columns.map((c) => (def.csv ? dateLabels.has(c.header) : c.date === true));
  let s = sort;
  // Nullable sort columns can't drive a keyset: export those in id order.
  if (def.nullable?.includes(s.key)) s = { key: '_id', dir: s.dir, column: def.idColumn };
  const sqlPlan = mode === undefined || mode === 'sql' ? await sqlExportPlan(def, db, s, context, columns) : null;
  if (mode === 'sql' && !sqlPlan) throw new Error(`${def.spec.name}: no SQL export for this declaration`);
  if (sqlPlan) {
    // PostgreSQL streams the whole export from one COPY. A COPY holds its connection for the whole
    // export: past COPY_MAX at once, and on PGlite (a statement runs to its end in one call, with
    // no backpressure), exports go in batches.
    const pool = pgPoolOf(db);
    const pglite = pool ? null : pgliteOf(db);
    if (pool && batch === undefined && copiesRunning < COPY_MAX) {
      copiesRunning++;
      try {
        yield* copyExportChunks(def, db, pool, sqlPlan, where, s, timezone, columns);
      } finally {
        copiesRunning--;
      }
      return;
    }
    if (pglite) {
      // The batch's rewriting on a worker thread, the next batch read meanwhile (when every cell's
      // finishing can be loaded there).
      // finishing can be loaded there), with the declaration's side reads when theirs can be too.
      let probe = copyQuery(def, db, sqlPlan, where, s, { after: undefined, size: 1, sortFromCell: true, sides: true });
      let sideFns = probe.sides.map((x) => wireFunction(x.read.finish));
      if (sideFns.some((f) => !f)) {
        probe = copyQuery(def, db, sqlPlan, where, s, { after: undefined, size: 1, sortFromCell: true });
        sideFns = [];
      }
      const wire = wireKinds(probe.kinds);
      if (wire) {
        const contexts = await Promise.all(probe.sides.map((x) => x.read.context?.(db, context)));
        const sides = probe.sides.map((x, i) => {
          wire[x.cell] = { side: i };
          return { ...sideFns[i]!, context: contexts[i] };
        });
        yield* pgliteBatchesOffThread(def, db, pglite, sqlPlan, where, s, timezone, columns, batch ?? COPY_BATCH, wire, sides);
        return;
      }
    }
    if (pool || pglite) {
      yield* copyBatchChunks(def, db, pool ? copyBatchFromPool(pool) : copyBatchFromPglite(pglite!), sqlPlan, where, s, timezone, columns, batch ?? COPY_BATCH);
      return;
    }
    // A transaction's handle: no COPY of its own, the rows as they are read.
    if (mode === 'sql') throw new Error(`${def.spec.name}: no SQL export inside a transaction`);
  }
  const reader = mode === 'records' ? null : await rawReader(def, db, s);
  if (mode === 'raw' && !reader) throw new Error(`${def.spec.name}: no raw export for this declaration`);
  const batchSize = batch ?? reader?.batchSize ?? EXPORT_BATCH;
  const fetchBatch = (after: SQL | undefined): Promise<Row[]> => {
    const q = baseSelect(def, db).where(and(where, after)).orderBy(...orderBy(def, s)).limit(batchSize);
    return Promise.resolve(reader ? reader.read(q) : q).then((rows) => withBatchFields(def, db, rows));
  };
  let pending: Promise<Row[]> | null = fetchBatch(undefined);
  // The header goes out only once the first query has run: a value the database refuses (an
  // impossible date in a filter) is then a 400, not a 200 cut off mid-stream.
  const first = await pending;
  pending = Promise.resolve(first);
  yield `\ufeff${csvLines([columns.map((c) => c.header)])}`;
  // On PostgreSQL the next batch is asked for before this one is formatted (the server works
  // meanwhile). PGlite runs in this thread: asking early would only keep the next batch's objects
  // alive through the formatting, for the garbage collector to copy.
  const prefetch = pgPoolOf(db) !== null;
  let next: SQL | null | undefined;
  while (pending) {
    const rows: Row[] = await pending;
    if (rows.length === 0) return;
    pending = null;
    next = null;
    if (rows.length === batchSize) {
      const lastRow = rows[rows.length - 1]!;
      const last = def.toRecord(lastRow);
      next = keysetPast(def, s, sortValue(s, lastRow, last), last._id, s.dir === 'desc');
      if (prefetch) {
        pending = fetchBatch(next);
        pending.catch(() => undefined); // surfaced when awaited
      }
    }
    // The records as CSV, yielded every few hundred rows: a chunk is written out (and its many
    // small strings freed) while they are still young.
    for (let k = 0; k < rows.length; k += CHUNK_ROWS) yield csvOfRows(def, rows, columns, isDate, timezone, view, k, Math.min(rows.length, k + CHUNK_ROWS));
    if (next && !prefetch) pending = fetchBatch(next);
  }
}

// ── The whole export in one COPY stream (PostgreSQL) ─────────────────────────
//
// One statement `TO STDOUT`: the database walks the sort's index and streams rows as it reads
// them, with the socket's backpressure (pg-copy-streams), so memory stays flat on both sides and
// the whole export is one snapshot; the planner sees the whole export, with no batch boundaries,
// and Node's pass runs on the other core. JIT and parallel workers are off for the export's
// transaction: JIT compiles for seconds before the first row, and a Gather Merge would sort what
// the index already gives in order.

/**
 * One `COPY (select) TO STDOUT` on a connection of its own, in a read-only transaction with the
 * export's settings, its bytes as they come. A COPY cut short (the client went away, an error)
 * leaves the connection mid-protocol: it is closed, not returned to the pool.
 */
async function* copyOnPool(pool: PgPool, select: string, settings: readonly string[]): AsyncGenerator<Buffer> {
  const client = await pool.connect();
  let clean = false;
  try {
    await client.query('begin transaction read only');
    await client.query("set local datestyle = 'ISO, YMD'");
    for (const setting of settings) await client.query(`set local ${setting}`);
    for await (const chunk of client.query(copyTo(`copy (${select}) to stdout with (format csv)`))) yield chunk as Buffer;
    await client.query('commit');
    clean = true;
  } finally {
    client.release(!clean);
  }
}

/**
 * A date cell: the timestamp itself, which COPY writes as its text in the session's zone (the COPY
 * runs with TimeZone set to the caller's zone, `copySettings`, and DateStyle ISO). Node keeps its
 * date and time between 1973 and 9999 (the instant, UTC), with its offset, as ISO 8601, and writes
 * `isoInZone`'s text from the instant elsewhere (copy-csv.ts, `localDateLength`). Cutting the text in SQL (`case … left(t::text,
 * 19) … end`) cost PGlite ~0.15 s per 200,000 users (two dates a row) in the thread that runs the
 * server, where Node's pass now runs on a worker thread.
 */
function copyDateCell(e: SQL): SQL {
  return sql`(${e})::timestamptz`;
}

/** The COPY's transaction settings: the caller's zone (dates' text, see copyDateCell). */
const copySettings = (timezone: string): string[] => [`timezone = ${literal(timezone)}`];

/**
 * The COPY's SELECT: the cells, in the list's order. With `batch`, one keyset batch of it (rows
 * after `batch.after`, at most `batch.size`), with the sort value and id as two last `key` columns;
 * with `batch.sortFromCell`, when the sort is on a date column the CSV shows as it is, that cell
 * is the sort value (its text is the same `timestamptz` text) and only the id is added: `sortCell`
 * is then its index among the cells. (A third date text a row cost PGlite ~5 % of the users export.)
 */
function copyQuery(
  def: ResourceDef,
  db: DbOrTx,
  p: SqlPlan,
  where: SQL | undefined,
  s: Sort,
  batch?: { after: SQL | undefined; size: number; sortFromCell?: boolean; sides?: boolean },
): { query: SQL; kinds: CopyColumnKind[]; sortCell: number; sides: { cell: number; read: SideRead; query: SQL }[] } {
  const spec = def.sqlExport!;
  const custom = spec.cells?.(p.field, p.context) ?? {};
  const kinds: CopyColumnKind[] = [];
  let sortCell = -1;
  const sideCells: { cell: number; read: SideRead }[] = [];
  const cells: SQL[] = [];
  for (const c of def.spec.columns) {
    // A column that is no CSV column (balances without coins) has no cell; one that is several
    // has its `finish` write them all.
    const width = p.widths.get(c.key) ?? 0;
    if (width === 0) continue;
    const i = cells.length;
    const side = batch?.sides ? spec.sideReads?.[c.key] : undefined;
    const given = custom[c.key];
    if (side) {
      // The row's key in the cell's place: the worker finishes it from the side read's rows.
      sideCells.push({ cell: i, read: side });
      kinds.push('text');
      cells.push(sql`(${p.field(side.key)})::text`);
      continue;
    }
    if (given && 'cell' in given) {
      kinds.push(given.finish ? withContext(given.finish, p.context) : 'text');
      cells.push(given.cell);
      continue;
    }
    if (width > 1) throw new Error(`${def.spec.name}: "${c.key}" is ${width} CSV columns: its sqlExport cell needs a finish that writes them`);
    const e = given ?? p.field(c.key);
    if (c.type === 'date') {
      if (!given && sortCell < 0 && p.indexOf(c.key) === p.sortIndex) sortCell = i;
      kinds.push('date');
      cells.push(copyDateCell(e));
    } else {
      kinds.push(c.type === 'json' ? 'json' : 'text');
      cells.push(sql`(${e})::text`);
    }
  }
  const dir = sql.raw(s.dir);
  const sortCol = sql.raw(`b.c${p.sortIndex}`);
  const idCol = sql.raw(`b.c${p.idIndex}`);
  let rows = baseSelect(def, db).where(and(where, batch?.after));
  if (!batch?.sortFromCell) sortCell = -1;
  if (batch) {
    rows = rows.orderBy(...orderBy(def, s)).limit(batch.size);
    if (sortCell < 0) {
      cells.push(sql`(${sortCol})::text`);
      kinds.push('key');
    }
    cells.push(sql`(${idCol})::text`);
    kinds.push('key');
  }
  // A batch's joins may load for the whole batch at once (one set-based read), by its ids: the
  // batch's index scan read a second time for them. (A materialized CTE of the batch, read by both,
  // cost PGlite 10 % more than this: it is written out, and read back in no order the planner knows.)
  const keysOf = (col: SQL): SQL => sql`array(select ${col} from (${rows.getSQL()}) as b(${p.columnList}) order by 1)`;
  const batchIds = batch ? keysOf(idCol) : undefined;
  const joins = sideCells.length > 0 ? sql`` : (spec.joins?.(p.field, batchIds) ?? sql``);
  const query = sql`select ${sql.join(cells, sql`, `)} from (${rows.getSQL()}) as b(${p.columnList}) ${joins}
    order by ${sortCol} ${dir}, ${idCol} ${dir}`;
  const sides = sideCells.map(({ cell, read }) => ({ cell, read, query: read.rows(keysOf(sql.raw(`b.c${p.indexOf(read.key)}`))) }));
  return { query, kinds, sortCell, sides };
}

const dialect = new PgDialect();
/** node-postgres's own preparation of a bound parameter (what it would send) and its literal quoting. */
const pgUtils = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(value: unknown): unknown; escapeLiteral(s: string): string };
/** COPY takes no parameters: each is written as a literal, as the driver would have sent it. */
const literal = (v: unknown): string => (v === null || v === undefined ? 'NULL' : pgUtils.escapeLiteral(String(pgUtils.prepareValue(v))));
/** Exports streamed by COPY at once, per process (the pool holds 10 connections). */
export const COPY_MAX = 3;
let copiesRunning = 0;
/** Exports streaming by COPY now, in this process. */
export const copyExportsRunning = (): number => copiesRunning;

async function* copyExportChunks(def: ResourceDef, db: DbOrTx, pool: PgPool, p: SqlPlan, where: SQL | undefined, s: Sort, timezone: string, columns: CsvColumn[]): AsyncGenerator<string | Buffer> {
  const { query, kinds } = copyQuery(def, db, p, where, s);
  const compiled = dialect.sqlToQuery(query);
  const rows = copyOnPool(pool, inlineParams(compiled.sql, compiled.params, literal), ['jit = off', 'max_parallel_workers_per_gather = 0', ...copySettings(timezone)]);
  try {
    const rewriter = new CopyCsvRewriter(kinds, timezone);
    // As on the other paths: the statement runs before the header (a refused filter is a 400).
    let next = await rows.next();
    yield `\ufeff${csvLines([columns.map((c) => c.header)])}`;
    while (!next.done) {
      const out = rewriter.push(next.value);
      if (out.length > 0) yield out;
      next = await rows.next();
    }
    rewriter.end();
  } finally {
    // Cut short: the COPY's connection is closed (copyOnPool's finally).
    await rows.return(undefined);
  }
}

// ── COPY in keyset batches ───────────────────────────────────────────────────
//
// Each batch is one COPY of the same SELECT, LIMITed after the last batch's key, with the sort
// value and id as two last columns the rewriter leaves out and keeps for the next batch (on
// PGlite's worker path the id only, when the sort value is a date cell the CSV shows: see
// copyQuery's `sortFromCell`). PGlite
// runs a statement to its end in one synchronous call (its output handed over meanwhile, with no way
// to wait for the client), so one batch's CSV is what it holds at once; on PostgreSQL each batch
// takes a pooled connection only while it runs.

/** Runs one `COPY (…) TO …` of the given SELECT text, handing its bytes over in order. */
type CopyBatch = (select: string, settings: readonly string[], bytes: (chunk: Buffer) => void) => Promise<void>;

interface PgliteClient {
  transaction<T>(fn: (tx: { exec(q: string): Promise<unknown> }) => Promise<T>): Promise<T>;
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
  execProtocolRawStream(message: Uint8Array, options: { syncToFs?: boolean; onRawData: (data: Uint8Array) => void }): Promise<void>;
}
function pgliteOf(db: DbOrTx): PgliteClient | null {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof PGlite ? (client as unknown as PgliteClient) : null;
}

/**
 * PGlite: the batch's `COPY … TO STDOUT` read from the raw protocol messages as the database writes
 * them (CopyOutReader), not `TO '/dev/blob'`: the blob device copies every write, then the Blob, then
 * its ArrayBuffer, which cost as much again as the database's own COPY of the rows. The statement
 * runs inside a transaction (which holds PGlite's transaction lock, so no other statement can come
 * between) and under its query lock (`runExclusive`, as PGlite asks for the raw protocol).
 */
function copyBatchFromPglite(pglite: PgliteClient): CopyBatch {
  const copy = pgliteCopy(pglite);
  return (select, settings, bytes) => copy([select], settings, (_, csv) => bytes(csv));
}

/**
 * `COPY (select) TO STDOUT` of each SELECT on PGlite, in one transaction (see copyBatchFromPglite):
 * `each` gets the statement's index, its CSV (a view valid during the call) and its row count.
 */
function pgliteCopy(pglite: PgliteClient) {
  const reader = new CopyOutReader();
  return (selects: readonly string[], settings: readonly string[], each: (i: number, csv: Buffer, rows: number) => void): Promise<void> =>
    pglite.transaction(async (tx) => {
      await tx.exec(["set local datestyle = 'ISO, YMD'", ...settings.map((x) => `set local ${x}`)].join('; '));
      for (let i = 0; i < selects.length; i++) {
        reader.reset();
        const message = queryMessage(`copy (${selects[i]}) to stdout with (format csv)`);
        await pglite.runExclusive(() => pglite.execProtocolRawStream(message, { syncToFs: false, onRawData: (data) => reader.push(data) }));
        each(i, reader.end(), reader.rows());
      }
    });
}

/**
 * PGlite's keyset batches with the CSV rewritten on a worker thread (rewrite-off-thread.ts): while
 * the worker rewrites batch k, this thread has the database read batch k + 1, from the last row's
 * keys read off the end of batch k's bytes (`lastRowFields`). At most two batches are in flight.
 */
async function* pgliteBatchesOffThread(
  def: ResourceDef,
  db: DbOrTx,
  pglite: PgliteClient,
  p: SqlPlan,
  where: SQL | undefined,
  s: Sort,
  timezone: string,
  columns: CsvColumn[],
  size: number,
  wire: WireKind[],
  sides: Omit<SideJob, 'csv'>[],
): AsyncGenerator<string | Buffer> {
  const copy = pgliteCopy(pglite);
  const inline = (q: SQL): string => {
    const compiled = dialect.sqlToQuery(q);
    return inlineParams(compiled.sql, compiled.params, literal);
  };
  const run = async (after: SQL | undefined): Promise<{ csv: Uint8Array; rows: number; last: string[] | null; sides: SideJob[] }> => {
    const q = copyQuery(def, db, p, where, s, { after, size, sortFromCell: true, sides: sides.length > 0 });
    // The last row's fields from the sort value's on (a date cell, or the first key column).
    const tail = q.sortCell < 0 ? 2 : q.kinds.length - q.sortCell;
    const out = { csv: new Uint8Array(0), rows: 0, last: null as string[] | null, sides: [] as SideJob[] };
    await copy([inline(q.query), ...q.sides.map((x) => inline(x.query))], copySettings(timezone), (i, view, rows) => {
      // Each statement's own copy of its bytes, handed over to the worker (the reader's buffer is reused).
      const csv = new Uint8Array(view.length);
      csv.set(view);
      if (i > 0) {
        out.sides.push({ ...sides[i - 1]!, csv });
        return;
      }
      out.csv = csv;
      out.rows = rows;
      if (rows < size) return;
      const fields = lastRowFields(csv, tail);
      out.last = [fields[0]!, fields[fields.length - 1]!];
    });
    return out;
  };
  // As on the other paths: the first batch runs before the header (a refused filter is a 400).
  let batch = await run(undefined);
  yield `\ufeff${csvLines([columns.map((c) => c.header)])}`;
  while (batch.rows > 0) {
    const rows = batch.rows;
    const rewritten = rewriteOffThread(wire, timezone, batch.csv, batch.sides);
    let following: Promise<typeof batch> | null = null;
    if (batch.last) {
      const [lastSort, lastId] = batch.last;
      following = run(s.dir === 'desc' ? sql`(${s.column}, ${def.idColumn}) < (${lastSort}, ${lastId})` : sql`(${s.column}, ${def.idColumn}) > (${lastSort}, ${lastId})`);
      following.catch(() => undefined); // surfaced when awaited
    }
    const out = await rewritten;
    if (out.rows !== rows) throw new Error(`export: ${rows} rows sent, ${out.rows} rewritten`);
    if (out.csv.length > 0) yield out.csv;
    if (!following) return;
    batch = await following;
  }
}

function copyBatchFromPool(pool: PgPool): CopyBatch {
  return async (select, settings, bytes) => {
    for await (const chunk of copyOnPool(pool, select, settings)) bytes(chunk);
  };
}

async function* copyBatchChunks(def: ResourceDef, db: DbOrTx, copy: CopyBatch, p: SqlPlan, where: SQL | undefined, s: Sort, timezone: string, columns: CsvColumn[], size: number): AsyncGenerator<string | Buffer> {
  const run = async (after: SQL | undefined): Promise<{ csv: Buffer[]; rows: number; last: string[] | null }> => {
    const { query, kinds } = copyQuery(def, db, p, where, s, { after, size });
    const compiled = dialect.sqlToQuery(query);
    const rewriter = new CopyCsvRewriter(kinds, timezone);
    const csv: Buffer[] = [];
    await copy(inlineParams(compiled.sql, compiled.params, literal), copySettings(timezone), (chunk) => {
      const out = rewriter.push(chunk);
      if (out.length > 0) csv.push(out);
    });
    rewriter.end();
    return { csv, rows: rewriter.rows, last: rewriter.lastKeys };
  };
  // As on the other paths: the first batch runs before the header (a refused filter is a 400).
  let batch = await run(undefined);
  yield `\ufeff${csvLines([columns.map((c) => c.header)])}`;
  for (;;) {
    yield* batch.csv;
    if (batch.rows < size || !batch.last) return;
    const [lastSort, lastId] = batch.last;
    batch = await run(s.dir === 'desc' ? sql`(${s.column}, ${def.idColumn}) < (${lastSort}, ${lastId})` : sql`(${s.column}, ${def.idColumn}) > (${lastSort}, ${lastId})`);
  }
}
