// The demo platform's snapshot: what `seedDemo` writes (after `bootstrap`), taken once by
// `npm run demo-snapshot` and loaded on a first start in demo mode instead of seeding live
// (seconds instead of a minute and more on PGlite). Loading dates the whole story to now, resets
// what is per install (the first super admin's email, name and password; the players' unused pack
// server seeds) and writes the files the seed stored outside the database (card art, ticket
// attachments). The snapshot records a fingerprint of the migrations and the seed's sources: when
// they change, it is stale, the first start seeds live (as before) and a test says to take it again.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { PASSWORD_MAX, PASSWORD_MIN } from '@pitboss/contract';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { queryRows, type Db, type DbOrTx } from '../db/client.js';
import { hashPassword, passwordWeakness } from '../lib/passwords.js';
import { sha256Hex } from '../modules/booster-packs/service.js';
import type { ImageStore } from '../modules/uploads/storage.js';

const SERVER_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where `npm run demo-snapshot` writes the snapshot and a first start reads it. */
export const SNAPSHOT_FILE = path.join(SERVER_ROOT, 'demo-snapshot', 'demo.json.br');
const FORMAT = 1;

/** What the snapshot holds (brotli-compressed JSON). */
interface Snapshot {
  format: number;
  /** Of the migrations and the seed's sources when it was taken (`snapshotFingerprint`). */
  fingerprint: string;
  /** When it was taken (ISO): loading shifts every time by now − takenAt. */
  takenAt: string;
  tables: SnapshotTable[];
  /** Files under DATA_DIR/uploads: `images` (the image store's, by name) and `tickets/…` (attachments). */
  files: { path: string; data: string }[];
}

interface SnapshotTable {
  name: string;
  columns: { name: string; type: string }[];
  /** Every value as PostgreSQL's text form (null stays null). */
  rows: (string | null)[][];
}

const NOT_SEED = ['snapshot.ts', 'make-snapshot.ts', 'simulator.ts'];

/** The files whose change makes the snapshot stale: every migration and the seed (bootstrap included). */
function fingerprintFiles(): string[] {
  const list = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? list(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  const seedDir = path.join(SERVER_ROOT, 'src', 'seed');
  return [
    ...list(path.join(SERVER_ROOT, 'drizzle')),
    // Not the snapshot's own code (its FORMAT says what it reads) nor the simulator (it runs after the start).
    ...fs.readdirSync(seedDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !NOT_SEED.includes(f)).map((f) => path.join(seedDir, f)),
    path.join(SERVER_ROOT, 'src', 'modules', 'booster-packs', 'bulk.ts'),
  ]
    .map((f) => path.relative(SERVER_ROOT, f).split(path.sep).join('/'))
    .sort();
}

/**
 * SHA-256 of the migrations and the seed's sources (names and contents, line endings normalised),
 * or null when a source is not there to read (a build shipped without its sources: seed live).
 */
export function snapshotFingerprint(): string | null {
  const hash = createHash('sha256');
  try {
    for (const rel of fingerprintFiles()) {
      hash.update(`${rel}\n`);
      hash.update(fs.readFileSync(path.join(SERVER_ROOT, rel), 'utf8').replace(/\r\n/g, '\n'));
      hash.update('\n');
    }
  } catch {
    return null;
  }
  return hash.digest('hex');
}

interface TableInfo {
  name: string;
  columns: { name: string; type: string; identity: string }[];
}

/** One statement in the load's transaction, its rows. */
type Run = <T>(query: SQL) => Promise<T[]>;

/** The public schema's tables and their stored (not generated) columns, parents before the tables that reference them. */
async function tablesInOrder(run: Run): Promise<TableInfo[]> {
  const cols = await run<{ table: string; name: string; type: string; identity: string }>(
    sql`select c.relname as table, a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attidentity as identity
        from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_attribute a on a.attrelid = c.oid
        where n.nspname = 'public' and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
        order by c.relname, a.attnum`,
  );
  const fks = await run<{ child: string; parent: string }>(
    sql`select c.relname as child, p.relname as parent from pg_constraint k
        join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid join pg_namespace n on n.oid = c.relnamespace
        where k.contype = 'f' and n.nspname = 'public' and c.relname <> p.relname`,
  );
  // References the ledger checks with triggers rather than foreign keys: postings name their transaction.
  fks.push({ child: 'ledger_postings', parent: 'ledger_transactions' });
  const tables = new Map<string, TableInfo>();
  for (const c of cols) {
    const t = tables.get(c.table) ?? { name: c.table, columns: [] };
    t.columns.push({ name: c.name, type: c.type, identity: c.identity });
    tables.set(c.table, t);
  }
  const ordered: TableInfo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, trail: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`demo snapshot: foreign keys form a cycle (${[...trail, name].join(' → ')})`);
    state.set(name, 'visiting');
    for (const fk of fks) if (fk.child === name) visit(fk.parent, [...trail, name]);
    state.set(name, 'done');
    const t = tables.get(name);
    if (t) ordered.push(t);
  };
  for (const name of [...tables.keys()].sort()) visit(name, []);
  return ordered;
}

