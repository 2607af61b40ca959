import { randomBytes, randomUUID } from 'node:crypto';
import bs58 from 'bs58';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { adminActor, type Actor } from '../src/context.js';
import { queryRows, type Db, type DbOrTx } from '../src/db/client.js';
import * as schema from '../src/db/schema.js';
import { admins, auditLog, siteSettings } from '../src/db/schema.js';
import { coinBySymbol, createCoin, type CoinInput } from '../src/modules/coins/service.js';
import type { CoinRow } from '../src/modules/coins/table.js';
import { confirmDeposit, recordDeposit } from '../src/modules/deposits/service.js';
import { checkLedgerInvariants } from '../src/modules/ledger/invariants.js';
import { createUser, type CreateUserInput } from '../src/modules/users/service.js';
import type { UserRow } from '../src/modules/users/table.js';
import { call, SUPER_EMAIL, startTestServer, superLogin, type CallOptions, type StartOptions, type TestServer } from './helpers.js';

/**
 * Asserts the books are healthy: every transaction sums to zero per coin, no negative user
 * balance, every materialised balance equals its postings, and deposits/withdrawals/top-ups agree
 * with their ledger entries. Call it in afterAll of any test file that moves money:
 *   afterAll(async () => { await expectLedgerHealthy(s.database.db); await s.close(); });
 */
export async function expectLedgerHealthy(db: DbOrTx): Promise<void> {
  expect(await checkLedgerInvariants(db)).toEqual([]);
}

export const randomAddress = () => bs58.encode(randomBytes(32));
export const randomSignature = () => bs58.encode(randomBytes(64));
let seq = 0;
const unique = () => `${Date.now().toString(36)}${(++seq).toString(36)}${randomBytes(2).toString('hex')}`;

export interface MoneyFixture {
  s: TestServer;
  db: Db;
  /** The bootstrap super admin, acting from 203.0.113.5. */
  admin: Actor & { kind: 'admin' };
  /** A second admin (a sub-admin row), for "two admins at once". */
  admin2: Actor & { kind: 'admin' };
  platform: Actor;
  system: Actor;
}

export async function startMoney(opts: Parameters<typeof startTestServer>[1] = {}): Promise<MoneyFixture> {
  const s = await startTestServer({}, opts);
  const db = s.database.db;
  const [root] = await db.select().from(admins).where(eq(admins.email, SUPER_EMAIL));
  const [second] = await db
    .insert(admins)
    .values({ name: 'Finance Two', email: `finance-${unique()}@pitboss.test`, passwordHash: 'not-a-hash', role: 'subadmin', createdBy: root!.id })
    .returning();
  return {
    s,
    db,
    admin: adminActor(root!, '203.0.113.5'),
    admin2: adminActor(second!, '203.0.113.6'),
    platform: { kind: 'platform', ip: PLATFORM_IP },
    system: { kind: 'system', job: 'test' },
  };
}

/** What a money test file gets: its fixture, the fixture's server, a super admin's token, the USDC coin's id. */
export interface MoneyFile {
  f: MoneyFixture;
  s: TestServer;
  token: string;
  usdc: number;
}

export interface MoneyFileOptions {
  /** The server accepts this key on the platform API (`PLATFORM_API_KEY`); the fixture acts as the super admin. */
  platformKey?: string;
  /** More server environment (with `platformKey`). */
  env?: Record<string, string>;
  /** Trading fees set before the tests. */
  fees?: { takerFeeBps: number; makerFeeBps: number };
  onQuery?: StartOptions['onQuery'];
}

/**
 * A test file's money fixture: started before its tests, and after them its server closed, which
 * checks the ledger (postings balanced, no negative balance, holds matched). `set` hands it to the
 * file's own variables.
 */
export function moneyFile(set: (file: MoneyFile) => void, opts: MoneyFileOptions = {}): void {
  let fixture: MoneyFixture | undefined;
  beforeAll(async () => {
    const f = opts.platformKey ? await startPlatformMoney(opts.platformKey, opts.env) : await startMoney(opts.onQuery ? { onQuery: opts.onQuery } : {});
    fixture = f;
    if (opts.fees) await setSiteSettings(f.db, opts.fees);
    set({ f, s: f.s, token: await superLogin(f.s), usdc: (await coinBySymbol(f.db, 'USDC'))!.id });
  }, 120_000);
  afterAll(async () => fixture?.s.close());
}

/** A fresh platform API key, for `startPlatformMoney` (the server's `PLATFORM_API_KEY`). */
export const newPlatformKey = () => `pk_${randomBytes(24).toString('hex')}`;
/** The address platform calls come from (and the platform actor's). */
export const PLATFORM_IP = '198.51.100.7';

/**
 * The money fixture on a server that accepts `apiKey` on the platform API, acting as the bootstrap
 * super admin (from 203.0.113.5; `admin2` is the same admin).
 */
export async function startPlatformMoney(apiKey: string, env: Record<string, string> = {}): Promise<MoneyFixture> {
  const s = await startTestServer({ PLATFORM_API_KEY: apiKey, ...env });
  const db = s.database.db;
  const [root] = await db.select().from(admins).where(eq(admins.email, SUPER_EMAIL));
  const admin = adminActor(root!, '203.0.113.5');
  return { s, db, admin, admin2: admin, platform: { kind: 'platform', ip: PLATFORM_IP }, system: { kind: 'system', job: 'test' } };
}

