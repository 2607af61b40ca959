// Order placement through the platform API, durable, on one market (issue 9, "Performance"):
// the real server in a child process, BENCH_ORDERS_CLIENTS concurrent HTTP clients (keep-alive)
// sending `POST /api/platform/v1/orders` with a fresh Idempotency-Key each, buy YES / buy NO around
// 50¢ (so many cross and mint), GTC and IOC. Throughput over the measured window, latency per
// request (send to last byte), then the database is checked: every accepted order is there, and the
// ledger invariants hold.
//
// PGlite by default (a temporary data folder); BENCH_DATABASE_URL=postgres://… for PostgreSQL (a
// database is created and dropped). BENCH_ORDERS (orders sent, default 20 000) and
// BENCH_ORDERS_CLIENTS (default 48) scale it.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import bs58 from 'bs58';
import { count, eq, inArray, sql } from 'drizzle-orm';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { adminActor, type Actor } from '../apps/server/src/context.js';
import { admins, orders } from '../apps/server/src/db/schema.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { createMailer } from '../apps/server/src/mail/mailer.js';
import { coinBySymbol } from '../apps/server/src/modules/coins/service.js';
import { confirmDeposit, recordDeposit } from '../apps/server/src/modules/deposits/service.js';
import { checkLedgerInvariants } from '../apps/server/src/modules/ledger/invariants.js';
import { LIVE_ORDER_STATUSES } from '../apps/server/src/modules/orders/table.js';
import { createUser } from '../apps/server/src/modules/users/service.js';
import { bootstrap } from '../apps/server/src/seed/bootstrap.js';
import { scratchPostgres } from './scratch-db.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const ORDERS = Number(process.env.BENCH_ORDERS ?? 20_000);
const CLIENTS = Number(process.env.BENCH_ORDERS_CLIENTS ?? 48);
const USERS = 200;
const WARMUP = 500;
const KEY = `pk_${randomBytes(24).toString('hex')}`;
const ADMIN = { email: 'bench@pitboss.test', password: 'Bench-Password-1' };


