import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../db/schema.js';
import { balanceOf } from '../ledger/service.js';
import { checkLedgerInvariants } from '../ledger/invariants.js';
import { call, type TestServer } from '../../../test/helpers.js';
import { fund, makeUser, newPlatformKey, platformCall, type MoneyFixture } from '../../../test/money-helpers.js';
import { openTestMarket, startMarketFixture } from '../../../test/market-helpers.js';

/**
 * Orders over the platform API: idempotent placement and cancel, the market by ticker, and on
 * PostgreSQL concurrent buys against one balance and concurrent orders on one market.
 */
const KEY = newPlatformKey();
let s: TestServer;
let f: MoneyFixture;
let token: string;
let usdc: number;

beforeAll(async () => {
  ({ f, s, token, usdc } = await startMarketFixture(KEY));
}, 60_000);
afterAll(async () => s?.close());

const admin = (path: string, body: unknown = {}) => call(s, 'POST', `/api/admin/${path}`, { token, body });
const platform = (method: 'POST' | 'DELETE', path: string, body?: unknown, key?: string) => platformCall(s, KEY, method, path, { body, key });

async function openMarket(): Promise<{ id: string; ticker: string }> {
  const m = await openTestMarket(admin, 'KXPL');
  return { id: String(m.id), ticker: m.ticker };
}

describe('POST /orders and DELETE /orders/:id', () => {
  it('places once per Idempotency-Key (replayed after), refuses another body with 422, names the market by ticker, cancels idempotently', async () => {
    const m = await openMarket();
    const u = await makeUser(f);
    await fund(f, u.id, usdc, 10_000_000n);
    const body = { userId: String(u.id), market: m.ticker.toLowerCase(), outcome: 'YES', side: 'buy', price: 40, quantity: 5, timeInForce: 'GTC' };
    const key = randomUUID();
    const first = await platform('POST', 'orders', body, key);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.result).toMatchObject({ status: 'open', marketId: m.id, coin: 'USDC', held: String(5 * 41 * 10_000) });
    const again = await platform('POST', 'orders', body, key);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await platform('POST', 'orders', { ...body, quantity: 6 }, key)).status).toBe(422);
    expect(Number((await f.db.select({ n: count() }).from(orders).where(eq(orders.userId, u.id)))[0]!.n)).toBe(1);

    const short = await platform('POST', 'orders', { ...body, quantity: 1000 });
    expect(short.status).toBe(409);
    expect(short.body.message).toBe('Insufficient balance');
    expect((await platform('POST', 'orders', { ...body, market: 'NOPE-404' })).status).toBe(400);

    const cancelKey = randomUUID();
    const cancel = await platform('DELETE', `orders/${first.body.result._id}`, undefined, cancelKey);
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.result).toMatchObject({ status: 'cancelled', held: '0' });
    const replay = await platform('DELETE', `orders/${first.body.result._id}`, undefined, cancelKey);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await platform('DELETE', `orders/${first.body.result._id}`)).status).toBe(409);
    expect(await balanceOf(f.db, u.id, usdc)).toEqual({ available: 10_000_000n, held: 0n });
  });

  it('a market id past any id is an unknown market: 400 on the field, stored for its key like any unknown market', async () => {
    const m = await openMarket();
    const u = await makeUser(f);
    const body = { userId: String(u.id), market: m.id, outcome: 'YES', side: 'buy', price: 40, quantity: 1, timeInForce: 'GTC' };
    for (const market of ['99999999999999999999', '9223372036854775808', '9007199254740993']) {
      const key = randomUUID();
      const res = await platform('POST', 'orders', { ...body, market }, key);
      expect(res.status, market).toBe(400);
      expect(res.body.errors, market).toEqual({ market: `No market ${market}` });
      expect((await platform('POST', 'orders', { ...body, market }, key)).headers['idempotent-replayed'], market).toBe('true');
    }
  });

  it('a cancel’s key reused on another order cancels that order (a key belongs to the path with its id)', async () => {
    const m = await openMarket();
    const u = await makeUser(f);
    await fund(f, u.id, usdc, 10_000_000n);
    const body = { userId: String(u.id), market: m.id, outcome: 'YES', side: 'buy', price: 30, quantity: 2, timeInForce: 'GTC' };
    const a = (await platform('POST', 'orders', body)).body.result._id as string;
    const b = (await platform('POST', 'orders', body)).body.result._id as string;
    const key = randomUUID();
    expect((await platform('DELETE', `orders/${a}`, undefined, key)).body.result).toMatchObject({ _id: a, status: 'cancelled' });
    const onB = await platform('DELETE', `orders/${b}`, undefined, key);
    expect(onB.headers['idempotent-replayed']).toBeUndefined();
    expect(onB.body.result).toMatchObject({ _id: b, status: 'cancelled' });
    expect(await balanceOf(f.db, u.id, usdc)).toEqual({ available: 10_000_000n, held: 0n });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL', () => {
  it('30 concurrent buys against one balance never overdraw it', async () => {
    const m = await openMarket();
    const u = await makeUser(f);
    // Each buy of 1 share at 50¢ holds 51¢ (price + max fee at 100 bp): 10 fit in 5.10 USDC + change.
    await fund(f, u.id, usdc, 5_150_000n);
    const results = await Promise.all(
      Array.from({ length: 30 }, () => platform('POST', 'orders', { userId: String(u.id), market: m.id, outcome: 'YES', side: 'buy', price: 50, quantity: 1, timeInForce: 'GTC' })),
    );
    const okCount = results.filter((r) => r.status === 200).length;
    expect(results.filter((r) => r.status !== 200 && r.status !== 409)).toEqual([]);
    expect(okCount).toBe(10);
    const b = await balanceOf(f.db, u.id, usdc);
    expect(b.available).toBe(50_000n);
    expect(b.held).toBe(5_100_000n);
    expect(await checkLedgerInvariants(f.db)).toEqual([]);
  });

  it('concurrent orders of many users on one market keep the ledger invariants', async () => {
    const m = await openMarket();
    const us = await Promise.all(Array.from({ length: 6 }, () => makeUser(f)));
    for (const u of us) await fund(f, u.id, usdc, 50_000_000n);
    const calls = Array.from({ length: 60 }, (_, i) => {
      const u = us[i % us.length]!;
      const price = 40 + (i % 21);
      return platform('POST', 'orders', { userId: String(u.id), market: m.id, outcome: i % 2 ? 'YES' : 'NO', side: 'buy', price: i % 2 ? price : 100 - price + 3, quantity: 1 + (i % 4), timeInForce: i % 5 === 0 ? 'IOC' : 'GTC' });
    });
    const results = await Promise.all(calls);
    expect(results.filter((r) => r.status !== 200)).toEqual([]);
    expect(await checkLedgerInvariants(f.db)).toEqual([]);
  });
});
