// List and export figures (QUALITY.md) over large data: 1 M audit entries, 1 M platform users with
// 5 M ledger postings (bench/ledger-data.ts), their deposits and withdrawals. 50-row pages over
// HTTP at several depths (keyset cursors, filters and sorts on indexed columns, free-text search),
// and streamed CSV exports of 1 M rows with the server's memory growth.
//
// PGlite by default, in a temporary data folder (as `npm start` runs it; an in-memory database of
// this size would hold gigabytes in the process); BENCH_DATABASE_URL=postgres://… for PostgreSQL
// (a database is created and dropped). BENCH_ROWS (audit entries) and BENCH_USERS scale it down.
// BENCH_EXPORT_DIRECT=1 also times each export function without HTTP (twice, with the process's CPU).
import { scratchPostgres } from './scratch-db.js';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase, queryRows, type Db } from '../apps/server/src/db/client.js';
import { createMailer } from '../apps/server/src/mail/mailer.js';
import { bootstrap } from '../apps/server/src/seed/bootstrap.js';
import { generateLedgerData } from './ledger-data.js';
import type { ListQuery } from '@pitboss/contract';
import { auditLogDef } from '../apps/server/src/modules/audit-log/resource.js';
import { usersDef } from '../apps/server/src/modules/users/resource.js';
import type { ResourceDef } from '../apps/server/src/resources/define.js';
import { exportCsv } from '../apps/server/src/resources/register.js';
import { PGlite } from '@electric-sql/pglite';
import { queryMessage } from '../apps/server/src/resources/copy-csv.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const USERS = Number(process.env.BENCH_USERS ?? 1_000_000);
const SAMPLES = 200;

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const cursorOf = (value: string, id: string | number) => Buffer.from(JSON.stringify([value, String(id)])).toString('base64url');
const iso = (d: unknown) => new Date(d as string).toISOString();

export async function benchLists(): Promise<void> {
  // A database an earlier run left filled (`BENCH_KEEP=1`), measured again without refilling it.
  const existing = process.env.BENCH_EXISTING_DATABASE_URL;
  if (existing) return run(existing, 'memory://', true);
  // The same for PGlite: a data folder an earlier run kept.
  const existingDir = process.env.BENCH_EXISTING_DATA_DIR;
  if (existingDir) return run(undefined, existingDir, true);
  const base = process.env.BENCH_DATABASE_URL;
  let databaseUrl: string | undefined;
  let dataDir = 'memory://';
  let cleanup: () => Promise<void> = async () => undefined;
  if (base) {
    const scratch = await scratchPostgres(base);
    databaseUrl = scratch.databaseUrl;
    cleanup = process.env.BENCH_KEEP ? async () => console.log(`lists: data kept in ${scratch.databaseUrl}`) : scratch.drop;
  } else {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pitboss-bench-'));
    cleanup = process.env.BENCH_KEEP ? async () => console.log(`lists: data kept in ${dataDir}`) : async () => fs.rmSync(dataDir, { recursive: true, force: true });
  }
  try {
    await run(databaseUrl, dataDir);
  } finally {
    await cleanup();
  }
}

