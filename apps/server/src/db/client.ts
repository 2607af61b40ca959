import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql as sqlTag, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.js';
import { ADVISORY_LOCKS } from '../lib/locks.js';
import { parseJson } from '../lib/json.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle has the same query surface as the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PGlite: the whole data folder as a tarball, to open again with `loadDataDir` (a migrated template). */
  dumpDataDir?(compression?: 'none' | 'gzip'): Promise<Blob>;
}

// json and jsonb values are read with parseJson, which is JSON.parse except on a runtime whose
// JSON.parse misreads escaped keys (Node 24: see lib/json.ts). Set on pg's own table, since
// drizzle's per-query parsers fall back to it.
pg.types.setTypeParser(pg.types.builtins.JSON, parseJson);
pg.types.setTypeParser(pg.types.builtins.JSONB, parseJson);
const PGLITE_PARSERS = { 114: parseJson, 3802: parseJson };

const MIGRATIONS = fileURLToPath(new URL('../../drizzle', import.meta.url));

// Bigint columns come back as strings from node-postgres; keep them exact as strings
// (drizzle's `bigint` mode handles conversion per column).
export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; `memory://` for an in-memory database. */
  dataDir?: string | undefined;
  /** Told when an idle PostgreSQL connection fails (it is replaced on the next query). */
  onIdleError?: (err: Error) => void;
  /** Told every SQL statement drizzle sends (tracing, and tests that count statements). */
  onQuery?: (query: string) => void;
  /**
   * PGlite: start from this data folder (a `dumpDataDir` tarball) instead of an empty one, so a
   * database migrated once opens many times without initdb and migrations (the API tests' template).
   */
  loadDataDir?: Blob;
}

const logger = (opts: OpenOptions) => (opts.onQuery ? { logger: { logQuery: (query: string) => opts.onQuery!(query) } } : {});

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection can be cut by the server (restart, failover, admin command): the pool
    // drops it and opens a new one on the next query; without a listener the process would crash.
    pool.on('error', (err) => opts.onIdleError?.(err));
    // A connection cut while checked out (a transaction in flight when the server restarts or an
    // admin kills it) emits 'error' with no pool listener attached: without this one the process
    // would crash. The query in flight fails (its transaction rolls back); the pool drops the client.
    pool.on('connect', (client) => client.on('error', (err) => opts.onIdleError?.(err)));
    const db = drizzlePg(pool, { schema, ...logger(opts) }) as unknown as Db;
    // One migrator at a time across instances: take a session advisory lock on one connection.
    const client = await pool.connect();
    try {
      await client.query(`select pg_advisory_lock(${ADVISORY_LOCKS.migrate})`);
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS });
    } finally {
      await client.query(`select pg_advisory_unlock(${ADVISORY_LOCKS.migrate})`).catch(() => undefined);
      client.release();
    }
    return { db, driver: 'postgres', close: () => pool.end() };
  }
  const dataDir = opts.dataDir ?? 'memory://';
  const onDisk = !dataDir.startsWith('memory://');
  if (onDisk) fs.mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  // A new data folder starts from the build's migrated template when it matches these migrations:
  // no initdb and no migration to run (most of a first start's wait on PGlite).
  const loadDataDir = opts.loadDataDir ?? (onDisk && !fs.existsSync(path.join(dataDir, 'PG_VERSION')) ? migratedTemplate() : undefined);
  // pg_trgm: trigram indexes make substring search (`q`) fast on large tables, as on PostgreSQL.
  const client = new PGlite(dataDir, { extensions: { pg_trgm }, parsers: PGLITE_PARSERS, ...(loadDataDir ? { loadDataDir } : {}) });
  await client.waitReady;
  const db = drizzlePglite(client, { schema, ...logger(opts) }) as unknown as Db;
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: MIGRATIONS });
  return { db, driver: 'pglite', close: () => client.close(), dumpDataDir: (compression = 'none') => client.dumpDataDir(compression) };
}

/** Where the build keeps an empty PGlite data folder with every migration applied (`npm run build`, `prepare`). */
export const MIGRATED_TEMPLATE = fileURLToPath(new URL('../pglite-template.tar.gz', import.meta.url));

/** SHA-256 of the migrations folder (names and contents): the template is used only for the migrations it was made from. */
export function migrationsHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string, rel: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory()) walk(path.join(dir, e.name), `${rel}${e.name}/`);
      else hash.update(`${rel}${e.name}\n`).update(fs.readFileSync(path.join(dir, e.name), 'utf8').replace(/\r\n/g, '\n')).update('\n');
    }
  };
  walk(MIGRATIONS, '');
  return hash.digest('hex');
}

function migratedTemplate(): Blob | undefined {
  try {
    const recorded = fs.readFileSync(`${MIGRATED_TEMPLATE}.sha256`, 'utf8').trim();
    if (recorded !== migrationsHash()) return undefined;
    return new Blob([fs.readFileSync(MIGRATED_TEMPLATE)]);
  } catch {
    return undefined;
  }
}

/** Writes the migrated template next to the build (scripts/build-if-needed.mjs runs it after `tsc -b`). */
export async function writeMigratedTemplate(): Promise<void> {
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    const blob = await database.dumpDataDir!('gzip');
    fs.writeFileSync(MIGRATED_TEMPLATE, Buffer.from(await blob.arrayBuffer()));
    fs.writeFileSync(`${MIGRATED_TEMPLATE}.sha256`, `${migrationsHash()}\n`);
  } finally {
    await database.close();
  }
}

/** Rows of a raw SQL query, the same on both drivers. */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

/** Migrations this build ships with, and how many the database has applied (readiness). */
export async function migrationState(db: DbOrTx): Promise<{ shipped: number; applied: number }> {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  const [row] = await queryRows<{ n: number | string }>(db, sqlTag`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return { shipped: journal.entries.length, applied: Number(row?.n ?? 0) };
}