const TIME_TYPES = /^timestamp(\(\d\))? with(out)? time zone$/;
const SHIFTED_TYPES = (type: string) => TIME_TYPES.test(type) || type === 'date' || type === 'json' || type === 'jsonb';
const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The database (every public table) and the files under `dataDir/uploads`, as a snapshot. */
export async function takeDemoSnapshot(db: Db, dataDir: string, fingerprint: string): Promise<Buffer> {
  const tables: SnapshotTable[] = [];
  for (const t of await tablesInOrder((query) => queryRows(db, query))) {
    for (const c of t.columns) {
      if (c.type.endsWith('[]') && SHIFTED_TYPES(c.type.slice(0, -2))) throw new Error(`demo snapshot: ${t.name}.${c.name} is an array of ${c.type}: teach the snapshot to date it`);
    }
    const values = t.columns.map((c) => `${q(c.name)}::text`).join(', ');
    const order = t.columns.some((c) => c.name === 'id') ? ' order by "id"' : '';
    const [res] = await queryRows<{ j: string }>(db, sql.raw(`select coalesce(json_agg(array[${values}]${order}), '[]')::text as j from ${q(t.name)}`));
    const rows = JSON.parse(res!.j) as (string | null)[][];
    if (rows.length) tables.push({ name: t.name, columns: t.columns.map(({ name, type }) => ({ name, type })), rows });
  }
  const files: Snapshot['files'] = [];
  const uploads = path.join(dataDir, 'uploads');
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (!e.name.endsWith('.tmp')) files.push({ path: path.relative(uploads, p).split(path.sep).join('/'), data: fs.readFileSync(p).toString('base64') });
    }
  };
  walk(uploads);
  const snapshot: Snapshot = { format: FORMAT, fingerprint, takenAt: new Date().toISOString(), tables, files };
  const json = Buffer.from(JSON.stringify(snapshot));
  return zlib.brotliCompressSync(json, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_LGWIN]: 24, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: json.length },
  });
}

/** Why the snapshot cannot be used (null: it can): missing, or taken from other migrations or another seed. */
export function snapshotProblem(file = SNAPSHOT_FILE, env: NodeJS.ProcessEnv = process.env): string | null {
  if (!fs.existsSync(file)) return `no snapshot at ${path.relative(process.cwd(), file)}`;
  // The seed's own size settings: the snapshot is of the defaults.
  if (env.DEMO_PACK_PURCHASES !== undefined) return 'DEMO_PACK_PURCHASES is set: the snapshot holds the default demo';
  const current = snapshotFingerprint();
  if (!current) return 'the seed\'s sources are not there to check the snapshot against';
  const recorded = readHeader(file);
  if (recorded.format !== FORMAT) return `the snapshot is of format ${recorded.format}, this build reads ${FORMAT}`;
  if (recorded.fingerprint !== current) return 'the snapshot is older than the migrations or the seed (npm run demo-snapshot takes it again)';
  return null;
}