async function run(databaseUrl: string | undefined, dataDir: string, filled = false): Promise<void> {
  const config = loadConfig({ APP_MODE: 'production', TOTP_ENCRYPTION_KEY: 'ab'.repeat(32), ADMIN_EMAIL: 'bench@pitboss.test', ADMIN_PASSWORD: 'Bench-Password-1', LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1' } as NodeJS.ProcessEnv);
  const database = await openDatabase({ databaseUrl, dataDir });
  await bootstrap(database.db, config);
  const driver = database.driver === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const db = database.db;

  let t = performance.now();
  let stats: Awaited<ReturnType<typeof generateLedgerData>>;
  // Audit entries in the database (BENCH_ROWS when filled here; counted when reused).
  let auditRows = ROWS;
  if (filled) {
    const [c] = await queryRows<{ users: number; audit: number }>(db, sql`select (select count(*) from users)::int as users, (select count(*) from audit_log)::int as audit`);
    stats = { users: c!.users } as typeof stats;
    auditRows = c!.audit;
    console.log(`lists: reusing ${c!.users.toLocaleString('en-US')} users and ${c!.audit.toLocaleString('en-US')} audit entries (${driver})`);
  } else {
    // 1 M audit entries, one a second going back in time, spread over 30 resources.
    await db.execute(sql`
      insert into audit_log (admin_id, admin_email, action, resource, record_id, before, after, ip, created_at)
      select 1, 'bench@pitboss.test', case when i % 3 = 0 then 'update' else 'create' end, 'res' || (i % 30), (i % 5000)::text,
             null, jsonb_build_object('n', i, 'label', 'row ' || i), '10.0.' || (i % 250) || '.' || (i % 200),
             timestamptz '2026-01-01' + make_interval(secs => i)
      from generate_series(1, ${ROWS}) as g(i)`);
    await db.execute(sql`vacuum analyze audit_log`);
    console.log(`lists: ${ROWS.toLocaleString('en-US')} audit entries inserted in ${((performance.now() - t) / 1000).toFixed(1)} s (${driver})`);

    stats = await generateLedgerData(db, USERS, (line) => console.log(`lists: ${line}`));
    console.log(
      `lists: ${stats.users.toLocaleString('en-US')} users, ${stats.postings.toLocaleString('en-US')} ledger postings (${stats.transactions.toLocaleString('en-US')} transactions, ` +
        `${stats.accounts.toLocaleString('en-US')} accounts), ${stats.deposits.toLocaleString('en-US')} deposits, ${stats.withdrawals.toLocaleString('en-US')} withdrawals ` +
        `generated in ${stats.seconds.toFixed(1)} s; ledger invariants checked in ${stats.checkSeconds.toFixed(1)} s: none broken (${driver})`,
    );
  }
  const mailer = createMailer({ db, smtpUrl: undefined, from: config.mailFrom, log: pino({ level: 'silent' }) });
  const { app } = await buildApp({ config, db, mailer }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const login = await app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: 'bench@pitboss.test', password: 'Bench-Password-1' } });
  const token = login.json().result.token as string;
  const headers = { authorization: `Bearer ${token}`, timezone: 'Europe/Paris' };

  /** p50 and p99 of GETs over real HTTP (each body read to the end). */
  async function timeGets(label: string, urls: string[]): Promise<void> {
    const samples: number[] = [];
    for (const url of urls) {
      const s = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}${url}`, { headers });
      const body = await res.text();
      samples.push(performance.now() - s);
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 300)}`);
    }
    samples.sort((a, b) => a - b);
    console.log(`lists: ${label}: p50 ${pct(samples, 50).toFixed(1)} ms, p99 ${pct(samples, 99).toFixed(1)} ms (${urls.length} pages of 50; bar p99 ≤ 50 ms) (${driver})`);
  }
  const random = (n: number) => 1 + Math.floor(Math.random() * n);
  const times = <T>(n: number, f: (k: number) => T): T[] => Array.from({ length: n }, (_, k) => f(k));

  const pagesToo = process.env.BENCH_LISTS !== 'export';
  if (pagesToo) {
  // Audit log: keyset pages at random depths, newest first; a filtered first page.
  await timeGets('audit-log, keyset page at a random depth', times(SAMPLES, () => {
    const i = random(auditRows);
    return `/api/admin/audit-log?limit=50&cursor=${cursorOf(new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), i)}`;
  }));
  await timeGets('audit-log, filtered by resource + date range, first page', times(SAMPLES / 2, (k) => `/api/admin/audit-log?limit=50&resource=res${k % 30}&createdAt_from=2026-01-03`));

  // Users: the sample rows give real cursor values for each sort.
  const sample = await queryRows<{ id: string | number; username: string; email: string; created_at: string; status: string; country: string }>(db, sql`
    select id, username, email, created_at, status, country from users where id = any(${`{${times(SAMPLES, () => random(stats.users)).join(',')}}`}::bigint[])`);
  const u = (k: number) => sample[k % sample.length]!;
  await timeGets('users, first page (newest first)', times(SAMPLES / 2, () => '/api/admin/users?limit=50'));
  await timeGets('users, keyset page at a random depth (newest first)', times(SAMPLES, (k) => `/api/admin/users?limit=50&cursor=${cursorOf(iso(u(k).created_at), u(k).id)}`));
  await timeGets('users, keyset page at a random depth, sorted by username', times(SAMPLES, (k) => `/api/admin/users?limit=50&sort=username&cursor=${cursorOf(u(k).username, u(k).id)}`));
  await timeGets('users, keyset page at a random depth, sorted by email descending', times(SAMPLES, (k) => `/api/admin/users?limit=50&sort=-email&cursor=${cursorOf(u(k).email, u(k).id)}`));
  await timeGets('users, filter status=blocked, keyset page at a random depth', times(SAMPLES, (k) => `/api/admin/users?limit=50&status=blocked&cursor=${cursorOf(iso(u(k).created_at), u(k).id)}`));
  await timeGets('users, filter country + signup date range, first page', times(SAMPLES / 2, (k) => `/api/admin/users?limit=50&country=${u(k).country}&createdAt_from=2024-06-01&createdAt_to=2025-06-30`));
  await timeGets('users, filter country, sorted by username, first page', times(SAMPLES / 2, (k) => `/api/admin/users?limit=50&country=${u(k).country}&sort=username`));
  await timeGets('users, search matching one user (part of a username)', times(SAMPLES / 2, (k) => `/api/admin/users?limit=50&q=${encodeURIComponent(u(k).username.slice(1))}`));
  await timeGets('users, search matching thousands (a name), first page', times(SAMPLES / 2, (k) => `/api/admin/users?limit=50&q=${u(k).username.split('_')[0]}`));
  await timeGets('users, exact email filter', times(SAMPLES / 2, (k) => `/api/admin/users?limit=50&email=${encodeURIComponent(u(k).email.toUpperCase())}`));

  // Ledger-backed lists.
  await timeGets('deposits, keyset page at a random depth', times(SAMPLES, (k) => `/api/admin/deposits?limit=50&cursor=${cursorOf(new Date(Date.parse(iso(u(k).created_at)) + 3_600_000).toISOString(), u(k).id)}`));
  await timeGets('deposits, filter status=pending, first page', times(SAMPLES / 2, () => '/api/admin/deposits?limit=50&status=pending'));
  await timeGets("deposits of one user (the user page's tab)", times(SAMPLES / 2, (k) => `/api/admin/deposits?limit=50&userId=${u(k).id}`));
  await timeGets('withdrawals, filter status=requested, keyset page at a random depth', times(SAMPLES, (k) => `/api/admin/withdrawals?limit=50&status=requested&cursor=${cursorOf(new Date(Date.parse(iso(u(k).created_at)) + 7_200_000).toISOString(), u(k).id)}`));

  }

  // Streamed exports over real HTTP; server memory sampled while each runs.
  for (const [resource, rows] of [['audit-log', auditRows], ['users', stats.users]] as const) {
    // The client is curl in its own process, so the figure is the server's alone.
    const curl = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download}', '-H', `authorization: Bearer ${token}`, '-H', 'timezone: Europe/Paris', `http://127.0.0.1:${port}/api/admin/${resource}/export`]);
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.on('error', reject);
        child.on('close', () => resolve(text));
      });
    // Timed without the memory probe (its forced collections stop the server: ~0.1 s a second
    // with this database in the process), then again with it for the memory figures.
    global.gc?.();
    t = performance.now();
    const out = await curl();
    const firstSecs = (performance.now() - t) / 1000;
    // Timed again: the first export after the bulk load pays a one-time cost that stays in the data
    // (a later process on the same folder does not pay it): at 1 M users on PGlite it ran 1.7× slower.
    global.gc?.();
    t = performance.now();
    await curl();
    const secs = (performance.now() - t) / 1000;
    global.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const rss0 = process.memoryUsage().rss;
    let peakHeap = heap0;
    let peakRss = rss0;
    // Retained memory: collect, then read the heap, every second while the export runs (each forced collection stops the server meanwhile, so it is not done more often).
    const timer = setInterval(() => {
      global.gc?.();
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed);
      peakRss = Math.max(peakRss, m.rss);
    }, 1000);
    const probed = performance.now();
    await curl();
    const probedSecs = (performance.now() - probed) / 1000;
    clearInterval(timer);
    const [status, size] = out.split(' ');
    if (status !== '200') throw new Error(`${resource} export: HTTP ${status}`);
    // The reference, in the same minute: the database's own CSV of the same table and order
    // (`COPY … TO STDOUT`, every column as stored, nothing formatted), read to the end by Node.
    const bare = await bareCopySeconds(db, resource === 'users' ? 'users' : 'audit_log');
    // For users, a second reference: the same rows the export reads (each user with its accounts),
    // as the database's bare COPY of one join it plans itself, nothing formatted: what reading them
    // costs the database. (Two bare scans, users then accounts, take about half of it on PGlite, but
    // an export in the list's order cannot keep every account in memory to join them.)
    const bareJoined = resource === 'users' ? await bareCopySeconds(db, 'users', USERS_WITH_ACCOUNTS) : null;
    console.log(
      `export: ${resource}, ${rows.toLocaleString('en-US')} rows streamed in ${secs.toFixed(1)} s = ${Math.round(rows / secs).toLocaleString('en-US')} rows/s ` +
        `(the first after the data load: ${firstSecs.toFixed(1)} s = ${Math.round(rows / firstSecs).toLocaleString('en-US')} rows/s), ${(Number(size) / 1e6).toFixed(0)} MB ` +
        `(bar ≥ 200,000)${bare ? `, ${((bare / secs) * 100).toFixed(0)} % of the database's bare COPY of the table (${Math.round(rows / bare).toLocaleString('en-US')} rows/s)` : ''}, ` +
        `${bareJoined ? `${((bareJoined / secs) * 100).toFixed(0)} % of its bare COPY of the users with their accounts (${Math.round(rows / bareJoined).toLocaleString('en-US')} rows/s), ` : ''}` +
        `retained heap growth ${((peakHeap - heap0) / 1e6).toFixed(0)} MB, RSS growth ${((peakRss - rss0) / 1e6).toFixed(0)} MB (bar < 100 MB; measured in a second export, ${probedSecs.toFixed(1)} s with the probe) (${driver})`,
    );
    if (process.env.BENCH_EXPORT_DIRECT) {
      // The export function alone (no HTTP), twice (the second warm), with the process's CPU time:
      // on PGlite the database's work is in it too.
      const def = (resource === 'users' ? usersDef : auditLogDef) as ResourceDef;
      for (const run of ['cold', 'warm']) {
        const cpu0 = process.cpuUsage();
        const d0 = performance.now();
        let n = 0;
        for await (const chunk of exportCsv(def, db, { page: 1, limit: 5000, sort: def.spec.defaultSort } as unknown as ListQuery, 'Europe/Paris', (r) => r)) n += chunk.length;
        const s = (performance.now() - d0) / 1000;
        const cpu = process.cpuUsage(cpu0);
        console.log(`export: ${resource}, the export function without HTTP (${run}): ${s.toFixed(2)} s = ${Math.round(rows / s).toLocaleString('en-US')} rows/s, process CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s, ${(n / 1e6).toFixed(0)} MB (${driver})`);
      }
    }
  }
  await app.close();
  mailer.close();
  await database.close();
}

