import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerTransactions, markets, orders, positions, trades } from '../../db/schema.js';
import { openDatabase } from '../../db/client.js';
import { checkLedgerInvariants } from '../ledger/invariants.js';
import { blockUser } from '../users/service.js';
import { call, type TestServer } from '../../../test/helpers.js';
import { newPlatformKey, platformCall, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';
import { fundedUser, openTestMarket } from '../../../test/market-helpers.js';
import { groupCommitStats, groupCommitTesting, placeOrderGrouped } from './group-commit.js';
import { dropCachedBooks, keptBookRows, restingOrders } from './service.js';
import { LIVE_ORDER_STATUSES } from './table.js';

/**
 * Group commit of platform orders (group-commit.ts): many concurrent orders on one market through
 * the API are committed in groups; every accepted order is in the database with its ledger
 * transaction, refusals change nothing, keys still dedupe, the ledger balances, and the book
 * rebuilt from the database equals the book in memory. A failed group is retried one by one.
 */
const KEY = newPlatformKey();
let s: TestServer;
let f: MoneyFixture;
let token: string;
let usdc: number;
const HOUR = 3_600_000;
const iso = (h: number) => new Date(Date.now() + h * HOUR).toISOString();

moneyFile((m) => ({ f, s, token, usdc } = m), { platformKey: KEY });

const admin = (path: string, body: unknown = {}) => call(s, 'POST', `/api/admin/${path}`, { token, body });
const order = (body: Record<string, unknown>, key?: string) => platformCall(s, KEY, 'POST', 'orders', { body, key });

const openMarket = () => openTestMarket(admin, 'KXGC');

async function funded(n: number, amount: bigint): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(await fundedUser(f, usdc, amount));
  }
  return ids;
}

/** The book as this process holds it equals the book rebuilt from the database, and both equal the live rows. */
async function expectBookMatchesDatabase(marketId: number): Promise<void> {
  const inMemory = await restingOrders(f.db, marketId);
  dropCachedBooks();
  const rebuilt = await restingOrders(f.db, marketId);
  expect(rebuilt).toEqual(inMemory);
  const live = await f.db.select().from(orders).where(and(eq(orders.marketId, marketId), inArray(orders.status, [...LIVE_ORDER_STATUSES])));
  expect(new Map(inMemory.map((o) => [o.id, o.qty]))).toEqual(new Map(live.map((o) => [o.id, o.remaining])));
}

/** YES outstanding = NO outstanding = the market's open interest; no position offers more than it holds. */
async function expectPositionsBalance(marketId: number): Promise<void> {
  const ps = await f.db.select().from(positions).where(eq(positions.marketId, marketId));
  const yes = ps.filter((p) => p.outcome === 'YES').reduce((a, p) => a + p.quantity, 0);
  const no = ps.filter((p) => p.outcome === 'NO').reduce((a, p) => a + p.quantity, 0);
  const [m] = await f.db.select().from(markets).where(eq(markets.id, marketId));
  expect(yes).toBe(no);
  expect(m!.openInterest).toBe(yes);
  for (const p of ps) expect(p.reserved).toBeLessThanOrEqual(p.quantity);
}

