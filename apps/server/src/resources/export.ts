import { and, asc, Column, desc, is, SQL, sql, Subquery } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.js';
import { formatInZone } from '../lib/timezone.js';
import { csvLines, toCell } from './csv.js';
import { withBatchFields, type ApiRecord, type ResourceDef, type Row } from './define.js';

/** Rows per export query: big enough that a query's fixed cost is small, small enough that memory stays flat. */
export const EXPORT_BATCH = 5_000;

type Col = AnyPgColumn | SQL;
interface Sort {
  key: string;
  dir: 'asc' | 'desc';
  column: Col;
}
/** How the rows of one batch are read: the ORM's row mapping, or the raw path below. */
export type ExportMode = 'records' | 'raw';

export interface ExportArgs {
  def: ResourceDef;
  db: DbOrTx;
  /** WHERE of the list (search, filters, base condition, scope), as `whereOf` builds it. */
  where: SQL | undefined;
  sort: Sort;
  timezone: string;
  view: (r: ApiRecord) => ApiRecord;
  /** Default: raw when the declared SELECT allows it (see `rawReader`), else records. */
  mode?: ExportMode;
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
// The ORM maps every row field by field (and the PGlite driver copies a buffer per field): at a
// million rows that is most of an export's time. The raw read runs the same declared SELECT (same
// joins, WHERE, ORDER BY, LIMIT: the ORM still writes it), but has the database fold the whole
// batch into ONE JSON text (`json_agg` of one array per row), parsed by one `JSON.parse`. Each
// value is then turned into exactly what the driver, then the ORM, would have produced: the
// driver's value from the JSON (per SQL type, below), then the column's own `mapFromDriverValue`.
// Rows are therefore the same objects `toRecord` always got; `export.test.ts` compares both paths
// for every resource. A SELECT this cannot mirror exactly (nested selections, a result type not
// listed here) is exported through the ORM instead.

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
  decoders: ((v: unknown) => unknown)[];
  asText: boolean[];
}

