import { randomUUID } from 'node:crypto';
import {
  ENDPOINTS, platformBalances, platformDepositRecord, platformEnvelope, platformFiatPaymentRecord, platformUserRecord, platformWithdrawalRecord,
} from '@pitboss/contract';
import { and, count, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { auditLog, deposits, fiatPayments, idempotencyKeys, users, withdrawals } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { balanceOf } from '../ledger/service.js';
import { purgeExpiredIdempotencyKeys, runIdempotent } from './idempotency.js';
import { call, startTestServer, } from '../../../test/helpers.js';
import { fund, makeCoin, makeUser, newPlatformKey, platformCall, randomAddress, randomSignature, snapshot, type MoneyFixture, type PlatformCallOptions, moneyFile } from '../../../test/money-helpers.js';

/**
 * The platform API (`/api/platform/v1/*`): its bearer key, each route's answer and validation,
 * and idempotency (replays, another body, a refused withdrawal replayed, and on PostgreSQL twenty
 * identical requests at once). The books must be healthy after the file.
 */
const KEY = newPlatformKey();
const BASE = '/api/platform/v1';
let f: MoneyFixture;
let adminToken: string;

moneyFile((m) => ({ f, token: adminToken } = m), { platformKey: KEY });

const platform = (method: 'GET' | 'POST', path: string, opts: PlatformCallOptions = {}) => platformCall(f.s, KEY, method, path, opts);

const countOf = async (table: typeof users | typeof deposits | typeof withdrawals | typeof fiatPayments | typeof auditLog) =>
  Number((await f.db.select({ n: count() }).from(table))[0]!.n);
let seq = 0;
const uniq = () => `${Date.now().toString(36)}${(++seq).toString(36)}`;
const newUserBody = () => ({ username: `pl_${uniq()}`, email: `pl${uniq()}@players.test`, country: 'fr', walletAddress: randomAddress() });

describe('authentication', () => {
  it('refuses a call without a key, with a wrong key, or with an admin session token: 401, nothing written', async () => {
    const user = await makeUser(f);
    const before = await snapshot(f.db);
    const body = { userId: String(user.id), coin: 'USDC', amount: '100', txSignature: randomSignature(), fromAddress: randomAddress() };
    const wrong = [
      null, // no Authorization header
      `${KEY.slice(0, -1)}${KEY.endsWith('a') ? 'b' : 'a'}`, // same length, one character off
      `${KEY}x`,
      KEY.slice(0, 32),
      adminToken, // a valid admin session is not a platform key
    ];
    for (const token of wrong) {
      for (const [method, path] of [['POST', 'deposits'], ['GET', `users/${user.id}/balances`]] as const) {
        const res = await platform(method, path, { token, ...(method === 'POST' ? { body } : {}) });
        expect(res.status, `${method} ${path} with ${token === null ? 'no key' : 'a wrong key'}`).toBe(401);
        expect(res.body).toMatchObject({ success: false, code: 'UNAUTHENTICATED', message: expect.stringMatching(/platform API key/) });
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      }
    }
    // Another scheme with the right key is not a bearer key either.
    const basic = await call(f.s, 'GET', `${BASE}/users/${user.id}/balances`, { headers: { authorization: `Basic ${KEY}` } });
    expect(basic.status).toBe(401);
    expect(await snapshot(f.db)).toEqual(before);
    expect(await f.db.select().from(idempotencyKeys)).toEqual([]);
  });

  it('accepts the right key (the scheme in any case); the platform key opens no admin route', async () => {
    const user = await makeUser(f);
    expect((await platform('GET', `users/${user.id}/balances`)).status).toBe(200);
    const lower = await call(f.s, 'GET', `${BASE}/users/${user.id}/balances`, { headers: { authorization: `bearer ${KEY}` } });
    expect(lower.status).toBe(200);
    const admin = await call(f.s, 'GET', '/api/admin/getadmindetail', { token: KEY });
    expect(admin.status).toBe(401);
    const adminList = await call(f.s, 'GET', '/api/admin/users', { token: KEY });
    expect(adminList.status).toBe(401);
  });

  it('a blocked address is refused before the key is looked at', async () => {
    const res = await call(f.s, 'POST', '/api/admin/blocked-ips', { token: adminToken, body: { address: '203.0.113.99', reason: 'platform test' } });
    expect(res.status).toBe(200);
    const blocked = await platform('GET', 'users/1/balances', { ip: '203.0.113.99' });
    expect(blocked.status).toBe(403);
    expect(blocked.body).toMatchObject({ success: false, code: 'BLOCKED_IP' });
    expect((await call(f.s, 'DELETE', `/api/admin/blocked-ips/${res.body.result._id}`, { token: adminToken })).status).toBe(200);
  });

  it('without PLATFORM_API_KEY every platform route answers 503, whatever the caller sends', async () => {
    const off = await startTestServer();
    try {
      const paths = off.built.routes.filter((r) => r.access.kind === 'platform');
      expect(paths.length).toBe(Object.values(ENDPOINTS).filter((e) => e.access.kind === 'platform').length);
      expect(paths.length).toBeGreaterThanOrEqual(7);
      for (const r of paths) {
        for (const token of [null, KEY, 'x'.repeat(40)]) {
          const res = await call(off, r.method, r.url.replace(':id', '1'), { token, headers: { 'idempotency-key': 'k' }, ...(r.method === 'POST' ? { body: {} } : {}) });
          expect(res.status, `${r.method} ${r.url}`).toBe(503);
          expect(res.body).toMatchObject({ success: false, message: expect.stringMatching(/PLATFORM_API_KEY/) });
        }
      }
    } finally {
      await off.close();
    }
  });

  it('PLATFORM_API_KEY must be at least 32 printable characters without spaces when set; empty means unset', () => {
    expect(() => loadConfig({ PLATFORM_API_KEY: 'short' } as NodeJS.ProcessEnv)).toThrow(/PLATFORM_API_KEY: At least 32/);
    expect(() => loadConfig({ PLATFORM_API_KEY: `${'a'.repeat(20)} ${'b'.repeat(20)}` } as NodeJS.ProcessEnv)).toThrow(/PLATFORM_API_KEY/);
    expect(loadConfig({ PLATFORM_API_KEY: '' } as NodeJS.ProcessEnv).platformApiKey).toBeUndefined();
    expect(loadConfig({} as NodeJS.ProcessEnv).platformApiKey).toBeUndefined();
    expect(loadConfig({ PLATFORM_API_KEY: KEY } as NodeJS.ProcessEnv).platformApiKey).toBe(KEY);
  });
});

describe('POST users', () => {
  it('creates a user, audited as the platform from its address', async () => {
    const body = newUserBody();
    const res = await platform('POST', 'users', { body: { ...body, signupIp: '198.51.100.44', emailVerified: true } });
    expect(res.status).toBe(200);
    const env = platformEnvelope(platformUserRecord).parse(res.body);
    expect(env.result).toMatchObject({ username: body.username, email: body.email, country: 'FR', walletAddress: body.walletAddress, status: 'active', emailVerified: true });
    const [row] = await f.db.select().from(users).where(eq(users.id, Number(env.result._id)));
    expect(row).toMatchObject({ username: body.username, signupIp: '198.51.100.44' });
    const [audit] = await f.db.select().from(auditLog).where(and(eq(auditLog.resource, 'users'), eq(auditLog.recordId, env.result._id)));
    expect(audit).toMatchObject({ actorKind: 'platform', adminEmail: 'platform', adminId: null, ip: '198.51.100.7', action: 'create' });
  });

  it('refuses a bad body with 400 and field errors, writing nothing', async () => {
    const before = await snapshot(f.db);
    const keys = await f.db.select().from(idempotencyKeys);
    const cases: [unknown, string[]][] = [
      [{ ...newUserBody(), username: 'a b' }, ['username']],
      [{ ...newUserBody(), email: 'not-an-email' }, ['email']],
      [{ ...newUserBody(), country: 'FRA', walletAddress: 'nope' }, ['country', 'walletAddress']],
      [{ ...newUserBody(), country: 'zz' }, ['country']],
      [{ ...newUserBody(), isAdmin: true }, []],
      [{ email: 'a@b.co' }, ['username']],
      [{ ...newUserBody(), emailVerified: 'yes' }, ['emailVerified']],
    ];
    for (const [body, fields] of cases) {
      const res = await platform('POST', 'users', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'VALIDATION' });
      for (const field of fields) expect(res.body.errors, JSON.stringify(res.body)).toHaveProperty([field]);
    }
    expect(await snapshot(f.db)).toEqual(before);
    // Refused before the service ran: no key is stored either.
    expect(await f.db.select().from(idempotencyKeys)).toEqual(keys);
  });

  it('a taken username is a 409 naming the field', async () => {
    const existing = await makeUser(f);
    const res = await platform('POST', 'users', { body: { ...newUserBody(), username: existing.username.toUpperCase() } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, code: 'CONFLICT', errors: { username: expect.any(String) } });
  });
});

