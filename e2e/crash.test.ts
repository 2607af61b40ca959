import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bs58 from 'bs58';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, SERVER_MAIN } from './harness';

/*
 * Crash safety: the built server as a child process takes writes through its API (platform users
 * and deposits with an Idempotency-Key, admins confirming deposits and creating tags), is killed
 * with SIGKILL at a random moment while they are in flight, and is started again on the same data,
 * KILLS times in a row. After every restart: the database opens (the server becomes ready), the
 * admin's session still works, every write the API acknowledged (a 2xx received) is there as it
 * was answered, and each platform write left without an answer, sent again with its key, is either
 * replayed (it had committed) or done now, never twice. At the end the server stops cleanly and the
 * database, opened by the test, holds exactly the acknowledged deposits and balanced ledger postings.
 *
 * PGlite (the embedded data folder) always; PostgreSQL when TEST_DATABASE_URL is set.
 */
const KILLS = Number(process.env.CRASH_KILLS ?? 10);
const WRITERS = 4;
const ADMIN_EMAIL = 'crash@pitboss.test';
const ADMIN_PASSWORD = 'Crash-Test-Strong#2026';
const KEY = `pk_${randomBytes(24).toString('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tempDirs: string[] = [];
afterAll(() => {
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

interface Server {
  child: ChildProcess;
  base: string;
  output: () => string;
}

async function start(env: Record<string, string>, port: number, readyWithinMs = 60_000): Promise<Server> {
  let out = '';
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_MODE: 'production',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PLATFORM_API_KEY: KEY,
      TOTP_ENCRYPTION_KEY: 'a'.repeat(64),
      LOG_LEVEL: 'warn',
      DEMO_SIMULATOR: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyWithinMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before it was ready:\n${out}`);
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) return { child, base, output: () => out };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`the server was not ready within ${readyWithinMs / 1000} s:\n${out}`);
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

type Answer = { status: number; body: { success: boolean; message: string; result?: Record<string, unknown> } ; replayed: boolean };