function pct(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export async function benchOrders(): Promise<void> {
  const base = process.env.BENCH_DATABASE_URL;
  let databaseUrl: string | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pitboss-bench-orders-'));
  let drop: () => Promise<void> = async () => undefined;
  if (base) {
    const scratch = await scratchPostgres(base);
    databaseUrl = scratch.databaseUrl;
    drop = scratch.drop;
  }
  try {
    await run(databaseUrl, dataDir);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await drop();
  }
}

async function setUp(databaseUrl: string | undefined, dataDir: string): Promise<{ ticker: string; users: number[] }> {
  const config = loadConfig({ APP_MODE: 'production', TOTP_ENCRYPTION_KEY: 'ab'.repeat(32), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'silent', PLATFORM_API_KEY: KEY } as NodeJS.ProcessEnv);
  const database = await openDatabase({ databaseUrl, dataDir: path.join(dataDir, 'pglite') });
  await bootstrap(database.db, config);
  const mailer = createMailer({ db: database.db, smtpUrl: undefined, from: config.mailFrom, log: pino({ level: 'silent' }) });
  const { app } = await buildApp({ config, db: database.db, mailer }, { logger: false });
  await app.ready();
  const inject = async (method: 'POST', url: string, body: unknown, token?: string) => {
    const res = await app.inject({ method, url, payload: body as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json().result;
  };
  const token = (await inject('POST', '/api/admin/login', ADMIN)).token as string;
  const iso = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
  const ev = await inject('POST', '/api/admin/events', { ticker: 'KXBENCH-E1', title: 'Bench event', openTime: iso(-1), closeTime: iso(48), expectedResolutionTime: iso(50) }, token);
  await inject('POST', `/api/admin/events/${ev._id}/open`, {}, token);
  const m = await inject('POST', '/api/admin/markets', { eventId: ev._id, ticker: 'KXBENCH-M1', title: 'Bench market?', rules: 'Resolves YES if it happens.' }, token);
  await inject('POST', `/api/admin/markets/${m._id}/open`, {}, token);
  const db = database.db;
  const [root] = await db.select().from(admins).where(eq(admins.email, ADMIN.email));
  const admin = adminActor(root!, '127.0.0.1');
  const platform: Actor = { kind: 'platform', ip: '127.0.0.1' };
  const usdc = (await coinBySymbol(db, 'USDC'))!;
  const users: number[] = [];
  for (let i = 0; i < USERS; i++) {
    const u = await db.transaction((tx) => createUser(tx, admin, { username: `bench_${i}`, email: `bench${i}@players.test`, country: 'DE', signupIp: '127.0.0.1' }));
    await db.transaction(async (tx) => {
      const d = await recordDeposit(tx, platform, { userId: u.id, coin: usdc.id, amount: 10n ** BigInt(usdc.decimals) * 100_000n, txSignature: bs58.encode(randomBytes(64)), fromAddress: bs58.encode(randomBytes(32)) });
      await confirmDeposit(tx, admin, d.id);
    });
    users.push(u.id);
  }
  if (process.env.BENCH_ORDERS_NO_BALANCE_TRIGGERS) {
    // Diagnosis only (printed in the header): how much of a group's commit the ledger's checks cost
    // (the postings' statement-level check and the deferred one per new ledger transaction).
    await database.db.execute(sql`alter table ledger_postings disable trigger ledger_postings_checked`);
    await database.db.execute(sql`alter table ledger_transactions disable trigger ledger_transactions_balanced`);
  }
  await app.close();
  mailer.close();
  await database.close();
  return { ticker: m.ticker as string, users };
}

/** CPU time (user + system, ms) of these processes so far, from /proc (Linux; 0 elsewhere or when a process is gone). */
function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // not Linux, or the process ended
    }
  }
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

/** The PostgreSQL backends serving the bench's database (their CPU is the database's share per order). */
async function backendPids(databaseUrl: string | undefined): Promise<number[]> {
  if (!databaseUrl) return [];
  const database = await openDatabase({ databaseUrl, dataDir: '' });
  try {
    const rows = (await database.db.execute(sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`)) as unknown as { rows: { pid: number }[] };
    return rows.rows.map((r) => Number(r.pid));
  } finally {
    await database.close();
  }
}

function startServer(databaseUrl: string | undefined, dataDir: string, port: number, script = 'apps/server/src/main.ts'): Promise<{ pid: number; stop: () => Promise<void> }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, APP_MODE: 'production', TOTP_ENCRYPTION_KEY: 'ab'.repeat(32), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn', PLATFORM_API_KEY: KEY,
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const prof = process.env.BENCH_ORDERS_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_ORDERS_CPU_PROF}`] : [];
  const flags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...prof, ...flags, '--import', 'tsx', path.join(ROOT, script)], { env, stdio: ['ignore', 'pipe', 'inherit'], cwd: ROOT });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Ready in')) resolve({ pid: child.pid!, stop: () => new Promise((r) => { child.on('exit', () => r()); child.kill('SIGTERM'); }) });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

interface Sent { status: number; ms: number; id: string | null }

function post(agent: http.Agent, port: number, body: string): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const req = http.request(
      { agent, host: '127.0.0.1', port, method: 'POST', path: '/api/platform/v1/orders', headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'idempotency-key': randomUUID(), 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (data += c));
        res.on('end', () => {
          const ms = performance.now() - t;
          let id: string | null = null;
          if (res.statusCode === 200) id = (JSON.parse(data) as { result: { _id: string } }).result._id;
          resolve({ status: res.statusCode ?? 0, ms, id });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

interface Measured { rate: number; p50: number; p99: number; max: number; cpu: string; statuses: Map<number, number>; accepted: string[] }

/** WARMUP then ORDERS requests from CLIENTS keep-alive clients against a server on `port`: throughput, latency, CPU per order. */
async function measure(port: number, serverPid: number, databaseUrl: string | undefined, users: number[], ticker: string): Promise<Measured> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  let seq = 0;
  const body = () => {
    const i = seq++;
    const yes = i % 2 === 0;
    const price = 45 + ((i * 7) % 11);
    return JSON.stringify({ userId: String(users[(i * 13) % users.length]), market: ticker, outcome: yes ? 'YES' : 'NO', side: 'buy', price, quantity: 1 + (i % 5), timeInForce: i % 5 === 4 ? 'IOC' : 'GTC' });
  };
  const statuses = new Map<number, number>();
  const accepted: string[] = [];
  async function load(n: number, lat: number[] | null): Promise<number> {
    let left = n;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (left > 0) {
          left--;
          const r = await post(agent, port, body());
          if (lat) lat.push(r.ms);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (r.id !== null) accepted.push(r.id);
        }
      }),
    );
    return performance.now() - t0;
  }
  try {
    await load(WARMUP, null);
    const pgPids = await backendPids(databaseUrl);
    const cpu0 = { server: cpuMs([serverPid]), pg: cpuMs(pgPids), self: process.cpuUsage() };
    const lat: number[] = [];
    const ms = await load(ORDERS, lat);
    const self = process.cpuUsage(cpu0.self);
    const per = (x: number) => ((x / ORDERS) * 1000).toFixed(0);
    const cpu =
      `server ${per(cpuMs([serverPid]) - cpu0.server)} µs, PostgreSQL backends ${databaseUrl ? `${per(cpuMs(pgPids) - cpu0.pg)} µs (${pgPids.length} connections)` : 'n/a (PGlite runs in the server)'}, ` +
      `bench client ${per((self.user + self.system) / 1000)} µs; wall ${(ms / 1000).toFixed(1)} s on ${os.cpus().length} cores (load average ${os.loadavg()[0]!.toFixed(1)})`;
    const sorted = Float64Array.from(lat).sort();
    return { rate: ORDERS / (ms / 1000), p50: pct(sorted, 0.5), p99: pct(sorted, 0.99), max: sorted[sorted.length - 1]!, cpu, statuses, accepted };
  } finally {
    agent.destroy();
  }
}

const line = (m: Measured) => `${Math.round(m.rate)} orders/s; latency p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms, max ${m.max.toFixed(1)} ms`;

async function run(databaseUrl: string | undefined, dataDir: string): Promise<void> {
  const driver = databaseUrl ? 'PostgreSQL' : 'PGlite';
  console.log(`== orders: platform API, one market, ${driver}; ${ORDERS} orders from ${CLIENTS} concurrent clients (keep-alive), ${USERS} users`);
  if (process.env.BENCH_ORDERS_NO_BALANCE_TRIGGERS) console.log('DIAGNOSIS RUN: the deferred ledger balance triggers are disabled (not a valid figure)');
  const { ticker, users } = await setUp(databaseUrl, dataDir);
  const port = 4800 + Math.floor(Math.random() * 400);
  // The bare reference first (PostgreSQL only: it is a plain node-postgres client), on the same
  // database, clients and requests: what the machine allows for durable HTTP intake at all.
  let bare: Measured | null = null;
  if (databaseUrl) {
    const ref = await startServer(databaseUrl, dataDir, port + 400, 'bench/orders-bare-server.ts');
    try {
      bare = await measure(port + 400, ref.pid, databaseUrl, users, ticker);
    } finally {
      await ref.stop();
    }
    console.log(`bare reference (node:http + one INSERT per group, bench/orders-bare-server.ts): ${line(bare)}; cpu per order: ${bare.cpu}`);
  }
  const server = await startServer(databaseUrl, dataDir, port);
  let m: Measured;
  try {
    m = await measure(port, server.pid, databaseUrl, users, ticker);
  } finally {
    await server.stop();
  }
  const accepted = m.accepted;
  console.log(`cpu per order: ${m.cpu}`);
  console.log(`statuses: ${[...m.statuses].map(([s, n]) => `${s}: ${n}`).join(', ')} (warm-up of ${WARMUP} included)`);
  console.log(`orders: ${line(m)}${bare ? ` (${Math.round((100 * m.rate) / bare.rate)} % of the bare reference's rate)` : ''}`);
  const ok = m.rate >= 5000 && m.p99 <= 10;
  console.log(`bars (>= 5,000 orders/s, p99 <= 10 ms): ${ok ? 'met' : 'NOT MET'}`);
  // Durable: every accepted order is in the database, and the ledger is consistent.
  const database = await openDatabase({ databaseUrl, dataDir: path.join(dataDir, 'pglite') });
  try {
    const ids = accepted.map(Number);
    let found = 0;
    for (let i = 0; i < ids.length; i += 5000) found += Number((await database.db.select({ n: count() }).from(orders).where(inArray(orders.id, ids.slice(i, i + 5000))))[0]!.n);
    const live = Number((await database.db.select({ n: count() }).from(orders).where(inArray(orders.status, [...LIVE_ORDER_STATUSES])))[0]!.n);
    const violations = await checkLedgerInvariants(database.db);
    console.log(`check: ${found} of ${ids.length} accepted orders in the database (${live} resting); ledger invariants: ${violations.length === 0 ? 'hold' : `BROKEN: ${violations.map((v) => v.rule).join(', ')}`}`);
    if (found !== ids.length || violations.length) process.exitCode = 1;
  } finally {
    await database.close();
  }
}