/** The snapshot's format and fingerprint (the start of its JSON: no need to parse it all). */
export function readHeader(file = SNAPSHOT_FILE): { format: number; fingerprint: string; takenAt: string } {
  const json = zlib.brotliDecompressSync(fs.readFileSync(file)).toString('utf8');
  const head = /^\{"format":(\d+),"fingerprint":"([0-9a-f]*)","takenAt":"([^"]*)"/.exec(json.slice(0, 300));
  if (!head) throw new Error(`${file} is not a demo snapshot`);
  return { format: Number(head[1]), fingerprint: head[2]!, takenAt: head[3]! };
}

/** True when nothing was written yet: no admin, no demo part (a first start). */
export async function isFreshDatabase(db: DbOrTx): Promise<boolean> {
  const [row] = await queryRows<{ admins: number; meta: number }>(db, sql`select (select count(*)::int from admins) as admins, (select count(*)::int from app_meta) as meta`);
  return row!.admins === 0 && row!.meta === 0;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)$/;

/** Times inside JSON (audit entries' before/after, notifications' details): moved like the columns. */
function shiftJson(value: unknown, shiftMs: number): unknown {
  if (typeof value === 'string') return ISO_TIME.test(value) ? new Date(Date.parse(value) + shiftMs).toISOString() : value;
  if (Array.isArray(value)) return value.map((v) => shiftJson(v, shiftMs));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shiftJson(v, shiftMs)]));
  return value;
}
const QUICK_ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

const PG_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:([+-])(\d{2})(?::?(\d{2}))?)?$/;

/** A timestamp in PostgreSQL's text form, moved by shiftMs, to the microsecond (written in UTC). */
export function shiftTimestamp(value: string, shiftMs: number, withZone: boolean): string {
  const m = PG_TIMESTAMP.exec(value);
  if (!m) throw new Error(`demo snapshot: a timestamp it cannot read: ${value}`);
  const offsetMin = m[8] ? (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10] ?? 0)) : 0;
  const seconds = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) - offsetMin * 60_000;
  const micros = seconds * 1000 + Number((m[7] ?? '').padEnd(6, '0')) + shiftMs * 1000;
  const whole = Math.floor(micros / 1_000_000);
  const fraction = String(micros - whole * 1_000_000).padStart(6, '0').replace(/0+$/, '');
  return `${new Date(whole * 1000).toISOString().slice(0, 19).replace('T', ' ')}${fraction ? `.${fraction}` : ''}${withZone ? '+00' : ''}`;
}