describe('POST deposits', () => {
  it('records a pending deposit (coin by symbol in any case; amounts as strings, exact past 2^53)', async () => {
    const coin = await makeCoin(f, { decimals: 9 });
    const user = await makeUser(f);
    const body = { userId: String(user.id), coin: coin.symbol.toLowerCase(), amount: '12345678901234567', txSignature: randomSignature(), fromAddress: randomAddress() };
    const res = await platform('POST', 'deposits', { body });
    expect(res.status).toBe(200);
    expect(res.raw).toContain('"amount":"12345678901234567"');
    const env = platformEnvelope(platformDepositRecord).parse(res.body);
    expect(env.result).toMatchObject({ userId: String(user.id), coin: coin.symbol, amount: '12345678901234567', status: 'pending', txSignature: body.txSignature, fromAddress: body.fromAddress });
    const [row] = await f.db.select().from(deposits).where(eq(deposits.id, Number(env.result._id)));
    expect(row).toMatchObject({ amount: 12345678901234567n, status: 'pending', coinId: coin.id, userId: user.id });
    // Pending: nothing credited yet.
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: 0n, held: 0n });
  });

  it('refuses a bad body with 400 and field errors, writing nothing', async () => {
    const coin = await makeCoin(f);
    const user = await makeUser(f);
    const good = { userId: String(user.id), coin: coin.symbol, amount: '100', txSignature: randomSignature(), fromAddress: randomAddress() };
    const before = await snapshot(f.db);
    const cases: [unknown, string[]][] = [
      [{ ...good, amount: 100 }, ['amount']], // a JSON number is not money
      [{ ...good, amount: '1.5' }, ['amount']],
      [{ ...good, amount: '-5' }, ['amount']],
      [{ ...good, amount: '1'.repeat(31) }, ['amount']],
      [{ ...good, userId: 7 }, ['userId']],
      [{ ...good, userId: 'abc' }, ['userId']],
      [{ ...good, txSignature: 'abc', fromAddress: 'O0Il' }, ['txSignature', 'fromAddress']],
      [{ ...good, coin: 'U$DC' }, ['coin']],
      [{ userId: good.userId, coin: good.coin, amount: '100', txSignature: good.txSignature }, ['fromAddress']],
      [{ ...good, status: 'confirmed' }, []],
    ];
    for (const [body, fields] of cases) {
      const res = await platform('POST', 'deposits', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      for (const field of fields) expect(res.body.errors, JSON.stringify(res.body)).toHaveProperty([field]);
    }
    // Judged by the service (after the schema): stored under their keys, but nothing else written.
    const unknownCoin = await platform('POST', 'deposits', { body: { ...good, coin: 'NOPE' } });
    expect(unknownCoin).toMatchObject({ status: 400, body: { errors: { coin: 'No coin NOPE' } } });
    const zero = await platform('POST', 'deposits', { body: { ...good, amount: '0' } });
    expect(zero).toMatchObject({ status: 400, body: { errors: { amount: expect.any(String) } } });
    const huge = await platform('POST', 'deposits', { body: { ...good, amount: '9'.repeat(25) } });
    expect(huge).toMatchObject({ status: 400, body: { errors: { amount: 'The amount is too large' } } });
    const noUser = await platform('POST', 'deposits', { body: { ...good, userId: '999999999' } });
    expect(noUser).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(await snapshot(f.db)).toEqual(before);
  });

  it('a transaction signature already recorded (under another key) is a 409', async () => {
    const coin = await makeCoin(f);
    const user = await makeUser(f);
    const body = { userId: String(user.id), coin: coin.symbol, amount: '100', txSignature: randomSignature(), fromAddress: randomAddress() };
    expect((await platform('POST', 'deposits', { body })).status).toBe(200);
    const again = await platform('POST', 'deposits', { body });
    expect(again).toMatchObject({ status: 409, body: { errors: { txSignature: expect.any(String) } } });
    expect(await f.db.select().from(deposits).where(eq(deposits.txSignature, body.txSignature))).toHaveLength(1);
  });
});

