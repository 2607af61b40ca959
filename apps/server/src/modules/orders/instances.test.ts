
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { orders } from '../../db/schema.js';
import { openDatabase, queryRows } from '../../db/client.js';
import { checkLedgerInvariants } from '../ledger/invariants.js';
import { call, type TestServer } from '../../../test/helpers.js';
import { newPlatformKey, platformCall, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';
import { fundedUser, openTestMarket } from '../../../test/market-helpers.js';
import { cancelOrder, dropCachedBooks, placeOrder, restingOrders } from './service.js';

/*
 * One book per market across instances (docs/markets.md, "Orders and trades"): every command takes the
 * market's row and advisory locks in its transaction, and an instance trusts its cached book only
 * while its token is the market row's. So there is no owner to hand over: when an instance dies
 * (its connections cut mid-command), its transaction rolls back, its locks go with it, and the
 * next command on any instance reads the committed book. These tests show it, and the rules
 * around it: a halted market refuses orders but takes cancels; an order and a cancel racing on
 * one order leave exactly one outcome.
 */
const KEY = newPlatformKey();
const onPostgres = !!process.env.TEST_DATABASE_URL;
let s: TestServer;
let f: MoneyFixture;
let token: string;
let usdc: number;

moneyFile((m) => ({ f, s, token, usdc } = m), { platformKey: KEY });

const admin = (path: string, body: unknown = {}) => call(s, 'POST', `/api/admin/${path}`, { token, body });
const platform = (method: 'POST' | 'DELETE', path: string, body?: unknown) => platformCall(s, KEY, method, path, { body });

const openMarket = async () => (await openTestMarket(admin, 'KXIN')).id;

const trader = () => fundedUser(f, usdc, 100_000_000n);

describe('one book across instances', () => {
  it('a halted market refuses new orders and still takes cancels; resumed, it trades again', async () => {
    const m = await openMarket();
    const [a, b] = [await trader(), await trader()];
    const resting = await platform('POST', 'orders', { userId: String(a), market: String(m), outcome: 'YES', side: 'buy', price: 40, quantity: 5, timeInForce: 'GTC' });
    expect(resting.status, JSON.stringify(resting.body)).toBe(200);
    expect((await admin(`markets/${m}/halt`, { reasonCode: 'incident' })).status).toBe(200);
    const refused = await platform('POST', 'orders', { userId: String(b), market: String(m), outcome: 'NO', side: 'buy', price: 60, quantity: 5, timeInForce: 'GTC' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/halted/);
    const cancelled = await platform('DELETE', `orders/${resting.body.result._id}`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.result.status).toBe('cancelled');
    expect((await admin(`markets/${m}/resume`)).status).toBe(200);
    expect((await platform('POST', 'orders', { userId: String(b), market: String(m), outcome: 'NO', side: 'buy', price: 60, quantity: 5, timeInForce: 'GTC' })).status).toBe(200);
  });

  it.skipIf(!onPostgres)('an order that would fill a resting order and a cancel of it, racing, leave one outcome each time', async () => {
    const m = await openMarket();
    const [maker, taker] = [await trader(), await trader()];
    for (let round = 0; round < 12; round++) {
      const rest = await placeOrder(null, f.platform, { userId: maker, marketId: m, outcome: 'NO', side: 'buy', price: 60, quantity: 3, timeInForce: 'GTC' }, f.db);
      const [take, cancel] = await Promise.allSettled([
        placeOrder(null, f.platform, { userId: taker, marketId: m, outcome: 'YES', side: 'buy', price: 40, quantity: 3, timeInForce: 'IOC' }, f.db),
        f.db.transaction((tx) => cancelOrder(tx, f.platform, { orderId: rest.order.id })),
      ]);
      const [row] = await f.db.select().from(orders).where(eq(orders.id, rest.order.id));
      expect(take.status).toBe('fulfilled');
      const took = take.status === 'fulfilled' ? take.value.order.filled : -1;
      if (cancel.status === 'fulfilled') {
        // The cancel went first: nothing traded, the IOC found an empty book.
        expect(row!.status).toBe('cancelled');
        expect(took).toBe(0);
      } else {
        // The fill went first: the cancel found a filled order (409), never half of each.
        expect(row!.status).toBe('filled');
        expect(took).toBe(3);
        expect(String(cancel.reason)).toMatch(/only an open order can be cancelled/);
      }
    }
    expect(await checkLedgerInvariants(f.db)).toEqual([]);
  });

  it.skipIf(!onPostgres)('an instance whose connections die mid-command loses nothing committed; the other instance goes on with the same book', async () => {
    const m = await openMarket();
    const [a, b] = [await trader(), await trader()];
    const other = await openDatabase({ databaseUrl: s.config.databaseUrl });
    try {
      // The other instance places resting orders: acknowledged, hence committed.
      const acknowledged: number[] = [];
      for (let i = 0; i < 5; i++) {
        acknowledged.push((await placeOrder(null, f.platform, { userId: a, marketId: m, outcome: 'YES', side: 'buy', price: 30 + i, quantity: 2, timeInForce: 'GTC' }, other.db)).order.id);
      }
      // It starts a command on the market and dies holding its locks: the connection is cut.
      let pid = 0;
      const dying = other.db
        .transaction(async (tx) => {
          [{ pid }] = (await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`)) as [{ pid: number }];
          await tx.execute(sql`select id from markets where id = ${m} for no key update`);
          await tx.execute(sql`select pg_advisory_xact_lock(7301, ${m}::int)`);
          await tx.execute(sql`select pg_sleep(30)`);
        })
        .catch((err: Error) => err);
      while (!pid) await new Promise((r) => setTimeout(r, 20));
      // This instance's command waits for the market…
      const waiting = placeOrder(null, f.platform, { userId: b, marketId: m, outcome: 'NO', side: 'buy', price: 66, quantity: 4, timeInForce: 'GTC' }, f.db);
      await new Promise((r) => setTimeout(r, 200));
      // …until the other instance's connection dies (its transaction rolls back, its locks go).
      const killer = new pg.Client({ connectionString: s.config.databaseUrl });
      await killer.connect();
      await killer.query('select pg_terminate_backend($1)', [pid]);
      await killer.end();
      expect(await dying).toBeInstanceOf(Error);
      const placed = await waiting;
      // The NO buy at 66 meets the YES bid at 34: a mint of 2 pairs, then rests with 2.
      expect(placed.trades).toBe(1);
      expect(placed.order.filled).toBe(2);

      // Nothing acknowledged was lost: the book this process holds equals the one a fresh process rebuilds.
      const inMemory = await restingOrders(f.db, m);
      dropCachedBooks();
      expect(await restingOrders(f.db, m)).toEqual(inMemory);
      const ids = new Set(inMemory.map((o) => o.id));
      for (const id of acknowledged.filter((x) => x !== acknowledged[4])) expect(ids.has(id)).toBe(true);
      expect(ids.has(placed.order.id)).toBe(true);
      expect(await checkLedgerInvariants(f.db)).toEqual([]);
    } finally {
      await other.close().catch(() => undefined);
    }
  });
});
