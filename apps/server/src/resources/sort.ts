import { isCalendarDay, isCleanText } from '@pitboss/contract';
import { asc, Column, desc, getTableColumns, is, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { badRequest } from '../http/errors.js';
import type { ApiRecord, ResourceDef, Row } from './define.js';

/*
 * A list's sort: one column (`ResourceDef.columns`), or several (`ResourceDef.sortBy`: a money
 * column sorts by its coin, then its amount), then the id, all in one direction. The list's ORDER
 * BY, its keyset cursors (forward and backward) and the export's batches are all this key.
 */

type Col = AnyPgColumn | SQL;

/** One column of a composite sort: where its value is in the row, and how a cursor holds it. */
export interface SortPart {
  column: AnyPgColumn;
  /** The row's field (the table's key of the column: the declared SELECT keeps `getTableColumns`). */
  field: string;
  /** `int`: a bigint or integer, its digits in the cursor; `text`: as it is. */
  kind: 'int' | 'text';
}

export interface Sort {
  key: string;
  dir: 'asc' | 'desc';
  /** The sort key's column; for a composite sort, its first part. */
  column: Col;
  /** A composite sort's columns, in order (`ResourceDef.sortBy`). */
  parts?: readonly SortPart[];
}

const INT_KINDS = new Set(['PgBigInt53', 'PgBigInt64', 'PgInteger', 'PgSmallInt']);
const partsCache = new WeakMap<ResourceDef, Map<string, readonly SortPart[]>>();

/**
 * The parts of a composite sort (`ResourceDef.sortBy[key]`), or undefined. Each must be a NOT NULL
 * column of the resource's own table, of an integer or text type: anything else fails the start.
 */
export function sortParts(def: ResourceDef, key: string): readonly SortPart[] | undefined {
  const columns = def.sortBy?.[key];
  if (!columns) return undefined;
  let byKey = partsCache.get(def);
  if (!byKey) {
    byKey = new Map();
    partsCache.set(def, byKey);
  }
  const known = byKey.get(key);
  if (known) return known;
  const fields = Object.entries(getTableColumns(def.table));
  const parts = columns.map((column) => {
    const field = fields.find(([, c]) => c === column)?.[0];
    if (!field || !is(column, Column)) throw new Error(`${def.spec.name}: sort "${key}" names a column that is not of its table`);
    if (!column.notNull) throw new Error(`${def.spec.name}: sort "${key}" names the nullable column "${column.name}" (a cursor cannot pass a NULL)`);
    const kind = INT_KINDS.has(column.columnType) ? 'int' : column.columnType === 'PgText' ? 'text' : null;
    if (!kind) throw new Error(`${def.spec.name}: sort "${key}" names "${column.name}", neither an integer nor a text`);
    return { column, field, kind } as const;
  });
  byKey.set(key, parts);
  return parts;
}

export function sortOf(def: ResourceDef, sort: string): Sort {
  const dir = sort.startsWith('-') ? 'desc' : 'asc';
  const key = sort.replace(/^-/, '');
  const parts = sortParts(def, key);
  if (parts) return { key, dir, column: parts[0]!.column, parts };
  const column = def.columns[key];
  if (!column) throw new Error(`${def.spec.name}: no column for "${key}"`);
  return { key, dir, column };
}

/** The columns a sort orders by, the id last. */
export function sortColumns(def: ResourceDef, s: Sort): Col[] {
  return [...(s.parts ? s.parts.map((p) => p.column) : [s.column]), def.idColumn];
}

/** ORDER BY of a sort: every column in its direction. */
export function orderBy(def: ResourceDef, s: Sort): SQL[] {
  const f = s.dir === 'desc' ? desc : asc;
  return sortColumns(def, s).map((c) => f(c as AnyPgColumn));
}

/** A row's sort value as a cursor holds it: the record's field, or every part's (digits for integers). */
export function sortValue(s: Sort, row: Row, record: ApiRecord): unknown {
  if (s.parts) return s.parts.map((p) => String(row[p.field]));
  return s.key === '_id' ? record._id : record[s.key];
}

/** Rows past `value, id` in the sort's order (`below`: before them in ascending order). */
export function keysetPast(def: ResourceDef, s: Sort, value: unknown, id: string, below: boolean): SQL {
  const values = s.parts ? (value as unknown[]) : [value];
  const left = sql.join(sortColumns(def, s).map((c) => sql`${c}`), sql`, `);
  const right = sql.join([...values, id].map((v) => sql`${v}`), sql`, `);
  return below ? sql`(${left}) < (${right})` : sql`(${left}) > (${right})`;
}

export function encodeCursor(value: unknown, id: string): string {
  return Buffer.from(JSON.stringify([value, id])).toString('base64url');
}

const invalid = () => badRequest('Invalid cursor', { cursor: 'Invalid cursor' });
const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;
const cleanKey = (key: unknown): key is string => typeof key === 'string' && key.length <= 100 && isCleanText(key);

export function decodeCursor(cursor: string): [unknown, string] {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && typeof v[1] === 'string' && /^\d{1,18}$/.test(v[1])) {
      const key = v[0];
      if (cleanKey(key) || (typeof key === 'number' && Number.isSafeInteger(key))) return [key, v[1]];
      // A composite sort's values: a few texts.
      if (Array.isArray(key) && key.length >= 1 && key.length <= 4 && key.every(cleanKey)) return [key, v[1]];
    }
  } catch {
    /* fall through */
  }
  throw invalid();
}

/** Whether a number fits the sort column's type (an int4 column refuses 2^40: a 22003 without a field, before). */
function fitsColumn(column: Col, value: number): boolean {
  const bound = { PgSmallInt: 2 ** 15, PgInteger: 2 ** 31 }[(column as { columnType?: string }).columnType ?? ''];
  return bound === undefined || (value >= -bound && value < bound);
}

/** Whether a composite sort's part takes this cursor value (an integer within its column's type). */
function fitsPart(part: SortPart, value: string): boolean {
  if (part.kind === 'text') return true;
  if (!/^-?\d{1,19}$/.test(value)) return false;
  const n = BigInt(value);
  const bound = { PgSmallInt: 2n ** 15n, PgInteger: 2n ** 31n }[part.column.columnType];
  return bound === undefined ? n >= INT8_MIN && n <= INT8_MAX : n >= -bound && n < bound;
}

/** Rows after the cursor in the sort order, or before it (`backward`: the Previous page). */
export function keysetCondition(def: ResourceDef, s: Sort, cursor: string, backward = false): SQL {
  const [value, id] = decodeCursor(cursor);
  // The cursor's value must be of the sort column's kind: both drivers then agree (400, never 500).
  const type = def.spec.columns.find((c) => c.key === s.key)?.type;
  const fits = s.parts
    ? Array.isArray(value) && value.length === s.parts.length && s.parts.every((p, i) => fitsPart(p, value[i] as string))
    : Array.isArray(value) ? false
    // A day of the calendar: Date.parse reads 30 February as 2 March, which the database refuses.
    : type === 'date' ? typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(value) && !Number.isNaN(Date.parse(value)) && isCalendarDay(value.slice(0, 10))
    : type === 'number' ? typeof value === 'number' && fitsColumn(s.column, value)
    : s.key === '_id' ? typeof value === 'string' && /^\d{1,18}$/.test(value)
    : typeof value === 'string';
  if (!fits) throw invalid();
  if (def.nullable?.includes(s.key)) throw badRequest('This sort does not support cursors', { cursor: 'Use page with this sort' });
  return keysetPast(def, s, value, id, (s.dir === 'desc') !== backward);
}