describe('POST withdrawals', () => {
  it('holds amount + fee and answers the request', async () => {
    const coin = await makeCoin(f, { withdrawalFee: 250n, minWithdrawal: 1_000n });
    const user = await makeUser(f);
    await fund(f, user.id, coin.id, 10_000n);
    const res = await platform('POST', 'withdrawals', { body: { userId: String(user.id), coin: coin.symbol, amount: '4000', toAddress: randomAddress() } });
    expect(res.status).toBe(200);
    const env = platformEnvelope(platformWithdrawalRecord).parse(res.body);
    expect(env).toMatchObject({ message: 'Withdrawal requested: awaiting review', result: { amount: '4000', fee: '250', status: 'requested', autoApproved: false, coin: coin.symbol } });
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: 5_750n, held: 4_250n });
  });

  it('refuses a bad body (400, fields) and the service’s rules (400 with the field), writing nothing', async () => {
    const coin = await makeCoin(f, { minWithdrawal: 1_000n });
    const user = await makeUser(f);
    await fund(f, user.id, coin.id, 10_000n);
    const good = { userId: String(user.id), coin: coin.symbol, amount: '2000', toAddress: randomAddress() };
    const before = await snapshot(f.db);
    for (const [body, field] of [[{ ...good, toAddress: 'x' }, 'toAddress'], [{ ...good, amount: 2000 }, 'amount'], [{ ...good, fee: '0' }, null]] as const) {
      const res = await platform('POST', 'withdrawals', { body });
      expect(res.status).toBe(400);
      if (field) expect(res.body.errors).toHaveProperty([field]);
    }
    const small = await platform('POST', 'withdrawals', { body: { ...good, amount: '999' } });
    expect(small).toMatchObject({ status: 400, body: { errors: { amount: expect.stringMatching(/minimum withdrawal/) } } });
    expect(await snapshot(f.db)).toEqual(before);
  });

  it('insufficient balance: 409 with the reason and the field; the same key replays the 409 even after funding', async () => {
    const coin = await makeCoin(f, { withdrawalFee: 100n, minWithdrawal: 1_000n });
    const user = await makeUser(f);
    await fund(f, user.id, coin.id, 1_050n);
    const key = randomUUID();
    const body = { userId: String(user.id), coin: coin.symbol, amount: '1000', toAddress: randomAddress() };
    const before = await snapshot(f.db);
    const first = await platform('POST', 'withdrawals', { body, key });
    expect(first.status).toBe(409);
    expect(first.body).toMatchObject({ success: false, message: 'Insufficient balance', code: 'CONFLICT', errors: { amount: expect.stringMatching(/fee/) } });
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const snap = await snapshot(f.db);
    expect(snap.counts).toEqual(before.counts);
    expect(snap.balances).toEqual(before.balances);

    await fund(f, user.id, coin.id, 10_000n);
    const replay = await platform('POST', 'withdrawals', { body, key });
    expect(replay.status).toBe(409);
    expect(replay.raw).toBe(first.raw);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await f.db.select().from(withdrawals).where(eq(withdrawals.userId, user.id))).toEqual([]);
    // A new key is a new request: now it fits.
    const fresh = await platform('POST', 'withdrawals', { body });
    expect(fresh.status).toBe(200);
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: 11_050n - 1_100n, held: 1_100n });
  });
});

