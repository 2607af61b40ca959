import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { coins, idempotencyKeys, markets, orders } from '../../db/schema.js';
import { openDatabase } from '../../db/client.js';
import { checkLedgerInvariants } from '../ledger/invariants.js';
import { requestHash } from '../platform/idempotency.js';
import { call, type TestServer } from '../../../test/helpers.js';
import { newPlatformKey, platformCall, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';
import { fundedUser, openTestMarket } from '../../../test/market-helpers.js';
import { groupCommitStats, placeOrderGrouped, type GroupedOrder } from './group-commit.js';
import type { PlaceOrderInput } from './service.js';

/**
 * The start of an order group (migration 0032 `order_group_begin`, `beginOrderGroup`): the keys'
 * semantics through a group (replay, 422, expired key taken over, a key held by another transaction,
 * a committed key without an answer), a missing market and a missing settlement coin (the group
 * fails and every order is answered once, by the one-by-one retry, with its own stored answer);
 * and the group's transaction itself: the claims and the writes are one transaction, and a failing
 * last statement keeps nothing of the group, its keys included (written against a pipelined variant
 * that sent COMMIT ahead of the writes; kept for whatever runs a group's transaction).
 */
const KEY = newPlatformKey();
const PATH = '/api/platform/v1/orders';
let s: TestServer;
let f: MoneyFixture;
let token: string;
let usdc: number;

moneyFile((m) => ({ f, s, token, usdc } = m), { platformKey: KEY });

const admin = (path: string, body: unknown = {}) => call(s, 'POST', `/api/admin/${path}`, { token, body });
const order = (body: Record<string, unknown>, key?: string) => platformCall(s, KEY, 'POST', 'orders', { body, key });
const answer: GroupedOrder['answer'] = (o, message) => ({ status: 200, body: { success: true, message, result: { _id: String(o.id), status: o.status } } });
const grouped = (db: MoneyFixture['db'], key: string, input: PlaceOrderInput, body: unknown = input) =>
  placeOrderGrouped(db, { idem: { key, method: 'POST', path: PATH, body }, actor: f.platform, input, answer });

describe('a group\'s start: keys, market, coin', () => {
  it('through groups: a replay, a 422 on another body, an expired key taken over (runs again), a follower in the same group', async () => {
    const m = await openTestMarket(admin, 'KXGB');
    const u = await fundedUser(f, usdc, 50_000_000n);
    const body = { userId: String(u), market: m.ticker, outcome: 'YES', side: 'buy', price: 40, quantity: 2, timeInForce: 'GTC' };
    const k = randomUUID();
    const first = await order(body, k);
    expect(first.status).toBe(200);
    const [replay, other] = await Promise.all([order(body, k), order({ ...body, quantity: 3 }, k)]);
    expect(replay).toMatchObject({ status: 200, raw: first.raw, headers: { 'idempotent-replayed': 'true' } });
    expect(other.status).toBe(422);
    await f.db.update(idempotencyKeys).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(idempotencyKeys.key, k));
    // Taken over by a new body, twice in one burst (the second a follower, or a replay in a later group).
    const [again, twice] = await Promise.all([order({ ...body, quantity: 3 }, k), order({ ...body, quantity: 3 }, k)]);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.result._id).not.toBe(first.body.result._id);
    expect(again.body.result.quantity).toBe(3);
    expect(twice).toMatchObject({ status: 200, raw: again.raw, headers: { 'idempotent-replayed': 'true' } });
    const rows = await f.db.select().from(orders).where(eq(orders.marketId, m.id));
    expect(rows.map((o) => o.quantity).sort()).toEqual([2, 3]);
  });

  it('a missing market: every order answered once with its own 404, stored for its key', async () => {
    const u = await fundedUser(f, usdc, 50_000_000n);
    const stats = { ...groupCommitStats };
    const missing = 2_000_000_000;
    const input = (q: number): PlaceOrderInput => ({ userId: u, marketId: missing, outcome: 'YES', side: 'buy', price: 40, quantity: q, timeInForce: 'GTC' });
    const keys = [randomUUID(), randomUUID(), randomUUID()];
    const res = await Promise.all(keys.map((k, i) => grouped(f.db, k, input(i + 1))));
    expect(res.map((r) => r.status)).toEqual([404, 404, 404]);
    expect(groupCommitStats.retriedGroups).toBeGreaterThan(stats.retriedGroups);
    const again = await grouped(f.db, keys[0]!, input(1));
    expect(again).toEqual({ ...res[0], replayed: true });
  });

  it('a missing settlement coin: each order answered once with the 409, nothing written', async () => {
    const m = await openTestMarket(admin, 'KXGB');
    const u = await fundedUser(f, usdc, 50_000_000n);
    const before = await f.db.select().from(orders).where(eq(orders.marketId, m.id));
    await f.db.update(coins).set({ symbol: 'USDQ' }).where(eq(coins.id, usdc));
    try {
      const keys = [randomUUID(), randomUUID()];
      const res = await Promise.all(keys.map((k, i) => grouped(f.db, k, { userId: u, marketId: m.id, outcome: 'YES', side: 'buy', price: 40, quantity: i + 1, timeInForce: 'GTC' })));
      expect(res.map((r) => r.status)).toEqual([409, 409]);
      expect(JSON.parse(res[0]!.json).message).toMatch(/USDC/);
    } finally {
      await f.db.update(coins).set({ symbol: 'USDC' }).where(eq(coins.id, usdc));
    }
    expect(await f.db.select().from(orders).where(eq(orders.marketId, m.id))).toEqual(before);
    expect(await checkLedgerInvariants(f.db)).toEqual([]);
  });
});