/** A date (YYYY-MM-DD) moved by whole days. */
function shiftDate(value: string, days: number): string {
  return new Date(Date.parse(`${value}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** A value in COPY's text format: backslash, tab, newline and carriage return escaped. */
const copyEscape = (v: string) => v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));

export interface LoadSnapshotOptions {
  /** Where card art goes (the app's image store). */
  images: ImageStore;
  /** DATA_DIR: ticket attachments go under its uploads/tickets. */
  dataDir: string;
  /** The first super admin as configured (ADMIN_EMAIL, ADMIN_NAME, ADMIN_PASSWORD). */
  admin: { email: string; name: string; password: string | undefined };
  /** Told how far it is, for the first start's progress. */
  onProgress?: (message: string) => void;
  /** "Now" for the dating (tests). */
  now?: Date;
  file?: string;
}

export interface LoadSnapshotResult {
  /** The first super admin, as `bootstrap` reports it. */
  createdAdmin: { email: string; password: string; generated: boolean };
  rows: number;
  tables: number;
  files: number;
}

/**
 * Loads the snapshot into a fresh, migrated database (one transaction), dated to now: every
 * timestamp and date column and every ISO time inside JSON moves by now − takenAt (dates by whole
 * days), so the history ends where it ended when it was taken, relative to now. Then what is per
 * install is reset, and the files are written. Call `snapshotProblem` and `isFreshDatabase` first.
 */
export async function loadDemoSnapshot(db: Db, opts: LoadSnapshotOptions): Promise<LoadSnapshotResult> {
  const { admin } = opts;
  // The same rule as bootstrap's: a configured password must be acceptable, else a generated one.
  if (admin.password && (admin.password.length < PASSWORD_MIN || admin.password.length > PASSWORD_MAX || passwordWeakness(admin.password, [admin.name, admin.email]))) {
    throw new Error(`ADMIN_PASSWORD must be ${PASSWORD_MIN}–${PASSWORD_MAX} characters and hard to guess (a few uncommon words, not a common password)`);
  }
  const generated = !admin.password;
  const password = admin.password ?? randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password);

  const snapshot = JSON.parse(zlib.brotliDecompressSync(fs.readFileSync(opts.file ?? SNAPSHOT_FILE)).toString('utf8')) as Snapshot;
  const now = (opts.now ?? new Date()).getTime();
  const shiftMs = now - Date.parse(snapshot.takenAt);
  const shiftDays = Math.round(shiftMs / 86_400_000);
  let rows = 0;
  // Run: statements in the load's transaction. Copy (PGlite): a table's rows as COPY text, which
  // PGlite parses once (jsonb included), at less than half the CPU of the insert from JSON.
  const load = async (run: Run, copy: ((table: string, columns: string[], text: string) => Promise<void>) | null) => {
    const order = await tablesInOrder(run);
    const live = new Map(order.map((t) => [t.name, t]));
    const missing = snapshot.tables.find((t) => !live.has(t.name));
    if (missing) throw new Error(`demo snapshot: no table ${missing.name} in this database`);
    // Parents before the tables that reference them, as this database's keys say.
    const position = new Map(order.map((t, i) => [t.name, i]));
    const tables = [...snapshot.tables].sort((a, b) => position.get(a.name)! - position.get(b.name)!);
    for (const [i, t] of tables.entries()) {
      const target = live.get(t.name)!;
      const exprs = t.columns.map((c, k) => {
        const v = `(r->>${k})`;
        if (TIME_TYPES.test(c.type)) return `${v}::${c.type} + ${shiftMs}::bigint * interval '1 millisecond'`;
        if (c.type === 'date') return `${v}::date + ${shiftDays}`;
        return `${v}::${c.type}`;
      });
      const jsonCols = t.columns.flatMap((c, k) => (c.type === 'json' || c.type === 'jsonb' || (t.name === 'app_meta' && c.name === 'value') ? [k] : []));
      const data = jsonCols.length
        ? t.rows.map((r) => {
            const out = [...r];
            for (const k of jsonCols) {
              const v = out[k];
              if (v == null || !QUICK_ISO.test(v)) continue;
              out[k] = t.columns[k]!.type.startsWith('json') ? JSON.stringify(shiftJson(JSON.parse(v), shiftMs)) : (shiftJson(v, shiftMs) as string);
            }
            return out;
          })
        : t.rows;
      // A large table's secondary indexes are built once after its rows (a sort) rather than row by row
      // (not on a table with insert triggers: the ledger's checks read its indexes, and a deferred check's
      // pending events forbid building an index before commit).
      const rebuilt = t.rows.length >= 500
        ? await run<{ name: string; def: string }>(
            sql`select indexname as name, indexdef as def from pg_indexes i where schemaname = 'public' and tablename = ${t.name}
                and not exists (select 1 from pg_constraint k where k.conname = i.indexname)
                and not exists (select 1 from pg_trigger g where g.tgrelid = ${q(t.name)}::regclass and not g.tgisinternal and g.tgtype & 4 <> 0)`,
          )
        : [];
      for (const ix of rebuilt) await run(sql.raw(`drop index ${q(ix.name)}`));
      if (copy) {
        // The times moved here (exactly, to the microsecond), each value in COPY's text escaping.
        const shifters = t.columns.map((c) => (TIME_TYPES.test(c.type) ? (v: string) => shiftTimestamp(v, shiftMs, !c.type.includes('without')) : c.type === 'date' ? (v: string) => shiftDate(v, shiftDays) : null));
        const lines = data.map((r) => r.map((v, k) => (v === null ? '\\N' : copyEscape(shifters[k] ? shifters[k](v) : v))).join('\t'));
        await copy(t.name, t.columns.map((c) => c.name), `${lines.join('\n')}\n`);
      } else {
        const overriding = target.columns.some((c) => c.identity === 'a') ? ' overriding system value' : '';
        await run(sql`${sql.raw(`insert into ${q(t.name)} (${t.columns.map((c) => q(c.name)).join(', ')})${overriding} select ${exprs.join(', ')} from json_array_elements(`)}${JSON.stringify(data)}${sql.raw('::json) r')}`);
      }
      for (const ix of rebuilt) await run(sql.raw(ix.def));
      rows += t.rows.length;
      if (i % 10 === 9) opts.onProgress?.(`${i + 1}/${snapshot.tables.length} tables`);
    }
    // Sequences continue after the loaded ids.
    const sequences = await run<{ table: string; column: string; seq: string }>(
      sql`select table_name as table, column_name as column, pg_get_serial_sequence(quote_ident(table_name), column_name) as seq
          from information_schema.columns where table_schema = 'public' and (is_identity = 'YES' or column_default like 'nextval(%')`,
    );
    const loadedTables = new Set(snapshot.tables.map((t) => t.name));
    for (const s of sequences) {
      if (!s.seq || !loadedTables.has(s.table)) continue;
      await run(sql`select setval(${s.seq}, coalesce((select max(${sql.identifier(s.column)}) from ${sql.identifier(s.table)}), 0) + 1, false)`);
    }
    // Per install: the first super admin is the configured one, with its own password.
    const [taken] = await run<{ id: number }>(sql`select id from admins where lower(email) = ${admin.email} and role <> 'superadmin'`);
    if (taken) throw new Error(`ADMIN_EMAIL ${admin.email} belongs to a demo sub-admin; choose another email for the super admin`);
    const updated = await run<{ id: number }>(
      sql`update admins set email = ${admin.email}, name = ${admin.name}, password_hash = ${passwordHash} where id = (select min(id) from admins where role = 'superadmin') returning id`,
    );
    if (updated.length !== 1) throw new Error('demo snapshot: it holds no super admin');
    // The players' unused pack server seeds are secrets: new ones (a used one is kept: its openings must verify when revealed).
    const unused = await run<{ id: number }>(sql`select id from pack_seeds where revealed_at is null and nonce = 0`);
    for (const { id } of unused) {
      const seed = randomBytes(32).toString('hex');
      await run(sql`update pack_seeds set server_seed = ${seed}, server_seed_hash = ${sha256Hex(seed)} where id = ${id}`);
    }
  };
  const pglite = (db as { $client?: unknown }).$client;
  if (pglite instanceof PGlite) {
    // PGlite: its own transaction, where COPY FROM '/dev/blob' runs (drizzle's holds the connection).
    const dialect = new PgDialect();
    await pglite.transaction(async (ptx) => {
      const run: Run = async <T>(query: SQL) => {
        const { sql: text, params } = dialect.sqlToQuery(query);
        return (await ptx.query<T>(text, params)).rows;
      };
      await load(run, async (table, columns, text) => {
        await ptx.query(`copy ${q(table)} (${columns.map(q).join(', ')}) from '/dev/blob'`, [], { blob: new Blob([text]) });
      });
    });
  } else {
    await db.transaction(async (tx) => load((query) => queryRows(tx, query), null));
  }
  for (const f of snapshot.files) {
    const body = Buffer.from(f.data, 'base64');
    if (f.path.includes('/')) {
      const target = path.join(opts.dataDir, 'uploads', ...f.path.split('/'));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, body);
    } else {
      await opts.images.put(f.path, body, f.path.endsWith('.webp') ? 'image/webp' : f.path.endsWith('.png') ? 'image/png' : 'application/octet-stream');
    }
  }
  return { createdAdmin: { email: admin.email, password, generated }, rows, tables: snapshot.tables.length, files: snapshot.files.length };
}