describe('POST fiat-payments', () => {
  it('records a coin top-up and a pack purchase, pending', async () => {
    const coin = await makeCoin(f);
    const user = await makeUser(f);
    const topup = await platform('POST', 'fiat-payments', {
      body: { userId: String(user.id), provider: 'stripe', providerReference: `pi_${uniq()}`, amount: '2500', currency: 'eur', purpose: 'coin_topup', coin: coin.symbol, coinAmount: '25000000' },
    });
    expect(topup.status).toBe(200);
    const t = platformEnvelope(platformFiatPaymentRecord).parse(topup.body).result;
    expect(t).toMatchObject({ provider: 'stripe', amount: '2500', currency: 'EUR', purpose: 'coin_topup', coin: coin.symbol, coinAmount: '25000000', status: 'pending' });
    const pack = await platform('POST', 'fiat-payments', {
      body: { userId: String(user.id), provider: 'moonpay', providerReference: `mp_${uniq()}`, amount: '999', currency: 'USD', purpose: 'pack_purchase' },
    });
    expect(pack.status).toBe(200);
    expect(platformEnvelope(platformFiatPaymentRecord).parse(pack.body).result).toMatchObject({ purpose: 'pack_purchase', coin: null, coinAmount: null, status: 'pending' });
    expect(await f.db.select().from(fiatPayments).where(eq(fiatPayments.userId, user.id))).toHaveLength(2);
    // Nothing is credited while pending.
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: 0n, held: 0n });
  });

  it('refuses a bad body with 400 and field errors, writing nothing', async () => {
    const coin = await makeCoin(f);
    const user = await makeUser(f);
    const good = { userId: String(user.id), provider: 'stripe', providerReference: `pi_${uniq()}`, amount: '2500', currency: 'USD', purpose: 'coin_topup', coin: coin.symbol, coinAmount: '1000' };
    const { coin: _c, coinAmount: _a, ...pack } = { ...good, purpose: 'pack_purchase' };
    const before = await snapshot(f.db);
    const cases: [unknown, string[]][] = [
      [{ ...good, coin: undefined, coinAmount: undefined }, ['coin', 'coinAmount']],
      [{ ...pack, coin: coin.symbol }, ['coin']],
      [{ ...good, purpose: 'gift' }, ['purpose']],
      [{ ...good, currency: 'EURO' }, ['currency']],
      [{ ...good, providerReference: 'has space' }, ['providerReference']],
      [{ ...good, provider: 'x' }, ['provider']],
      [{ ...good, amount: '12.50' }, ['amount']],
    ];
    for (const [body, fields] of cases) {
      const res = await platform('POST', 'fiat-payments', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      for (const field of fields) expect(res.body.errors, JSON.stringify(res.body)).toHaveProperty([field]);
    }
    const badCurrency = await platform('POST', 'fiat-payments', { body: { ...good, currency: 'XYZ' } });
    expect(badCurrency).toMatchObject({ status: 400, body: { errors: { currency: expect.any(String) } } });
    expect(await snapshot(f.db)).toEqual(before);
  });
});