describe('one transaction per group', () => {
  it('a group\'s claims and its writes are one transaction (its writes run while it holds the keys and the market\'s locks)', async () => {
    const m = await openTestMarket(admin, 'KXGB');
    const users = await Promise.all([0, 1, 2].map(() => fundedUser(f, usdc, 1_000_000_000n)));
    await f.db.execute(sql.raw('CREATE TABLE review_txids (tbl text NOT NULL, xid bigint NOT NULL)'));
    await f.db.execute(sql.raw(`CREATE OR REPLACE FUNCTION review_txid() RETURNS trigger AS $$ BEGIN INSERT INTO review_txids VALUES (TG_TABLE_NAME, txid_current()); RETURN NULL; END $$ LANGUAGE plpgsql`));
    await f.db.execute(sql.raw('CREATE TRIGGER review_txid AFTER INSERT ON idempotency_keys FOR EACH STATEMENT EXECUTE FUNCTION review_txid()'));
    await f.db.execute(sql.raw('CREATE TRIGGER review_txid AFTER INSERT ON orders FOR EACH STATEMENT EXECUTE FUNCTION review_txid()'));
    try {
      const res = await Promise.all(
        Array.from({ length: 30 }, (_, i) => grouped(f.db, randomUUID(), { userId: users[i % 3]!, marketId: m.id, outcome: i % 2 ? 'YES' : 'NO', side: 'buy', price: 45 + (i % 9), quantity: 1, timeInForce: 'GTC' })),
      );
      expect(res.map((r) => r.status)).toEqual(res.map(() => 200));
      const rows = (await f.db.execute(sql.raw('SELECT tbl, xid::text AS xid FROM review_txids'))) as unknown as { rows: { tbl: string; xid: string }[] };
      const claimXids = new Set(rows.rows.filter((r) => r.tbl === 'idempotency_keys').map((r) => r.xid));
      const writeXids = rows.rows.filter((r) => r.tbl === 'orders').map((r) => r.xid);
      expect(writeXids.length).toBeGreaterThan(0);
      for (const x of writeXids) expect(claimXids.has(x), `orders written by transaction ${x}, which claimed no key`).toBe(true);
    } finally {
      for (const q of ['DROP TRIGGER review_txid ON idempotency_keys', 'DROP TRIGGER review_txid ON orders', 'DROP TABLE review_txids']) await f.db.execute(sql.raw(q));
    }
  });
});