export interface PlatformCallOptions {
  body?: unknown;
  /** The Idempotency-Key; a fresh one on a write when not given; null: none. */
  key?: string | null;
  /** The bearer token; the API key when not given; null: none. */
  token?: string | null;
  ip?: string;
  headers?: Record<string, string>;
}

/** A platform API call (`/api/platform/v1/<path>`) as the platform makes it: the API key, from `PLATFORM_IP`, a fresh Idempotency-Key on every write. */
export function platformCall(s: TestServer, apiKey: string, method: string, path: string, opts: PlatformCallOptions = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? (method === 'GET' ? null : randomUUID()) : opts.key;
  if (key !== null) headers['idempotency-key'] = key;
  const o: CallOptions = { headers, token: opts.token === undefined ? apiKey : opts.token, ip: opts.ip ?? PLATFORM_IP };
  if (opts.body !== undefined) o.body = opts.body;
  return call(s, method, `/api/platform/v1/${path}`, o);
}

export function makeUser(f: MoneyFixture, input: Partial<CreateUserInput> = {}): Promise<UserRow> {
  const u = unique();
  return f.db.transaction((tx) => createUser(tx, f.admin, { username: `user_${u}`, email: `u${u}@players.test`, country: 'DE', signupIp: '198.51.100.20', ...input }));
}

let coinSeq = 0;
export function makeCoin(f: MoneyFixture, input: Partial<CoinInput> = {}): Promise<CoinRow> {
  const symbol = `C${(++coinSeq).toString(36).toUpperCase()}${randomBytes(2).toString('hex').toUpperCase()}`.slice(0, 10);
  return f.db.transaction((tx) =>
    createCoin(tx, f.admin, { symbol, name: `Coin ${symbol}`, decimals: 6, mintAddress: randomAddress(), minWithdrawal: 1_000n, withdrawalFee: 100n, ...input }),
  );
}

/** Credits a user through a confirmed deposit (the only way coins enter without an adjustment). */
export async function fund(f: MoneyFixture, userId: number, coinId: number, amount: bigint): Promise<void> {
  await f.db.transaction(async (tx) => {
    const d = await recordDeposit(tx, f.platform, { userId, coin: coinId, amount, txSignature: randomSignature(), fromAddress: randomAddress() });
    await confirmDeposit(tx, f.admin, d.id);
  });
}

export async function setSiteSettings(db: Db, patch: Partial<typeof siteSettings.$inferInsert>): Promise<void> {
  await db.update(siteSettings).set(patch).where(eq(siteSettings.id, 1));
}

const MONEY_TABLES = ['users', 'coins', 'ledger_accounts', 'ledger_transactions', 'ledger_postings', 'deposits', 'withdrawals', 'fiat_payments', 'audit_log'] as const;

/**
 * Everything a refused call must leave as it was: row counts of the money tables and the audit
 * log, every account balance, every record's status.
 */
export async function snapshot(db: Db) {
  const counts: Record<string, number> = {};
  for (const t of MONEY_TABLES) {
    const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(t)}`);
    counts[t] = row!.n;
  }
  const balances = await db.select({ id: schema.ledgerAccounts.id, balance: schema.ledgerAccounts.balance }).from(schema.ledgerAccounts).orderBy(schema.ledgerAccounts.id);
  const statuses = {
    users: await db.select({ id: schema.users.id, status: schema.users.status }).from(schema.users).orderBy(schema.users.id),
    deposits: await db.select({ id: schema.deposits.id, status: schema.deposits.status }).from(schema.deposits).orderBy(schema.deposits.id),
    withdrawals: await db.select({ id: schema.withdrawals.id, status: schema.withdrawals.status }).from(schema.withdrawals).orderBy(schema.withdrawals.id),
    fiat: await db.select({ id: schema.fiatPayments.id, status: schema.fiatPayments.status }).from(schema.fiatPayments).orderBy(schema.fiatPayments.id),
  };
  return { counts, balances, statuses };
}

/** Runs `fn` in a transaction, expects it to throw an AppError with `status` (and message), and the books to be unchanged. */
export async function expectRefused(
  f: MoneyFixture,
  fn: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<unknown>,
  expected: { status: number; message?: string | RegExp; errors?: Record<string, unknown> },
): Promise<void> {
  const before = await snapshot(f.db);
  const err = await f.db.transaction(fn).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'expected the call to be refused').not.toBeNull();
  const e = err as { status?: number; message?: string; errors?: Record<string, string> };
  expect({ status: e.status, message: e.message }).toMatchObject({
    status: expected.status,
    ...(expected.message === undefined ? {} : { message: expected.message instanceof RegExp ? expect.stringMatching(expected.message) : expected.message }),
  });
  if (expected.errors) expect(e.errors).toMatchObject(expected.errors);
  expect(await snapshot(f.db)).toEqual(before);
}

/** The latest audit entries of a resource and record. */
export async function auditOf(db: Db, resource: string, recordId: number | string) {
  return db
    .select()
    .from(auditLog)
    .where(sql`${auditLog.resource} = ${resource} and ${auditLog.recordId} = ${String(recordId)}`)
    .orderBy(auditLog.id);
}

export const auditCount = async (db: Db) => Number((await db.select({ n: count() }).from(auditLog))[0]!.n);
