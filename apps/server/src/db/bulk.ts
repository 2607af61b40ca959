import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgColumn, PgTable } from 'drizzle-orm/pg-core';

/*
 * Statements over many rows with ONE parameter: the rows travel as a JSON array and PostgreSQL
 * unpacks them (`jsonb_to_recordset`), so a statement of thousands of values costs no more to
 * build, send and parse than one of a few (group commit of orders, orders/group-commit.ts).
 */

/** A row value as JSON: bigints as decimal strings, dates as ISO text (PostgreSQL reads both back exactly). */
function jsonValue(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return v.toISOString();
  return v;
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

function columnsOf(table: PgTable, keys: string[]) {
  const all = getTableColumns(table) as Record<string, PgColumn>;
  return keys.map((k) => {
    const c = all[k];
    if (!c) throw new Error(`No column ${k}`);
    return { key: k, name: c.name, type: c.getSQLType() };
  });
}

function recordset(cols: { key: string; name: string; type: string }[], rows: Record<string, unknown>[]): SQL {
  const json = JSON.stringify(rows.map((r) => Object.fromEntries(cols.map((c) => [c.name, jsonValue(r[c.key]) ?? null]))));
  return sql`jsonb_to_recordset(${json}::jsonb) as v(${sql.raw(cols.map((c) => `${q(c.name)} ${c.type}`).join(', '))})`;
}

/** INSERT of many rows (the columns: the first row's keys whose value is defined; the others take their defaults). */
export function bulkInsert(table: PgTable, rows: Record<string, unknown>[], opts: { overridingSystemValue?: boolean } = {}): SQL {
  const cols = columnsOf(table, Object.keys(rows[0] ?? {}).filter((k) => rows[0]![k] !== undefined));
  const names = sql.raw(cols.map((c) => q(c.name)).join(', '));
  return sql`insert into ${table} (${names}) ${sql.raw(opts.overridingSystemValue ? 'overriding system value ' : '')}select ${names} from ${recordset(cols, rows)}`;
}

/**
 * The ids as ONE array parameter (`= any(…)`): the planner sees how many there are and finds the
 * rows through the primary key. Joined to `jsonb_to_recordset` alone (which it guesses at 100 rows)
 * it hashed the recordset and scanned the whole table, every group, for tables up to tens of
 * thousands of rows (measured in the orders bench: the PostgreSQL CPU per order grew with the table).
 */
export function idArray(ids: Iterable<number | bigint>): SQL {
  return sql`${`{${[...ids].map((id) => String(id)).join(',')}}`}::bigint[]`;
}

/** Strings as ONE `text[]` parameter (each element quoted, `"` and `\` escaped), for the same reason. */
export function textArray(values: Iterable<string>): SQL {
  return sql`${`{${[...values].map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`}::text[]`;
}

/** UPDATE of many rows by id: each row sets the columns `keys` (plus `updated_at = now()` when the table has it). */
export function bulkUpdateById(table: PgTable, rows: Record<string, unknown>[], keys: string[]): SQL {
  const cols = columnsOf(table, ['id', ...keys]);
  const sets = cols.slice(1).map((c) => `${q(c.name)} = v.${q(c.name)}`);
  if ('updatedAt' in getTableColumns(table)) sets.push('"updated_at" = now()');
  return sql`update ${table} t set ${sql.raw(sets.join(', '))} from ${recordset(cols, rows)} where t."id" = v."id" and t."id" = any(${idArray(rows.map((r) => r.id as number))})`;
}

/** A row of `table` from a raw query's row (the database's column names), mapped as drizzle's own select maps it. */
export function rowOf<T extends PgTable>(table: T, raw: Record<string, unknown>): T['$inferSelect'] {
  const out: Record<string, unknown> = {};
  for (const [key, c] of Object.entries(getTableColumns(table) as Record<string, PgColumn>)) {
    const v = raw[c.name];
    out[key] = v === null || v === undefined ? null : c.mapFromDriverValue(v);
  }
  return out as T['$inferSelect'];
}

/**
 * A column written with its table's name (`"series"."id"`), for a correlated subquery: drizzle writes
 * a column of a select without joins as a bare `"id"`, which inside `(select … from events e where
 * e.series_id = "id")` is the subquery's own id (every series then counted one event).
 */
export function outerColumn(column: AnyPgColumn): SQL {
  return sql.raw(`"${getTableName(column.table)}"."${column.name}"`);
}