interface RawReader extends Plan {
  /** `c0, c1, …`: the declared SELECT's columns renamed by position (names may repeat across joins). */
  columnList: SQL;
  /** The JSON array of one row: each column, as text where its type travels as text. */
  values: SQL;
  /** The aggregate's ORDER BY: the selected sort column and id, in the export's direction. */
  order: SQL;
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
  const plan: Plan = { keys: [], fields: [], decoders: [], asText: [] };
  for (const [i, { key, field }] of fieldList.entries()) {
    const codec = typeCodec(probe.fields[i]!.dataTypeID, int8);
    // The ORM's decoder: the column itself, or an SQL expression's (identity unless `.mapWith`).
    const orm: Decoder | undefined = is(field, Column) ? field : is(field, SQL) ? decoderOf(field) : is(field, SQL.Aliased) ? decoderOf(field.sql) : undefined;
    if (!codec || !orm) return null;
    const driver = codec.decode;
    plan.keys.push(key);
    plan.fields.push(field);
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

/** The raw reader for this sort, or null when the export must go through the ORM. */
export async function rawReader(def: ResourceDef, db: DbOrTx, s: Sort): Promise<RawReader | null> {
  const plan = await planFor(def, db);
  if (!plan) return null;
  // The aggregate orders by the selected sort column and id: both must be among the fields.
  const sortIndex = plan.fields.indexOf(s.column);
  const idIndex = plan.fields.indexOf(def.idColumn);
  if (sortIndex < 0 || idIndex < 0) return null;
  const names = plan.keys.map((_, i) => `c${i}`);
  return {
    ...plan,
    columnList: sql.raw(names.join(', ')),
    values: sql.raw(names.map((n, i) => (plan.asText[i] ? `t.${n}::text` : `t.${n}`)).join(', ')),
    order: sql.raw(`t.c${sortIndex} ${s.dir}, t.c${idIndex} ${s.dir}`),
  };
}

/**
 * One batch through the raw reader. The batch is the declared SELECT as the ORM writes it (a
 * subquery with its own ORDER BY and LIMIT); the aggregate orders again by the same columns, so
 * the order is the query's, not an accident of the plan.
 */
async function readRaw(db: DbOrTx, reader: RawReader, inner: SQL): Promise<Row[]> {
  const res = (await db.execute(
    sql`select coalesce(json_agg(json_build_array(${reader.values}) order by ${reader.order}), '[]')::text as j from (${inner}) as t(${reader.columnList})`,
  )) as unknown as { rows: { j: string }[] };
  const arrays = JSON.parse(res.rows[0]!.j) as unknown[][];
  const { keys, decoders } = reader;
  const n = keys.length;
  const rows: Row[] = new Array(arrays.length);
  for (let r = 0; r < arrays.length; r++) {
    const a = arrays[r]!;
    const row: Row = {};
    for (let i = 0; i < n; i++) {
      const v = a[i];
      row[keys[i]!] = v === null ? null : decoders[i]!(v);
    }
    rows[r] = row;
  }
  return rows;
}

// ── The export ───────────────────────────────────────────────────────────────

/**
 * Every matching row as CSV, in keyset batches (no row cap, flat memory): the header, then one
 * chunk per batch. Each row goes through the declaration's `toRecord`, the caller's `view`
 * (redaction) and the CSV columns, whichever way it was read.
 */
export async function* exportCsvChunks({ def, db, where, sort, timezone, view, mode }: ExportArgs): AsyncGenerator<string> {
  const columns = def.csv ?? def.spec.columns.map((c) => ({ header: c.label, value: (r: ApiRecord) => r[c.key] }));
  const dateLabels = new Set(def.spec.columns.filter((c) => c.type === 'date').map((c) => c.label));
  const isDate = columns.map((c) => dateLabels.has(c.header));
  const width = columns.length;
  let s = sort;
  // Nullable sort columns can't drive a keyset: export those in id order.
  if (def.nullable?.includes(s.key)) s = { key: '_id', dir: s.dir, column: def.idColumn };
  const reader = mode === 'records' ? null : await rawReader(def, db, s);
  if (mode === 'raw' && !reader) throw new Error(`${def.spec.name}: no raw export for this declaration`);
  const fetchBatch = (after: SQL | undefined): Promise<Row[]> => {
    const q = baseSelect(def, db).where(and(where, after)).orderBy(...ordered(def, s)).limit(EXPORT_BATCH);
    return (reader ? readRaw(db, reader, q.getSQL()) : (q as Promise<Row[]>)).then((rows) => withBatchFields(def, db, rows));
  };
  let pending: Promise<Row[]> | null = fetchBatch(undefined);
  // The header goes out only once the first query has run: a value the database refuses (an
  // impossible date in a filter) is then a 400, not a 200 cut off mid-stream.
  const first = await pending;
  pending = Promise.resolve(first);
  yield `\ufeff${csvLines([columns.map((c) => c.header)])}`;
  while (pending) {
    const rows: Row[] = await pending;
    if (rows.length === 0) return;
    // Ask for the next batch before formatting this one: the database works while we write.
    pending = null;
    if (rows.length === EXPORT_BATCH) {
      const last = def.toRecord(rows[rows.length - 1]!);
      const value = s.key === '_id' ? last._id : last[s.key];
      pending = fetchBatch(s.dir === 'desc' ? sql`(${s.column}, ${def.idColumn}) < (${value}, ${last._id})` : sql`(${s.column}, ${def.idColumn}) > (${value}, ${last._id})`);
      pending.catch(() => undefined); // surfaced when awaited
    }
    const lines: string[][] = new Array(rows.length);
    for (let k = 0; k < rows.length; k++) {
      const r = view(def.toRecord(rows[k]!));
      const cells: string[] = new Array(width);
      for (let i = 0; i < width; i++) {
        const v = columns[i]!.value(r);
        cells[i] = isDate[i] && typeof v === 'string' && v ? toCell(formatInZone(new Date(v), timezone)) : toCell(v);
      }
      lines[k] = cells;
    }
    yield csvLines(lines);
  }
}
