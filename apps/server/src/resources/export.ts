import { and, asc, Column, desc, is, SQL, sql, Subquery } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { PgDialect } from 'drizzle-orm/pg-core';
import { PGlite } from '@electric-sql/pglite';
import { createRequire } from 'node:module';
import type { DbOrTx } from '../db/client.js';
import { formatInZone } from '../lib/timezone.js';
import { type CopyColumnKind, CopyCsvRewriter, inlineParams } from './copy-csv.js';
import { csvField, csvLines, toCell } from './csv.js';
import { withBatchFields, type ApiRecord, type ResourceDef, type Row } from './define.js';

/**
 * Rows per export query: big enough that a query's fixed cost is small, small enough that memory
 * stays flat. Measured best: 5 000 through PGlite (its per-query cost is high), 2 000 on
 * PostgreSQL (fewer objects outlive a young-generation collection).
 */
export const EXPORT_BATCH = 5_000;
const PG_BATCH = 2_000;
/** Rows per yielded chunk of CSV. */
const CHUNK_ROWS = 500;

type Col = AnyPgColumn | SQL;
interface Sort {
  key: string;
  dir: 'asc' | 'desc';
  column: Col;
}
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

function baseSelect(def: ResourceDef, db: DbOrTx) {
  return (def.select ? def.select(db) : db.select().from(def.table)).$dynamic();
}