/** Every user with its accounts (`coin,bucket,balance;…`), as one relation for `bareCopySeconds`. */
const USERS_WITH_ACCOUNTS = `(select u.*, b.cell from users u left join (
  select user_id, string_agg(coin_id || ',' || bucket || ',' || balance, ';') as cell from ledger_accounts where user_id is not null group by user_id
) b on b.user_id = u.id) as t`;

/**
 * Seconds for `COPY (SELECT * FROM table ORDER BY created_at DESC, id DESC) TO STDOUT (FORMAT csv)`
 * read by Node: on PostgreSQL through a pooled connection, on PGlite from its raw protocol messages
 * in this process (as the export reads each batch), the bytes counted and dropped.
 */
async function bareCopySeconds(db: Db, table: 'users' | 'audit_log', from: string = table): Promise<number | null> {
  const select = `copy (select * from ${from} order by created_at desc, id desc) to stdout with (format csv)`;
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof PGlite) {
    const t = performance.now();
    let bytes = 0;
    await client.runExclusive(() => client.execProtocolRawStream(queryMessage(select), { syncToFs: false, onRawData: (data) => (bytes += data.length) }));
    return bytes === 0 ? null : (performance.now() - t) / 1000;
  }
  if (!(client instanceof pg.Pool)) return null;
  const conn = await client.connect();
  try {
    const t = performance.now();
    const stream = conn.query(copyTo(select));
    let bytes = 0;
    for await (const chunk of stream) bytes += (chunk as Buffer).length;
    if (bytes === 0) return null;
    return (performance.now() - t) / 1000;
  } finally {
    conn.release();
  }
}