describe('GET users/:id/balances', () => {
  it('answers available and held per coin symbol, as strings', async () => {
    const a = await makeCoin(f);
    const b = await makeCoin(f, { withdrawalFee: 0n });
    const user = await makeUser(f);
    const empty = await platform('GET', `users/${user.id}/balances`);
    expect(empty.body).toEqual({ success: true, message: 'OK', result: { userId: String(user.id), balances: [] } });
    await fund(f, user.id, a.id, 5_000n);
    await fund(f, user.id, b.id, 3_000n);
    expect((await platform('POST', 'withdrawals', { body: { userId: String(user.id), coin: b.symbol, amount: '1000', toAddress: randomAddress() } })).status).toBe(200);
    const res = await platform('GET', `users/${user.id}/balances`);
    expect(res.status).toBe(200);
    const env = platformEnvelope(platformBalances).parse(res.body);
    expect(env.result.balances).toEqual(
      [{ coin: a.symbol, available: '5000', held: '0' }, { coin: b.symbol, available: '2000', held: '1000' }].sort((x, y) => x.coin.localeCompare(y.coin)),
    );
  });

  it('an unknown user is a 404; a malformed id a 400', async () => {
    expect(await platform('GET', 'users/999999999/balances')).toMatchObject({ status: 404, body: { success: false, code: 'NOT_FOUND' } });
    expect(await platform('GET', 'users/abc/balances')).toMatchObject({ status: 400, body: { success: false, errors: { id: expect.any(String) } } });
  });
});