describe('group commit of platform orders', () => {
  it('many concurrent orders on one market: grouped; accepted ones durable with their ledger transaction, refusals change nothing, keys dedupe, the book matches the database', async () => {
    const m = await openMarket();
    const traders = await funded(8, 50_000_000n);
    // 2 orders of 1 share at 50¢ fit (the hold is price + the maximum fee at the default rates), not 5.
    const [poor] = await funded(1, 1_020_000n);
    const [blocked] = await funded(1, 50_000_000n);
    await f.db.transaction((tx) => blockUser(tx, f.admin, blocked!, { reason: 'group commit test' }));
    const stats = { ...groupCommitStats };

    const bodies: { body: Record<string, unknown>; key?: string }[] = [];
    for (let i = 0; i < 120; i++) {
      const yes = i % 2 === 0;
      bodies.push({
        body: {
          userId: String(traders[i % traders.length]), market: i % 3 === 0 ? String(m.id) : m.ticker, outcome: yes ? 'YES' : 'NO', side: 'buy',
          price: 45 + ((i * 7) % 11), quantity: 1 + (i % 4), timeInForce: i % 6 === 5 ? 'IOC' : 'GTC',
        },
      });
    }
    for (let i = 0; i < 5; i++) bodies.push({ body: { userId: String(poor), market: m.ticker, outcome: 'YES', side: 'buy', price: 50, quantity: 1, timeInForce: 'GTC', postOnly: true } });
    for (let i = 0; i < 2; i++) bodies.push({ body: { userId: String(blocked), market: m.ticker, outcome: 'NO', side: 'buy', price: 40, quantity: 1, timeInForce: 'GTC' } });
    bodies.push({ body: { userId: String(traders[0]), market: m.ticker, outcome: 'YES', side: 'buy', price: 40, quantity: 1, timeInForce: 'GTD', expiresAt: iso(-1) } });
    bodies.push({ body: { userId: String(traders[1]), market: m.ticker, outcome: 'YES', side: 'sell', price: 40, quantity: 1_000, timeInForce: 'GTC' } });
    const same = randomUUID();
    const dupBody = { userId: String(traders[2]), market: m.ticker, outcome: 'YES', side: 'buy', price: 30, quantity: 2, timeInForce: 'GTC' };
    bodies.push({ body: dupBody, key: same }, { body: dupBody, key: same });
    const other = randomUUID();
    bodies.push({ body: { ...dupBody, quantity: 3 }, key: other }, { body: { ...dupBody, quantity: 4 }, key: other });

    const res = await Promise.all(bodies.map((b) => order(b.body, b.key)));
    const after = { ...groupCommitStats };
    // Orders were really grouped, and no group had to be retried.
    expect(after.commands - stats.commands).toBeGreaterThanOrEqual(bodies.length - 4);
    expect(after.groups - stats.groups).toBeLessThan(after.commands - stats.commands);
    expect(after.retriedGroups).toBe(stats.retriedGroups);

    const at = (i: number) => res[i]!;
    for (let i = 0; i < 120; i++) expect(at(i).status, JSON.stringify(at(i).body)).toBe(200);
    const poorRes = res.slice(120, 125);
    // Post-only buys of the poor user: each rests or is rejected (never takes); two holds fit the
    // balance at once. A post-only order that would cross is answered as rejected and gives its hold
    // back, so a later group may take one more: at least two accepted, never more than two holding.
    // One that rested may be filled by a later order of its group before the answer is sent (the
    // answer is the order as committed): then it was the maker, never the taker.
    const poorOk = poorRes.filter((r) => r.status === 200);
    expect(poorOk.length).toBeGreaterThanOrEqual(2);
    for (const r of poorOk) expect(['open', 'rejected', 'partially_filled', 'filled']).toContain(r.body.result.status);
    expect(poorOk.filter((r) => r.body.result.status !== 'rejected').length).toBeLessThanOrEqual(2);
    const poorIds = poorOk.map((r) => Number(r.body.result._id));
    expect(await f.db.select().from(trades).where(inArray(trades.takerOrderId, poorIds))).toEqual([]);
    for (const r of poorRes.filter((x) => x.status !== 200)) expect(r.body).toMatchObject({ success: false, message: 'Insufficient balance' });
    expect(res.slice(125, 127).map((r) => r.status)).toEqual([409, 409]);
    expect(at(127).status).toBe(400);
    expect(at(127).body.errors).toHaveProperty('expiresAt');
    expect(at(128).status).toBe(409);
    expect(at(128).body.message).toMatch(/Not enough YES shares/);
    // One key twice with one body: one order, the same answer twice (one of them a replay).
    expect([at(129).status, at(130).status]).toEqual([200, 200]);
    expect(at(129).body).toEqual(at(130).body);
    expect([at(129).headers['idempotent-replayed'], at(130).headers['idempotent-replayed']].filter((h) => h === 'true')).toHaveLength(1);
    // One key with two bodies: the first runs, the second is a 422.
    expect([at(131).status, at(132).status].sort()).toEqual([200, 422]);

    // Every accepted order is in the database, once, with its ledger transaction.
    const accepted = res.filter((r) => r.status === 200).map((r) => Number(r.body.result._id));
    const ids = [...new Set(accepted)];
    expect(ids).toHaveLength(accepted.length - 1);
    const rows = await f.db.select().from(orders).where(eq(orders.marketId, m.id));
    expect(rows.map((o) => o.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    const refs = await f.db.select({ refId: ledgerTransactions.refId }).from(ledgerTransactions).where(and(eq(ledgerTransactions.cause, 'order'), inArray(ledgerTransactions.refId, ids)));
    expect(new Set(refs.map((r) => r.refId))).toEqual(new Set(rows.filter((o) => o.held > 0n || o.filled > 0).map((o) => o.id)));
    expect(rows.filter((o) => o.userId === blocked)).toEqual([]);
    // The answers are what the database holds (fills by later groups aside: compare the fixed fields).
    for (const r of res.filter((x) => x.status === 200)) {
      const row = rows.find((o) => o.id === Number(r.body.result._id))!;
      expect({ userId: String(row.userId), price: row.price, quantity: row.quantity, outcome: row.outcome }).toEqual({
        userId: r.body.result.userId, price: r.body.result.price, quantity: r.body.result.quantity, outcome: r.body.result.outcome,
      });
    }
    // A replay after the fact answers the same.
    const again = await order(dupBody, same);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(at(129).body);

    expect(await checkLedgerInvariants(f.db)).toEqual([]);
    await expectPositionsBalance(m.id);
    await expectBookMatchesDatabase(m.id);

    // Second wave: holders sell what they got (two sells each, together more than held: what fits is accepted) among new buys.
    const holdings = (await f.db.select().from(positions).where(eq(positions.marketId, m.id))).filter((p) => p.quantity - p.reserved > 0);
    expect(holdings.length).toBeGreaterThan(0);
    const wave = [
      ...holdings.flatMap((p) => {
        const free = p.quantity - p.reserved;
        const sell = (q: number) => ({ userId: String(p.userId), market: m.ticker, outcome: p.outcome, side: 'sell', price: 40 + (p.id % 20), quantity: q, timeInForce: 'GTC' });
        return [sell(Math.ceil(free / 2) + 1 > free ? free : Math.ceil(free / 2) + 1), sell(Math.ceil(free / 2) + 1 > free ? 1 : Math.ceil(free / 2))];
      }),
      ...Array.from({ length: 40 }, (_, i) => ({ userId: String(traders[i % traders.length]), market: m.ticker, outcome: i % 2 ? 'YES' : 'NO', side: 'buy', price: 50 + (i % 9), quantity: 1 + (i % 3), timeInForce: 'GTC' })),
    ];
    const res2 = await Promise.all(wave.map((b) => order(b)));
    expect(res2.filter((r) => r.status !== 200 && r.status !== 409)).toEqual([]);
    for (const r of res2.filter((x) => x.status === 409)) expect(r.body.message).toMatch(/Not enough (YES|NO) shares/);
    expect(res2.filter((r) => r.status === 200).length).toBeGreaterThan(40);
    expect(groupCommitStats.retriedGroups).toBe(stats.retriedGroups);
    expect(await checkLedgerInvariants(f.db)).toEqual([]);
    await expectPositionsBalance(m.id);
    await expectBookMatchesDatabase(m.id);
  });

  it('the rows a group keeps for the next (resting orders, positions) are the database\'s, across waves of buys and sells and a cancel by another path', async () => {
    const m = await openMarket();
    const traders = await funded(6, 50_000_000n);
    const live = async () => f.db.select().from(orders).where(and(eq(orders.marketId, m.id), inArray(orders.status, [...LIVE_ORDER_STATUSES])));
    /** Every kept row equals the database's: orders still live, with their amounts; positions with theirs. */
    const expectKeptRowsExact = async () => {
      const kept = keptBookRows(m.id);
      expect(kept).toBeDefined();
      const pick = (o: { id: number; filled: number; remaining: number; status: string; held: bigint; fees: bigint; reason: string | null }) => ({ id: o.id, filled: o.filled, remaining: o.remaining, status: o.status, held: o.held, fees: o.fees, reason: o.reason });
      const dbOrders = new Map((await live()).map((o) => [o.id, pick(o)]));
      for (const o of kept!.orders.values()) expect(pick(o)).toEqual(dbOrders.get(o.id));
      const dbPositions = await f.db.select().from(positions).where(eq(positions.marketId, m.id));
      const posOf = (p: { id: number; quantity: number; reserved: number; cost: bigint; realizedPnl: bigint; status: string }) => ({ id: p.id, quantity: p.quantity, reserved: p.reserved, cost: p.cost, realizedPnl: p.realizedPnl, status: p.status });
      for (const [key, p] of kept!.positions) {
        expect(`${p.userId}:${p.outcome}`).toBe(key);
        expect(posOf(p)).toEqual(posOf(dbPositions.find((d) => d.id === p.id)!));
      }
      return kept!;
    };
    const buys = (n: number, seed: number) =>
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          order({ userId: String(traders[(i + seed) % traders.length]), market: m.ticker, outcome: i % 2 ? 'YES' : 'NO', side: 'buy', price: 45 + ((i * 7 + seed) % 11), quantity: 1 + (i % 4), timeInForce: 'GTC' }),
        ),
      );
    expect((await buys(60, 0)).filter((r) => r.status !== 200)).toEqual([]);
    expect((await expectKeptRowsExact()).orders.size).toBeGreaterThan(0);

    // Another writer of the book (a cancel is one command in its own transaction): what the groups kept is no longer used.
    const [gone] = await live();
    expect((await platformCall(s, KEY, 'DELETE', `orders/${gone!.id}`)).status).toBe(200);
    expect(keptBookRows(m.id)).toBeUndefined();
    expect((await buys(60, 3)).filter((r) => r.status !== 200)).toEqual([]);
    await expectKeptRowsExact();
    const [after] = await f.db.select().from(orders).where(eq(orders.id, gone!.id));
    expect({ status: after!.status, filled: after!.filled }).toEqual({ status: 'cancelled', filled: gone!.filled });

    // Holders sell what they hold, among more buys, twice: makers' fills and releases come from the kept rows.
    for (const seed of [5, 7]) {
      const holdings = (await f.db.select().from(positions).where(eq(positions.marketId, m.id))).filter((p) => p.quantity - p.reserved > 0);
      const sells = holdings.map((p) => ({ userId: String(p.userId), market: m.ticker, outcome: p.outcome, side: 'sell', price: 44 + ((p.id + seed) % 12), quantity: Math.max(1, Math.floor((p.quantity - p.reserved) / 2)), timeInForce: 'GTC' }));
      const [sold, bought] = await Promise.all([Promise.all(sells.map((b) => order(b))), buys(30, seed)]);
      expect([...sold, ...bought].filter((r) => r.status !== 200)).toEqual([]);
      await expectKeptRowsExact();
    }
    expect(await checkLedgerInvariants(f.db)).toEqual([]);
    await expectPositionsBalance(m.id);
    await expectBookMatchesDatabase(m.id);
  });

  it('a group whose transaction fails is retried one order at a time: every request answered once, nothing lost or doubled, the book rebuilt', async () => {
    const m = await openMarket();
    const traders = await funded(4, 50_000_000n);
    const stats = { ...groupCommitStats };
    groupCommitTesting.failNextGroups = 1;
    const bodies = Array.from({ length: 40 }, (_, i) => ({
      userId: String(traders[i % traders.length]), market: m.ticker, outcome: i % 2 ? 'YES' : 'NO', side: 'buy', price: 46 + (i % 9), quantity: 1 + (i % 3), timeInForce: 'GTC',
    }));
    const res = await Promise.all(bodies.map((b) => order(b)));
    groupCommitTesting.failNextGroups = 0;
    expect(groupCommitStats.retriedGroups - stats.retriedGroups).toBe(1);
    expect(groupCommitStats.commands - stats.commands).toBe(bodies.length);
    expect(res.filter((r) => r.status !== 200)).toEqual([]);
    const rows = await f.db.select().from(orders).where(eq(orders.marketId, m.id));
    expect(rows.map((o) => o.id).sort((a, b) => a - b)).toEqual(res.map((r) => Number(r.body.result._id)).sort((a, b) => a - b));
    expect(rows.some((o) => o.filled > 0)).toBe(true);
    expect(await checkLedgerInvariants(f.db)).toEqual([]);
    await expectPositionsBalance(m.id);
    await expectBookMatchesDatabase(m.id);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL', () => {
  it('two instances (two connection pools, two queues) grouping orders on one market at once: serialised by the market lock, nothing lost, the book matches', async () => {
    const m = await openMarket();
    const traders = await funded(6, 50_000_000n);
    const second = await openDatabase({ databaseUrl: s.config.databaseUrl });
    try {
      const answer = (o: { id: number }, message: string) => ({ status: 200, body: { success: true, message, result: { _id: String(o.id) } } });
      const calls = Array.from({ length: 120 }, (_, i) =>
        placeOrderGrouped(i % 2 ? second.db : f.db, {
          idem: { key: randomUUID(), method: 'POST', path: '/api/platform/v1/orders', body: { i } },
          actor: f.platform,
          input: { userId: traders[i % traders.length]!, marketId: m.id, outcome: i % 2 ? 'YES' : 'NO', side: 'buy', price: 45 + (i % 11), quantity: 1 + (i % 4), timeInForce: 'GTC' },
          answer,
        }),
      );
      const res = await Promise.all(calls);
      expect(res.map((r) => r.status)).toEqual(res.map(() => 200));
      const ids = res.map((r) => Number(JSON.parse(r.json).result._id));
      const rows = await f.db.select().from(orders).where(eq(orders.marketId, m.id));
      expect(rows.map((o) => o.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
      expect(rows.some((o) => o.filled > 0)).toBe(true);
      expect(await checkLedgerInvariants(f.db)).toEqual([]);
      await expectPositionsBalance(m.id);
      await expectBookMatchesDatabase(m.id);
    } finally {
      await second.close();
    }
  });
});