function ordered(def: ResourceDef, s: Sort): SQL[] {
  const f = s.dir === 'desc' ? desc : asc;
  return [f(s.column as AnyPgColumn), f(def.idColumn)];
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

/** What node-postgres's pool offers for a raw query (the drizzle handle's `$client`). */
interface PgPool {
  query(config: { text: string; values: unknown[]; rowMode: 'array'; types: { getTypeParser: (oid: number, format?: string) => (v: string) => unknown } }): Promise<{ rows: unknown[][] }>;
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
  const sortIndex = plan.fields.indexOf(s.column);
  const idIndex = plan.fields.indexOf(def.idColumn);
  if (sortIndex < 0 || idIndex < 0) return null;
  const names = plan.keys.map((_, i) => `c${i}`);
  // `c0, c1, …`: the declared SELECT's columns renamed by position (names may repeat across joins).
  const columnList = sql.raw(names.join(', '));
  const values = sql.raw(names.map((n, i) => (plan.asText[i] ? `t.${n}::text` : `t.${n}`)).join(', '));
  const order = sql.raw(`t.c${sortIndex} ${s.dir}, t.c${idIndex} ${s.dir}`);
  return {
    batchSize: EXPORT_BATCH,
    read: async (batch) => {
      const res = (await db.execute(
        sql`select coalesce(json_agg(json_build_array(${values}) order by ${order}), '[]')::text as j from (${batch.getSQL()}) as t(${columnList})`,
      )) as unknown as { rows: { j: string }[] };
      return toRows(JSON.parse(res.rows[0]!.j) as unknown[][], plan.keys, plan.decoders);
    },
  };
}

// ── The CSV text built in the database ───────────────────────────────────────
//
// For a declaration with `sqlExport`, each batch is ONE query whose answer is the batch's CSV text
// (`string_agg` of one line per row, in the keyset order) and the batch's last sort key: Node only
// passes text on. The cells follow `toCell` and `csvField` exactly: the formula guard (a leading
// = + - @ TAB CR gets a `'`), RFC 4180 quoting, dates as `formatInZone` writes them in the caller's
// zone (PostgreSQL's `at time zone`); JSON values are left as their text between markers, for
// Node to write in one pass over the batch (`JSON.stringify` rewrites numbers and reorders keys in
// ways SQL cannot follow cheaply). What SQL cannot be sure to write byte for byte (a date outside
// 1973–9999, a cell holding U+0001 or U+0002) makes its row a marker `\x01<id>\x01`,
// and those rows are read and written by the record path in Node. `export.test.ts`
// compares this path with the record path for every declaration that has it.

const ROW_MARK = '\u0001';
const JSON_MARK = '\u0002';
const JSON_VALUE = /\u0002([^\u0002]*)\u0002/g;
/** A JSON cell as the record path writes it: the value the driver gives (`JSON.parse`), then `toCell`. */
const jsonField = (_: string, text: string): string => csvField(toCell(JSON.parse(text)));
/** Rows per query of the SQL path (a batch's text is a few MB at most). */
const SQL_BATCH = 10_000;

/** A CSV cell's text (NULL: not renderable, the row goes to Node) → the guarded, quoted field. */
function guardQuote(v: SQL): SQL {
  const guard = sql`(case when ascii(${v}) in (61, 43, 45, 64, 9, 13) then '''' else '' end)`;
  return sql`(case when strpos(${v}, chr(1)) > 0 or strpos(${v}, chr(2)) > 0 then null
    when strpos(${v}, '"') > 0 or strpos(${v}, ',') > 0 or strpos(${v}, chr(10)) > 0 or strpos(${v}, chr(13)) > 0 then '"' || ${guard} || replace(${v}, '"', '""') || '"'
    else ${guard} || ${v} end)`;
}

/**
 * A JSON value: its text between two U+0002, written by Node (`JSON.stringify` of `JSON.parse`,
 * what the record path writes: PostgreSQL's regular expressions cost 10 µs a row here, Node's
 * one pass over the batch's text much less). Control characters are always escaped in JSON text,
 * so a U+0002 in it can only be a delimiter.
 */
function jsonCell(e: SQL): SQL {
  return sql`(case when ${e} is null then '' else chr(2) || (${e})::text || chr(2) end)`;
}

/**
 * `formatInZone` of a timestamp, or NULL (left to Node) before 1973 or past 9999: JavaScript writes
 * other years differently, and before the 1970s zones had offsets off the quarter hour, which
 * `formatInZone`'s per-quarter-hour offset cache does not follow to the second.
 */
function dateCell(e: SQL, timezone: string): SQL {
  return sql`(case when ${e} is null then '' when ${e} >= '1973-01-01' and ${e} < '9999-12-30' then to_char(${e} at time zone ${timezone}, 'YYYY-MM-DD HH24:MI:SS') end)`;
}

interface SqlPlan {
  /** The batch CTE's column list `c0, c1, …` and the field accessor over it. */
  columnList: SQL;
  field(key: string): SQL;
  sortIndex: number;
  idIndex: number;
}

/**
 * The SQL export's cells for this declaration, or null when it has none (or a column it cannot
 * name). Each CSV column is the declaration's `cells` entry, else the declared SELECT's field of the
 * same key, rendered by the column's type.
 */
async function sqlExportPlan(def: ResourceDef, db: DbOrTx, s: Sort): Promise<SqlPlan | null> {
  if (!def.sqlExport || def.csv || def.viewFor) return null;
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
  return { columnList: sql.raw(plan.keys.map((_, i) => `c${i}`).join(', ')), field, sortIndex, idIndex };
}

interface SqlBatch {
  text: string;
  rows: number;
  lastSort: string | null;
  lastId: string | null;
}

function sqlBatchQuery(def: ResourceDef, db: DbOrTx, p: SqlPlan, where: SQL | undefined, s: Sort, timezone: string, size: number): (after: SQL | undefined) => SQL {
  const spec = def.sqlExport!;
  const custom = spec.cells?.(p.field) ?? {};
  const cellOf = (c: ResourceDef['spec']['columns'][number]): SQL => {
    const given = custom[c.key];
    if (given && 'cell' in given) return given.cell;
    const e = given ?? p.field(c.key);
    if (c.type === 'date') return dateCell(e, timezone);
    if (c.type === 'json') return jsonCell(e);
    return sql`coalesce((${e})::text, '')`;
  };
  const cols = def.spec.columns;
  const values = sql.join(cols.map((c, i) => sql`${cellOf(c)} as ${sql.raw(`v${i}`)}`), sql`, `);
  // Dates are digits, dashes, a space and colons: never guarded nor quoted; JSON is Node's.
  const fields = cols.map((c, i) => (c.type === 'date' || c.type === 'json' ? sql.raw(`x.v${i}`) : guardQuote(sql.raw(`x.v${i}`))));
  const line = sql`${sql.join(fields, sql` || ',' || `)} || chr(13) || chr(10)`;
  const dir = sql.raw(s.dir);
  const back = sql.raw(s.dir === 'asc' ? 'desc' : 'asc');
  const joins = spec.joins?.(p.field) ?? sql``;
  const sortCol = sql.raw(`b.c${p.sortIndex}`);
  const idCol = sql.raw(`b.c${p.idIndex}`);
  return (after) => {
    const batch = baseSelect(def, db).where(and(where, after)).orderBy(...ordered(def, s)).limit(size);
    return sql`with b as (select * from (${batch.getSQL()}) as t(${p.columnList}))
      select string_agg(coalesce(${line}, chr(1) || x.id || chr(1)), '' order by x.s ${dir}, x.id ${dir}) as text, count(*)::int as rows,
        (array_agg(x.s::text order by x.s ${back}, x.id ${back}))[1] as last_sort, (array_agg(x.id::text order by x.s ${back}, x.id ${back}))[1] as last_id
      from (select ${values}, ${sortCol} as s, ${idCol} as id from b ${joins} offset 0) as x`;
  };
}

// ── The export ───────────────────────────────────────────────────────────────

interface CsvColumn {
  header: string;
  value(r: ApiRecord): unknown;
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
      out += csvField(isDate[i] && typeof v === 'string' && v ? toCell(formatInZone(new Date(v), timezone)) : toCell(v));
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
  const columns: CsvColumn[] = def.csv ?? def.spec.columns.map((c) => ({ header: c.label, value: (r: ApiRecord) => r[c.key] }));
  const dateLabels = new Set(def.spec.columns.filter((c) => c.type === 'date').map((c) => c.label));
  const isDate = columns.map((c) => dateLabels.has(c.header));
  let s = sort;
  // Nullable sort columns can't drive a keyset: export those in id order.
  if (def.nullable?.includes(s.key)) s = { key: '_id', dir: s.dir, column: def.idColumn };
  const sqlPlan = mode === undefined || mode === 'sql' ? await sqlExportPlan(def, db, s) : null;
  if (mode === 'sql' && !sqlPlan) throw new Error(`${def.spec.name}: no SQL export for this declaration`);
  if (sqlPlan) {
    // PostgreSQL streams the whole export from one COPY; PGlite (no COPY stream) writes it in batches.
    // A COPY holds its connection for the whole export: past COPY_MAX at once, exports take the
    // batch way, which shares the pool query by query.
    const pool = batch === undefined && copiesRunning < COPY_MAX ? poolOf(db) : null;
    if (pool) {
      copiesRunning++;
      try {
        yield* copyExportChunks(def, db, pool, sqlPlan, where, s, timezone, columns);
      } finally {
        copiesRunning--;
      }
    } else {
      const pglite = pgliteOf(db);
      if (pglite) yield* pgliteCopyChunks(def, db, pglite, sqlPlan, where, s, timezone, columns, batch ?? SQL_BATCH);
      else yield* sqlExportChunks(def, db, sqlPlan, where, s, timezone, view, columns, isDate, batch ?? SQL_BATCH);
    }
    return;
  }
  const reader = mode === 'records' ? null : await rawReader(def, db, s);
  if (mode === 'raw' && !reader) throw new Error(`${def.spec.name}: no raw export for this declaration`);
  const batchSize = batch ?? reader?.batchSize ?? EXPORT_BATCH;
  const fetchBatch = (after: SQL | undefined): Promise<Row[]> => {
    const q = baseSelect(def, db).where(and(where, after)).orderBy(...ordered(def, s)).limit(batchSize);
    return (reader ? reader.read(q) : (q as Promise<Row[]>)).then((rows) => withBatchFields(def, db, rows));
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
      const last = def.toRecord(rows[rows.length - 1]!);
      const value = s.key === '_id' ? last._id : last[s.key];
      next = s.dir === 'desc' ? sql`(${s.column}, ${def.idColumn}) < (${value}, ${last._id})` : sql`(${s.column}, ${def.idColumn}) > (${value}, ${last._id})`;
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

async function* sqlExportChunks(
  def: ResourceDef, db: DbOrTx, p: SqlPlan, where: SQL | undefined, s: Sort, timezone: string, view: (r: ApiRecord) => ApiRecord, columns: CsvColumn[], isDate: boolean[], size: number,
): AsyncGenerator<string> {
  const query = sqlBatchQuery(def, db, p, where, s, timezone, size);
  const run = async (after: SQL | undefined): Promise<SqlBatch> => {
    const res = (await db.execute(query(after))) as unknown as { rows: { text: string | null; rows: number | string; last_sort: string | null; last_id: string | null }[] };
    const r = res.rows[0]!;
    return { text: r.text ?? '', rows: Number(r.rows), lastSort: r.last_sort, lastId: r.last_id };
  };
  // As on the record path: the first query runs before the header (a refused filter is a 400).
  let pending: Promise<SqlBatch> | null = run(undefined);
  const first = await pending;
  pending = Promise.resolve(first);
  yield `\ufeff${csvLines([columns.map((c) => c.header)])}`;
  // PostgreSQL writes the next batch while this one goes out; PGlite runs in this thread.
  const prefetch = pgPoolOf(db) !== null;
  while (pending) {
    const batch = await pending;
    pending = null;
    if (batch.rows === 0) return;
    let next: SQL | null = null;
    if (batch.rows === size) {
      // The last row's sort value as the database wrote it, compared as the column's type.
      next = s.dir === 'desc' ? sql`(${s.column}, ${def.idColumn}) < (${batch.lastSort}, ${batch.lastId})` : sql`(${s.column}, ${def.idColumn}) > (${batch.lastSort}, ${batch.lastId})`;
      if (prefetch) {
        pending = run(next);
        pending.catch(() => undefined); // surfaced when awaited
      }
    }
    const text = batch.text.includes(JSON_MARK) ? batch.text.replace(JSON_VALUE, jsonField) : batch.text;
    yield text.includes(ROW_MARK) ? await withNodeRows(def, db, text, columns, isDate, timezone, view) : text;
    if (next && !prefetch) pending = run(next);
  }
}

/** The batch's text with each row marker replaced by that row's line, written by the record path. */
async function withNodeRows(def: ResourceDef, db: DbOrTx, text: string, columns: CsvColumn[], isDate: boolean[], timezone: string, view: (r: ApiRecord) => ApiRecord): Promise<string> {
  // text, id, text, id, …, text
  const parts = text.split(ROW_MARK);
  const ids = parts.filter((_, i) => i % 2 === 1);
  const rows: Row[] = await withBatchFields(def, db, await baseSelect(def, db).where(sql`${def.idColumn} = any(${`{${ids.join(',')}}`}::bigint[])`));
  const lines = new Map(rows.map((row) => [def.toRecord(row)._id, csvOfRows(def, [row], columns, isDate, timezone, view)]));
  return parts.map((part, i) => (i % 2 === 0 ? part : (lines.get(part) ?? ''))).join('');
}

// ── The CSV streamed by PostgreSQL (COPY) ────────────────────────────────────
//
// On PostgreSQL a declaration with `sqlExport` is exported by ONE statement,
// `COPY (SELECT <cells> FROM (<declared SELECT> WHERE …) b <joins> ORDER BY <sort>, id) TO STDOUT
// (FORMAT csv)`: the database walks the sort's index and streams rows as it reads them, with the
// socket's backpressure (pg-copy-streams), so memory stays flat on both sides and the whole export
// is one snapshot; the planner sees the whole export, with no batch boundaries. Each cell is the
// column's own text (dates already in the caller's zone); COPY quotes in C as `csvField` does, and
// Node adds the formula guard, writes empty strings as nothing, rewrites JSON cells and far dates
// and ends lines in CRLF, in one pass over the bytes (copy-csv.ts): the database does next to
// nothing per cell, and Node's pass runs on the other core.
// JIT and parallel workers are off for the export's transaction: JIT compiles for seconds before
// the first row, and a Gather Merge would sort what the index already gives in order.

interface PgPoolClient {
  query(text: string): Promise<unknown>;
  query<T>(stream: T): T;
  release(destroy?: boolean): void;
}
interface PgConnectPool {
  connect(): Promise<PgPoolClient>;
}
function poolOf(db: DbOrTx): PgConnectPool | null {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? (client as unknown as PgConnectPool) : null;
}

/**
 * `formatInZone` in SQL between 1973 and 9999 (a timestamp's ISO text cut to the second: cheaper
 * than `to_char`); elsewhere `#<epoch ms>`, written by Node (see `dateCell`).
 */
function copyDateCell(e: SQL, timezone: string): SQL {
  return sql`(case when ${e} is null then null when ${e} >= '1973-01-01' and ${e} < '9999-12-30' then left((${e} at time zone ${timezone})::text, 19) else '#' || (extract(epoch from ${e}) * 1000)::bigint end)`;
}

/**
 * The COPY's SELECT: the cells, in the list's order. With `batch`, one keyset batch of it (rows
 * after `batch.after`, at most `batch.size`), with the sort value and id as two last `key` columns.
 */
function copyQuery(def: ResourceDef, db: DbOrTx, p: SqlPlan, where: SQL | undefined, s: Sort, timezone: string, batch?: { after: SQL | undefined; size: number }): { query: SQL; kinds: CopyColumnKind[] } {
  const spec = def.sqlExport!;
  const custom = spec.cells?.(p.field) ?? {};
  const kinds: CopyColumnKind[] = [];
  const cells = def.spec.columns.map((c) => {
    const given = custom[c.key];
    if (given && 'cell' in given) {
      kinds.push('text');
      return given.cell;
    }
    const e = given ?? p.field(c.key);
    if (c.type === 'date') {
      kinds.push('date');
      return copyDateCell(e, timezone);
    }
    if (c.type === 'json') {
      kinds.push('json');
      return sql`(${e})::text`;
    }
    kinds.push('text');
    return sql`(${e})::text`;
  });
  const dir = sql.raw(s.dir);
  const sortCol = sql.raw(`b.c${p.sortIndex}`);
  const idCol = sql.raw(`b.c${p.idIndex}`);
  let rows = baseSelect(def, db).where(and(where, batch?.after));
  if (batch) {
    rows = rows.orderBy(...ordered(def, s)).limit(batch.size);
    cells.push(sql`(${sortCol})::text`, sql`(${idCol})::text`);
    kinds.push('key', 'key');
  }
  const query = sql`select ${sql.join(cells, sql`, `)} from (${rows.getSQL()}) as b(${p.columnList}) ${spec.joins?.(p.field) ?? sql``}
    order by ${sortCol} ${dir}, ${idCol} ${dir}`;
  return { query, kinds };
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

async function* copyExportChunks(def: ResourceDef, db: DbOrTx, pool: PgConnectPool, p: SqlPlan, where: SQL | undefined, s: Sort, timezone: string, columns: CsvColumn[]): AsyncGenerator<string | Buffer> {
  const { query, kinds } = copyQuery(def, db, p, where, s, timezone);
  const compiled = dialect.sqlToQuery(query);
  const client = await pool.connect();
  let clean = false;
  try {
    const text = inlineParams(compiled.sql, compiled.params, literal);
    await client.query('begin transaction read only');
    await client.query('set local jit = off');
    await client.query("set local datestyle = 'ISO, YMD'");
    await client.query('set local max_parallel_workers_per_gather = 0');
    const rows = client.query(copyTo(`copy (${text}) to stdout with (format csv)`))[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
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
    await client.query('commit');
    clean = true;
  } finally {
    // A COPY cut short (the client went away, an error) leaves the connection mid-protocol: closed.
    client.release(!clean);
  }
}

// ── The CSV written by PGlite's COPY, batch by batch ─────────────────────────
//
// PGlite has no COPY stream, but `COPY … TO '/dev/blob'` hands back a statement's CSV at once: each
// keyset batch is one COPY (the same SELECT as on PostgreSQL, LIMITed after the last batch's key),
// finished by the same rewriter, with the sort value and id as two last columns it leaves out and
// keeps for the next batch. PGlite runs in this thread, so batches follow one another.

interface PgliteClient {
  transaction<T>(fn: (tx: { exec(q: string): Promise<unknown>; query(q: string): Promise<{ blob?: Blob }> }) => Promise<T>): Promise<T>;
}
function pgliteOf(db: DbOrTx): PgliteClient | null {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof PGlite ? (client as unknown as PgliteClient) : null;
}

async function* pgliteCopyChunks(def: ResourceDef, db: DbOrTx, pglite: PgliteClient, p: SqlPlan, where: SQL | undefined, s: Sort, timezone: string, columns: CsvColumn[], size: number): AsyncGenerator<string | Buffer> {
  const run = async (after: SQL | undefined): Promise<{ csv: Buffer; rows: number; last: string[] | null }> => {
    const { query, kinds } = copyQuery(def, db, p, where, s, timezone, { after, size });
    const compiled = dialect.sqlToQuery(query);
    const text = `copy (${inlineParams(compiled.sql, compiled.params, literal)}) to '/dev/blob' with (format csv)`;
    const blob = await pglite.transaction(async (tx) => {
      await tx.exec("set local datestyle = 'ISO, YMD'");
      return (await tx.query(text)).blob;
    });
    const rewriter = new CopyCsvRewriter(kinds, timezone);
    const csv = blob ? rewriter.push(Buffer.from(await blob.arrayBuffer())) : Buffer.alloc(0);
    rewriter.end();
    return { csv, rows: rewriter.rows, last: rewriter.lastKeys };
  };
  // As on the other paths: the first batch runs before the header (a refused filter is a 400).
  let batch = await run(undefined);
  yield `\ufeff${csvLines([columns.map((c) => c.header)])}`;
  for (;;) {
    if (batch.rows > 0) yield batch.csv;
    if (batch.rows < size || !batch.last) return;
    const [lastSort, lastId] = batch.last;
    batch = await run(s.dir === 'desc' ? sql`(${s.column}, ${def.idColumn}) < (${lastSort}, ${lastId})` : sql`(${s.column}, ${def.idColumn}) > (${lastSort}, ${lastId})`);
  }
}