describe('idempotency', () => {
  const depositBody = async () => {
    const coin = await makeCoin(f);
    const user = await makeUser(f);
    return { userId: String(user.id), coin: coin.symbol, amount: '777', txSignature: randomSignature(), fromAddress: randomAddress() };
  };

  it('every write needs an Idempotency-Key (1–255 printable ASCII): 400 before the body is looked at, nothing written', async () => {
    const body = await depositBody();
    const before = await snapshot(f.db);
    for (const path of ['users', 'deposits', 'withdrawals', 'fiat-payments']) {
      const res = await platform('POST', path, { body: path === 'deposits' ? body : {}, key: null });
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 'VALIDATION', errors: { 'Idempotency-Key': expect.any(String) } });
    }
    for (const key of ['k'.repeat(256), '']) {
      const res = await platform('POST', 'deposits', { body, key });
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveProperty(['Idempotency-Key']);
    }
    expect(await snapshot(f.db)).toEqual(before);
    expect((await platform('POST', 'deposits', { body, key: `${'k'.repeat(254)}~` })).status).toBe(200);
  });

  it('the same key and body: the first answer again, byte for byte, and one effect', async () => {
    const body = await depositBody();
    const key = randomUUID();
    const audits = await countOf(auditLog);
    const first = await platform('POST', 'deposits', { body, key });
    expect(first.status).toBe(200);
    // The keys in another order are the same body.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    for (const again of [body, reordered, body]) {
      const res = await platform('POST', 'deposits', { body: again, key });
      expect(res.status).toBe(200);
      expect(res.raw).toBe(first.raw);
      expect(res.headers['idempotent-replayed']).toBe('true');
      expect(res.headers['content-type']).toBe(first.headers['content-type']);
    }
    expect(await f.db.select().from(deposits).where(eq(deposits.txSignature, body.txSignature))).toHaveLength(1);
    expect(await countOf(auditLog)).toBe(audits + 1);
    const [row] = await f.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(row).toMatchObject({ method: 'POST', path: `${BASE}/deposits`, responseStatus: 200, responseBody: first.raw });
    expect(row!.requestHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(24 * 3600_000);
  });

  it('the same key with another body: 422, nothing done', async () => {
    const body = await depositBody();
    const key = randomUUID();
    const first = await platform('POST', 'deposits', { body, key });
    expect(first.status).toBe(200);
    const before = await snapshot(f.db);
    const other = await platform('POST', 'deposits', { body: { ...body, amount: '778', txSignature: randomSignature() }, key });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ success: false, message: expect.stringMatching(/already used with a different request body/), errors: { 'Idempotency-Key': expect.any(String) } });
    expect(await snapshot(f.db)).toEqual(before);
    // The first answer is still the key's.
    expect((await platform('POST', 'deposits', { body, key })).raw).toBe(first.raw);
  });

  it('a key is per method and path: the same key on another route is another request', async () => {
    const key = randomUUID();
    expect((await platform('POST', 'deposits', { body: await depositBody(), key })).status).toBe(200);
    expect((await platform('POST', 'users', { body: newUserBody(), key })).status).toBe(200);
    expect(await f.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toHaveLength(2);
  });

  it('a key is per path, not per route: the same key and body on another record’s path is another request', async () => {
    const user = await platform('POST', 'users', { body: newUserBody() });
    const userId = user.body.result._id as string;
    const open = async (subject: string) => (await platform('POST', 'tickets', { body: { userId, subject, message: 'First message' } })).body.result._id as string;
    const [a, b] = [await open('Ticket A'), await open('Ticket B')];
    const key = randomUUID();
    const body = { userId, message: 'Any news?' };
    const onA = await platform('POST', `tickets/${a}/messages`, { body, key });
    expect(onA.status).toBe(200);
    // The same key and body on ticket B is not a replay of A's answer: B gets its message.
    const onB = await platform('POST', `tickets/${b}/messages`, { body, key });
    expect(onB.status).toBe(200);
    expect(onB.headers['idempotent-replayed']).toBeUndefined();
    expect(onB.body.result._id).toBe(b);
    expect((await platform('GET', `tickets/${b}`)).body.result.messages.map((m: { body: string }) => m.body)).toEqual(['<p>First message</p>', '<p>Any news?</p>']);
    // Each path keeps its own answer for the key.
    const again = await platform('POST', `tickets/${a}/messages`, { body, key });
    expect(again).toMatchObject({ status: 200, raw: onA.raw, headers: { 'idempotent-replayed': 'true' } });
    expect((await f.db.select({ path: idempotencyKeys.path }).from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).map((r) => r.path).sort()).toEqual(
      [`${BASE}/tickets/${a}/messages`, `${BASE}/tickets/${b}/messages`].sort(),
    );
  });

  it('a refusal by the service (4xx) is stored and replayed; a schema refusal is not', async () => {
    const body = await depositBody();
    const key = randomUUID();
    const unknown = await platform('POST', 'deposits', { body: { ...body, coin: 'ZZZZ' }, key });
    expect(unknown.status).toBe(400);
    const replay = await platform('POST', 'deposits', { body: { ...body, coin: 'ZZZZ' }, key });
    expect(replay).toMatchObject({ status: 400, raw: unknown.raw, headers: { 'idempotent-replayed': 'true' } });
    // Refused by the schema: the key stays free.
    const key2 = randomUUID();
    expect((await platform('POST', 'deposits', { body: { ...body, amount: 'x' }, key: key2 })).status).toBe(400);
    expect(await f.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key2))).toEqual([]);
    expect((await platform('POST', 'deposits', { body, key: key2 })).status).toBe(200);
  });

  it('after 24 hours a key is new again; expired keys can be purged', async () => {
    const key = randomUUID();
    const first = await platform('POST', 'deposits', { body: await depositBody(), key });
    expect(first.status).toBe(200);
    await f.db.update(idempotencyKeys).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(idempotencyKeys.key, key));
    const body2 = await depositBody();
    const second = await platform('POST', 'deposits', { body: body2, key });
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.result.txSignature).toBe(body2.txSignature);
    await f.db.update(idempotencyKeys).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(idempotencyKeys.key, key));
    const live = Number((await f.db.select({ n: count() }).from(idempotencyKeys))[0]!.n);
    expect(await purgeExpiredIdempotencyKeys(f.db)).toBe(1);
    expect(Number((await f.db.select({ n: count() }).from(idempotencyKeys))[0]!.n)).toBe(live - 1);
  });

  it('a failure (5xx) stores nothing and rolls the service’s writes back: a retry with the key runs again', async () => {
    const key = randomUUID();
    const req = { key, method: 'POST', path: '/test/idempotent', body: { a: 1 } };
    const user = await makeUser(f);
    let runs = 0;
    const execute = async (tx: Parameters<Parameters<typeof runIdempotent>[2]>[0]) => {
      runs++;
      await tx.update(users).set({ country: 'NL' }).where(eq(users.id, user.id));
      if (runs === 1) throw new Error('database went away');
      return { status: 200, body: { success: true, message: 'OK', result: runs } };
    };
    await expect(runIdempotent(f.db, req, execute)).rejects.toThrow('database went away');
    expect(await f.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
    expect((await f.db.select().from(users).where(eq(users.id, user.id)))[0]!.country).toBe('DE');
    // A 5xx AppError is not stored either.
    await expect(runIdempotent(f.db, req, async () => {
      throw new AppError(503, 'INTERNAL', 'try later');
    })).rejects.toThrow('try later');
    expect(await runIdempotent(f.db, req, execute)).toEqual({ status: 200, json: '{"success":true,"message":"OK","result":2}', replayed: false });
    expect(await runIdempotent(f.db, req, execute)).toEqual({ status: 200, json: '{"success":true,"message":"OK","result":2}', replayed: true });
    expect(runs).toBe(2);
    expect((await f.db.select().from(users).where(eq(users.id, user.id)))[0]!.country).toBe('NL');
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL: 20 identical requests at once with one key make one deposit and one hold, and 20 identical answers', async () => {
    const body = await depositBody();
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => platform('POST', 'deposits', { body, key })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.raw)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    expect(await f.db.select().from(deposits).where(eq(deposits.txSignature, body.txSignature))).toHaveLength(1);

    const coin = await makeCoin(f, { withdrawalFee: 10n, minWithdrawal: 100n });
    const user = await makeUser(f);
    await fund(f, user.id, coin.id, 10_000n);
    const wBody = { userId: String(user.id), coin: coin.symbol, amount: '1000', toAddress: randomAddress() };
    const wKey = randomUUID();
    const holds = await Promise.all(Array.from({ length: 20 }, () => platform('POST', 'withdrawals', { body: wBody, key: wKey })));
    expect(holds.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(holds.map((a) => a.raw)).size).toBe(1);
    expect(await f.db.select().from(withdrawals).where(eq(withdrawals.userId, user.id))).toHaveLength(1);
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: 10_000n - 1_010n, held: 1_010n });
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL: requests with one key wait for the first in flight; when it fails (5xx), one waiter runs instead', async () => {
    const user = await makeUser(f);
    const slow = (fail: boolean, runs: { n: number }) => async (tx: Parameters<Parameters<typeof runIdempotent>[2]>[0]) => {
      const n = ++runs.n;
      await tx.update(users).set({ country: 'NL' }).where(eq(users.id, user.id));
      await new Promise((r) => setTimeout(r, 100));
      if (fail && n === 1) throw new Error('the first attempt fails');
      return { status: 200, body: { success: true, message: 'OK', result: n } };
    };
    const ok = { n: 0 };
    const req = { key: randomUUID(), method: 'POST', path: '/test/slow', body: { b: 1 } };
    const all = await Promise.all(Array.from({ length: 8 }, () => runIdempotent(f.db, req, slow(false, ok))));
    expect(ok.n).toBe(1);
    expect(all.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(all.map((r) => r.json))).toEqual(new Set(['{"success":true,"message":"OK","result":1}']));

    const failing = { n: 0 };
    const req2 = { ...req, key: randomUUID() };
    const settled = await Promise.allSettled(Array.from({ length: 8 }, () => runIdempotent(f.db, req2, slow(true, failing))));
    expect(failing.n).toBe(2);
    expect(settled.filter((r) => r.status === 'rejected')).toHaveLength(1);
    const answers = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value.json] : []));
    expect(new Set(answers)).toEqual(new Set(['{"success":true,"message":"OK","result":2}']));
  });
});