async function send(base: string, method: string, url: string, opts: { body?: unknown; token?: string; key?: string }): Promise<Answer> {
  const headers: Record<string, string> = { timezone: 'UTC' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.key) headers['idempotency-key'] = opts.key;
  const res = await fetch(`${base}${url}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body), signal: AbortSignal.timeout(20_000) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : { success: false, message: '' }, replayed: res.headers.get('idempotent-replayed') === 'true' };
}

/** What the API acknowledged (a 2xx came back), and the platform writes sent without an answer. */
interface Ledger {
  users: Map<string, { key: string; body: unknown }>;
  deposits: Map<string, { userId: string; amount: bigint; confirmed: boolean; key: string; body: unknown }>;
  tags: Map<string, string>;
  unanswered: { url: string; key: string; body: unknown }[];
}

/** One writer: a user, a deposit for them, its confirmation, a tag; again and again until the server dies. */
async function writer(base: string, token: string, seen: Ledger, n: number, alive: () => boolean): Promise<void> {
  let userId: string | null = null;
  for (let i = 0; alive(); i++) {
    const tag = `${n}${i}${randomBytes(4).toString('hex')}`;
    try {
      if (!userId || i % 3 === 0) {
        const key = randomUUID();
        const body = { username: `crash_${tag}`, email: `crash_${tag}@pitboss.test` };
        const pending = { url: '/api/platform/v1/users', key, body };
        seen.unanswered.push(pending);
        const u = await send(base, 'POST', '/api/platform/v1/users', { token: KEY, key, body });
        seen.unanswered.splice(seen.unanswered.indexOf(pending), 1);
        expect(u.status, JSON.stringify(u.body)).toBe(200);
        userId = String(u.body.result!._id);
        seen.users.set(userId, { key, body });
      }
      const key = randomUUID();
      const amount = BigInt(1_000_000 + Math.floor(Math.random() * 9_000_000));
      const body = { userId, coin: 'USDC', amount: String(amount), txSignature: bs58.encode(randomBytes(64)), fromAddress: bs58.encode(randomBytes(32)) };
      const entry = { url: '/api/platform/v1/deposits', key, body };
      seen.unanswered.push(entry);
      const d = await send(base, 'POST', '/api/platform/v1/deposits', { token: KEY, key, body });
      seen.unanswered.splice(seen.unanswered.indexOf(entry), 1);
      expect(d.status, JSON.stringify(d.body)).toBe(200);
      const depositId = String(d.body.result!._id);
      seen.deposits.set(depositId, { userId, amount, confirmed: false, key, body });
      const c = await send(base, 'POST', `/api/admin/deposits/${depositId}/confirm`, { token, body: {} });
      expect(c.status, JSON.stringify(c.body)).toBe(200);
      seen.deposits.get(depositId)!.confirmed = true;
      const t = await send(base, 'POST', '/api/admin/tags', { token, body: { name: `Crash ${tag}` } });
      expect(t.status, JSON.stringify(t.body)).toBe(200);
      seen.tags.set(String(t.body.result!._id), `Crash ${tag}`);
    } catch (err) {
      // A request cut by the kill fails with a network error: expected only once the server is gone.
      if (alive()) throw err;
      return;
    }
  }
}

/** Everything acknowledged is there as answered; unanswered platform writes, sent again, happen once. */
async function verify(base: string, token: string, seen: Ledger): Promise<void> {
  for (const u of seen.unanswered.splice(0)) {
    const again = await send(base, 'POST', u.url, { token: KEY, key: u.key, body: u.body });
    expect(again.status, `${u.url} sent again after the kill: ${JSON.stringify(again.body)}`).toBe(200);
    const id = String(again.body.result!._id);
    if (u.url.endsWith('/users')) seen.users.set(id, { key: u.key, body: u.body });
    else {
      const b = u.body as { userId: string; amount: string };
      seen.deposits.set(id, { userId: b.userId, amount: BigInt(b.amount), confirmed: again.body.result!.status === 'confirmed', key: u.key, body: u.body });
    }
  }
  // A replay of an acknowledged write gives the same record back (nothing done twice).
  const [someDeposit] = [...seen.deposits.entries()].slice(-1);
  if (someDeposit) {
    const replay = await send(base, 'POST', '/api/platform/v1/deposits', { token: KEY, key: someDeposit[1].key, body: someDeposit[1].body });
    expect(replay.replayed).toBe(true);
    expect(String(replay.body.result!._id)).toBe(someDeposit[0]);
  }
  const expected = new Map<string, bigint>();
  for (const [id, d] of seen.deposits) {
    const got = await send(base, 'GET', `/api/admin/deposits/${id}`, { token });
    expect(got.status, `deposit ${id}`).toBe(200);
    if (d.confirmed) expect(got.body.result!.status, `deposit ${id} was confirmed`).toBe('confirmed');
    // Confirmed by a request cut by the kill: it may have committed; the record says which.
    if (got.body.result!.status === 'confirmed') {
      d.confirmed = true;
      expected.set(d.userId, (expected.get(d.userId) ?? 0n) + d.amount);
    }
  }
  for (const [id, name] of seen.tags) {
    const got = await send(base, 'GET', `/api/admin/tags/${id}`, { token });
    expect(got.status, `tag ${id}`).toBe(200);
    expect(got.body.result!.name).toBe(name);
  }
  for (const userId of seen.users.keys()) {
    const got = await send(base, 'GET', `/api/platform/v1/users/${userId}/balances`, { token: KEY });
    expect(got.status, `user ${userId}`).toBe(200);
    const usdc = (got.body.result!.balances as { coin: string; available: string; held: string }[]).find((b) => b.coin === 'USDC');
    expect(BigInt(usdc?.available ?? '0'), `user ${userId}'s balance is their confirmed deposits`).toBe(expected.get(userId) ?? 0n);
  }
}