describe('a group whose write statement fails (the last statement, sent with COMMIT on PostgreSQL)', () => {
  it('nothing of the group is kept, its orders are retried one by one (the bad one fails alone), and the next groups run on healthy connections', async () => {
    const m = await openTestMarket(admin, 'KXGB');
    const users = await Promise.all([0, 1, 2, 3].map(() => fundedUser(f, usdc, 1_000_000_000n)));
    await f.db.execute(sql.raw(`CREATE OR REPLACE FUNCTION review_fail_777() RETURNS trigger AS $$ BEGIN IF NEW.quantity = 777 THEN RAISE EXCEPTION 'order of 777 refused (test)'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`));
    await f.db.execute(sql.raw('CREATE TRIGGER review_fail_777 BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION review_fail_777()'));
    try {
      const input = (i: number, q: number): PlaceOrderInput => ({ userId: users[i % 4]!, marketId: m.id, outcome: i % 2 ? 'YES' : 'NO', side: 'buy', price: 45 + (i % 9), quantity: q, timeInForce: 'GTC' });
      const stats = { ...groupCommitStats };
      const keys = Array.from({ length: 21 }, () => randomUUID());
      const res = await Promise.allSettled(keys.map((k, i) => grouped(f.db, k, input(i, i === 10 ? 777 : 1 + (i % 3)))));
      expect(res[10]!.status).toBe('rejected');
      const ok = res.filter((_, i) => i !== 10).map((r) => (r.status === 'fulfilled' ? r.value.status : String(r.reason)));
      expect(ok).toEqual(ok.map(() => 200));
      expect(groupCommitStats.retriedGroups).toBeGreaterThan(stats.retriedGroups);
      const rows = await f.db.select().from(orders).where(eq(orders.marketId, m.id));
      expect(rows.length).toBe(20);
      expect(await f.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, keys[10]!))).toEqual([]);
      // Next bursts: grouped, no retry (the connections that saw the failed group are sound).
      for (let wave = 0; wave < 3; wave++) {
        const before = { ...groupCommitStats };
        const more = await Promise.all(Array.from({ length: 20 }, (_, i) => grouped(f.db, randomUUID(), input(i + wave, 1 + (i % 2)))));
        expect(more.map((r) => r.status)).toEqual(more.map(() => 200));
        expect(groupCommitStats.retriedGroups).toBe(before.retriedGroups);
      }
      expect((await f.db.select().from(orders).where(eq(orders.marketId, m.id))).length).toBe(80);
      expect(await checkLedgerInvariants(f.db)).toEqual([]);
    } finally {
      await f.db.execute(sql.raw('DROP TRIGGER review_fail_777 ON orders'));
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL: a key another transaction holds', () => {
  it('the group waits for it, then replays its answer (committed) or runs the order (rolled back); the group\'s other orders run; no deadlock', async () => {
    const m = await openTestMarket(admin, 'KXGB');
    const u = await fundedUser(f, usdc, 50_000_000n);
    const second = await openDatabase({ databaseUrl: s.config.databaseUrl });
    try {
      const input = (q: number): PlaceOrderInput => ({ userId: u, marketId: m.id, outcome: 'YES', side: 'buy', price: 30, quantity: q, timeInForce: 'GTC' });
      for (const outcome of ['commit', 'rollback'] as const) {
        const held = randomUUID();
        const free = randomUUID();
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        let inserted!: () => void;
        const claimed = new Promise<void>((r) => (inserted = r));
        const holder = second.db
          .transaction(async (tx) => {
            await tx.insert(idempotencyKeys).values({ key: held, method: 'POST', path: PATH, requestHash: requestHash(input(1)), expiresAt: sql`now() + interval '1 hour'` });
            inserted();
            await gate;
            if (outcome === 'rollback') throw new Error('rolled back (test)');
            await tx
              .update(idempotencyKeys)
              .set({ responseStatus: 200, responseBody: '{"success":true,"message":"from the holder"}', completedAt: sql`now()` })
              .where(and(eq(idempotencyKeys.key, held), eq(idempotencyKeys.path, PATH)));
          })
          .catch((e: Error) => e.message);
        await claimed;
        const calls = Promise.all([grouped(f.db, free, input(2)), grouped(f.db, held, input(1))]);
        await new Promise((r) => setTimeout(r, 300));
        release();
        const [a, b] = await calls;
        await holder;
        expect(a.status).toBe(200);
        if (outcome === 'commit') expect(b).toEqual({ status: 200, json: '{"success":true,"message":"from the holder"}', replayed: true });
        else expect({ status: b.status, replayed: b.replayed }).toEqual({ status: 200, replayed: false });
      }
      // A committed key without an answer (not written by this server, but the CHECK allows it): 409, the group's others run.
      const stuck = randomUUID();
      await f.db.insert(idempotencyKeys).values({ key: stuck, method: 'POST', path: PATH, requestHash: requestHash(input(5)), expiresAt: sql`now() + interval '1 hour'` });
      const [x, y] = await Promise.all([grouped(f.db, randomUUID(), input(4)), grouped(f.db, stuck, input(5))]);
      expect(x.status).toBe(200);
      expect(y.status).toBe(409);
      const rows = await f.db.select().from(orders).where(eq(orders.marketId, m.id));
      expect(rows.map((o) => o.quantity).sort()).toEqual([1, 2, 2, 4]);
      const [mk] = await f.db.select().from(markets).where(eq(markets.id, m.id));
      expect(mk!.bookToken).not.toBeNull();
      expect(await checkLedgerInvariants(f.db)).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