async function crashLoop(driver: 'pglite' | 'postgres', env: Record<string, string>, dbCheck: (seen: Ledger) => Promise<void>) {
  if (!existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run \`npm run build\` first.`);
  const port = await freePort();
  // The first start creates the database (every migration); a restart only opens it.
  let server = await start(env, port, 180_000);
  const started = Date.now();
  const login = await send(server.base, 'POST', '/api/admin/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  expect(login.status).toBe(200);
  const token = String(login.body.result!.token);
  const seen: Ledger = { users: new Map(), deposits: new Map(), tags: new Map(), unanswered: [] };
  try {
    for (let k = 1; k <= KILLS; k++) {
      let alive = true;
      const writers = Array.from({ length: WRITERS }, (_, n) => writer(server.base, token, seen, n, () => alive));
      // A random moment while the writes are in flight: once a few have been answered since the
      // restart (a slow machine answers the first ones later), then 0–500 ms on.
      const acked = seen.deposits.size;
      for (const t0 = Date.now(); seen.deposits.size < acked + 2 && Date.now() - t0 < 20_000; ) await sleep(20);
      await sleep(Math.floor(Math.random() * 500));
      const before = seen.deposits.size;
      alive = false;
      server.child.kill('SIGKILL');
      expect(await exited(server.child)).toEqual({ code: null, signal: 'SIGKILL' });
      await Promise.all(writers);
      server = await start(env, port);
      await verify(server.base, token, seen);
      expect(seen.deposits.size, `kill ${k}: writes were acknowledged before it`).toBeGreaterThanOrEqual(before);
      if (process.env.CRASH_VERBOSE) console.log(`${driver} kill ${k}: ${seen.deposits.size} deposits, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    // Writes went on between the kills.
    expect(seen.deposits.size).toBeGreaterThanOrEqual(2 * KILLS);
    expect([...seen.deposits.values()].some((d) => d.confirmed), "some deposits were confirmed: the ledger moved").toBe(true);
    const stopped = exited(server.child);
    server.child.kill('SIGTERM');
    expect(await stopped, server.output()).toEqual({ code: 0, signal: null });
    await dbCheck(seen);
  } finally {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  }
  console.log(`crash test (${driver}): ${KILLS} kills, ${seen.deposits.size} deposits, ${seen.users.size} users, ${seen.tags.size} tags in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The database opened by the test after the last clean stop: what was acknowledged, exactly, and a balanced ledger. */
async function checkDatabase(open: () => Promise<{ db: unknown; close: () => Promise<void> }>, seen: Ledger) {
  const database = await open();
  try {
    const { checkLedgerInvariants } = (await import(path.join(ROOT, 'apps/server/dist/modules/ledger/invariants.js'))) as { checkLedgerInvariants: (db: unknown) => Promise<{ rule: string; detail: string }[]> };
    const { queryRows } = (await import(path.join(ROOT, 'apps/server/dist/db/client.js'))) as { queryRows: <T>(db: unknown, q: unknown) => Promise<T[]> };
    const { sql } = await import('drizzle-orm');
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
    const [counts] = await queryRows<{ deposits: number; confirmed: number; users: number }>(
      database.db,
      sql`select (select count(*)::int from deposits) as deposits, (select count(*)::int from deposits where status = 'confirmed') as confirmed, (select count(*)::int from users) as users`,
    );
    expect(counts!.deposits, 'every deposit once: acknowledged or sent again with its key').toBe(seen.deposits.size);
    expect(counts!.confirmed).toBe([...seen.deposits.values()].filter((d) => d.confirmed).length);
    expect(counts!.users).toBe(seen.users.size);
  } finally {
    await database.close();
  }
}

const openWith = async (opts: { databaseUrl?: string; dataDir?: string }) => {
  const { openDatabase } = (await import(path.join(ROOT, 'apps/server/dist/db/client.js'))) as { openDatabase: (o: typeof opts) => Promise<{ db: unknown; close: () => Promise<void> }> };
  return openDatabase(opts);
};

describe('killed during writes, restarted on the same data', () => {
  it(`PGlite (embedded data folder): ${KILLS} kills, every acknowledged write kept`, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pitboss-crash-'));
    tempDirs.push(dir);
    await crashLoop('pglite', { DATA_DIR: dir }, (seen) => checkDatabase(() => openWith({ dataDir: path.join(dir, 'pglite') }), seen));
  }, 900_000);

  it.runIf(!!process.env.TEST_DATABASE_URL)(`PostgreSQL (TEST_DATABASE_URL): ${KILLS} kills, every acknowledged write kept`, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pitboss-crash-'));
    tempDirs.push(dir);
    const base = process.env.TEST_DATABASE_URL!;
    const name = `pitboss_crash_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const u = new URL(base);
    u.pathname = `/${name}`;
    try {
      await crashLoop('postgres', { DATA_DIR: dir, DATABASE_URL: u.toString() }, (seen) => checkDatabase(() => openWith({ databaseUrl: u.toString() }), seen));
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 900_000);
});
