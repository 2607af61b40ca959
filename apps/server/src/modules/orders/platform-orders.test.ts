import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders } from '../../db/schema.js';
import { balanceOf } from '../ledger/service.js';
import { checkLedgerInvariants } from '../ledger/invariants.js';
import { call, type TestServer } from '../../../test/helpers.js';
import { auditOf, expectRefused, fund, makeUser, newPlatformKey, platformCall, randomAddress, randomSignature, snapshot, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';
import { confirmDeposit, recordDeposit } from '../deposits/service.js';
import { placeOrder } from './service.js';
import { openTestMarket } from '../../../test/market-helpers.js';

/**
 * Orders over the platform API: idempotent placement and cancel, the market by ticker, and on
 * PostgreSQL concurrent buys against one balance and concurrent orders on one market.
 */
const KEY = newPlatformKey();
let s: TestServer;
let f: MoneyFixture;
let token: string;
let usdc: number;

moneyFile((m) => ({ f, s, token, usdc } = m), { platformKey: KEY });

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

describe('trading limits (max order size, max position per customer)', () => {
  const patch = (path: string, body: unknown) => call(s, 'PATCH', `/api/admin/${path}`, { token, body });
  const buy = (userId: number, market: string, quantity: number, outcome: 'YES' | 'NO' = 'YES', price = 40) =>
    platform('POST', 'orders', { userId: String(userId), market, outcome, side: 'buy', price, quantity, timeInForce: 'GTC' });

  it('a new market takes its series’ defaults unless given its own; an update changes or clears them (audited)', async () => {
    const n = randomUUID().slice(0, 6).toUpperCase().replace(/[^A-Z0-9]/g, 'X');
    const series = await admin('series', { ticker: `KXLIM${n}`, title: 'Limits series', frequency: 'daily', category: 'Crypto', settlementSource: 'The index at noon', defaultMaxPosition: 500, defaultMaxOrderSize: 100 });
    expect(series.status, JSON.stringify(series.body)).toBe(200);
    expect(series.body.result).toMatchObject({ defaultMaxPosition: 500, defaultMaxOrderSize: 100 });
    expect((await admin('series', { ticker: `KXLIMB${n}`, title: 'Bad limits', frequency: 'daily', category: 'Crypto', settlementSource: 'The index', defaultMaxPosition: 0 })).body.errors)
      .toEqual({ defaultMaxPosition: 'Default max position: at least 1 share, or empty for no limit' });
    const ev = await admin('events', { ticker: `KXLIM${n}-E`, title: 'Limits event', seriesId: series.body.result._id, openTime: new Date(Date.now() - 3_600_000).toISOString(), closeTime: new Date(Date.now() + 48 * 3_600_000).toISOString(), expectedResolutionTime: new Date(Date.now() + 50 * 3_600_000).toISOString() });
    expect(ev.status, JSON.stringify(ev.body)).toBe(200);
    const inherits = await admin('markets', { eventId: ev.body.result._id, ticker: `KXLIM${n}-A`, title: 'Inherits?', rules: 'Resolves YES if it happens.' });
    expect(inherits.body.result).toMatchObject({ maxPosition: 500, maxOrderSize: 100 });
    const own = await admin('markets', { eventId: ev.body.result._id, ticker: `KXLIM${n}-B`, title: 'Own limits?', rules: 'Resolves YES if it happens.', maxPosition: 50, maxOrderSize: null });
    expect(own.body.result).toMatchObject({ maxPosition: 50, maxOrderSize: null });
    const changed = await patch(`markets/${inherits.body.result._id}`, { maxPosition: 800, maxOrderSize: null });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.result).toMatchObject({ maxPosition: 800, maxOrderSize: null });
    const audit = await auditOf(f.db, 'markets', inherits.body.result._id);
    expect(audit.at(-1)).toMatchObject({ action: 'update', before: expect.objectContaining({ maxPosition: 500, maxOrderSize: 100 }), after: expect.objectContaining({ maxPosition: 800, maxOrderSize: null }) });
  });

  it('refuses an order over the max size and a buy past the max position with 409 naming the limit; sells and house accounts are not limited', async () => {
    const m = await openMarket();
    expect((await patch(`markets/${m.id}`, { maxPosition: 10, maxOrderSize: 8 })).status).toBe(200);
    const u = await makeUser(f);
    await fund(f, u.id, usdc, 50_000_000n);
    const before = await snapshot(f.db);
    const big = await buy(u.id, m.id, 9);
    expect(big.status).toBe(409);
    expect(big.body).toMatchObject({ message: `Orders on ${m.ticker} are limited to 8 shares`, errors: { quantity: `At most 8 shares per order on ${m.ticker}` } });
    expect(await snapshot(f.db)).toEqual(before);

    expect((await buy(u.id, m.id, 6)).status).toBe(200); // rests: 6 on order
    const past = await buy(u.id, m.id, 5);
    expect(past.status).toBe(409);
    expect(past.body).toMatchObject({ message: `A position on ${m.ticker} is limited to 10 shares of YES`, errors: { quantity: 'Holds 0 shares of YES and has 6 shares on order to buy: at most 4 more can be bought' } });
    expect((await buy(u.id, m.id, 4)).status).toBe(200);
    // The other outcome has its own room.
    expect((await buy(u.id, m.id, 8, 'NO', 30)).status).toBe(200);

    // A seller fills 7 of the resting YES bids: held 7, on order 3, so nothing more; selling is never limited.
    const seller = await makeUser(f);
    await fund(f, seller.id, usdc, 50_000_000n);
    const sold = await platform('POST', 'orders', { userId: String(seller.id), market: m.id, outcome: 'NO', side: 'buy', price: 60, quantity: 7, timeInForce: 'IOC' });
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    const full = await buy(u.id, m.id, 1);
    expect(full.body.errors).toEqual({ quantity: 'Holds 7 shares of YES and has 3 shares on order to buy: no more can be bought' });
    const sell = await platform('POST', 'orders', { userId: String(u.id), market: m.id, outcome: 'YES', side: 'sell', price: 90, quantity: 7, timeInForce: 'GTC' });
    expect(sell.status, JSON.stringify(sell.body)).toBe(200);

    // The platform's own (house) accounts are not limited: trade bots keep their own max position.
    const house = await makeUser(f);
    await fund(f, house.id, usdc, 50_000_000n);
    expect((await admin(`users/${house.id}/make-house`, { reason: 'Market maker for the limits test' })).status).toBe(200);
    expect((await buy(house.id, m.id, 40, 'YES', 20)).status).toBe(200);
    expect(await checkLedgerInvariants(f.db)).toEqual([]);

    // Liability: the house buys 3 YES, minted against u's NO bids at 30¢ (YES at 70¢, better than the
    // offered 90¢): 10 pairs back 10 USDC; the house paid 2.10 for shares paying 3 USDC if YES.
    const take = await platform('POST', 'orders', { userId: String(house.id), market: m.id, outcome: 'YES', side: 'buy', price: 95, quantity: 3, timeInForce: 'IOC' });
    expect(take.body.result, JSON.stringify(take.body)).toMatchObject({ status: 'filled' });
    const market = await call(s, 'GET', `/api/admin/markets/${m.id}`, { token });
    expect(market.body.result).toMatchObject({
      openInterest: 10, collateralText: '10 USDC', payoutIfYesText: '10 USDC', payoutIfNoText: '10 USDC', houseIfYesText: '0.9 USDC', houseIfNoText: '-2.1 USDC',
    });
    // Resting buys: u's 3 YES at 40 and 5 NO at 30, the house's 40 YES at 20, each with its fee room.
    expect(market.body.result.buyHoldsText).toMatch(/ USDC$/);
    const held = await call(s, 'GET', `/api/admin/open-positions?marketId=${m.id}&house=true`, { token });
    expect(held.body.result.items).toEqual([expect.objectContaining({ userId: String(house.id), house: true, botName: null, outcome: 'YES', quantity: 3, ifYesText: '0.9 USDC', ifNoText: '-2.1 USDC' })]);
    const liability = await call(s, 'GET', `/api/admin/markets?status=open,halted,closed&q=${m.ticker}`, { token });
    expect(liability.body.result.items.map((r: { ticker: string }) => r.ticker)).toEqual([m.ticker]);
  });

  it('the single-order path (as trade bots and retries take) checks the same limits', async () => {
    const m = await openMarket();
    expect((await patch(`markets/${m.id}`, { maxPosition: 5 })).status).toBe(200);
    const u = await makeUser(f);
    await fund(f, u.id, usdc, 50_000_000n);
    const input = { userId: u.id, marketId: Number(m.id), outcome: 'YES' as const, side: 'buy' as const, price: 40, quantity: 3, timeInForce: 'GTC' as const };
    await placeOrder(null, f.platform, input, f.db);
    await expectRefused(f, (tx) => placeOrder(tx, f.platform, input), { status: 409, errors: { quantity: 'Holds 0 shares of YES and has 3 shares on order to buy: at most 2 more can be bought' } });
    await placeOrder(null, f.platform, { ...input, quantity: 2 }, f.db);
  });
});

describe('surveillance: wash-trade candidates', () => {
  it('flags trades between one signup IP or one shared wallet, not unrelated parties, and lists them per market', async () => {
    const m = await openMarket();
    const userAt = async (signupIp: string) => {
      const u = await makeUser(f, { signupIp });
      await fund(f, u.id, usdc, 50_000_000n);
      return u;
    };
    const cross = async (maker: number, taker: number) => {
      expect((await platform('POST', 'orders', { userId: String(maker), market: m.id, outcome: 'YES', side: 'buy', price: 40, quantity: 1, timeInForce: 'GTC' })).status).toBe(200);
      const t = await platform('POST', 'orders', { userId: String(taker), market: m.id, outcome: 'NO', side: 'buy', price: 60, quantity: 1, timeInForce: 'IOC' });
      expect(t.body.result, JSON.stringify(t.body)).toMatchObject({ status: 'filled' });
    };
    const [a, b] = [await userAt('203.0.113.10'), await userAt('203.0.113.10')];
    const [c, d, e] = [await userAt('203.0.113.11'), await userAt('203.0.113.12'), await userAt('203.0.113.13')];
    // c and d both deposited from one wallet.
    const wallet = randomAddress();
    for (const u of [c, d]) {
      await f.db.transaction(async (tx) => {
        const dep = await recordDeposit(tx, f.platform, { userId: u.id, coin: usdc, amount: 1_000_000n, txSignature: randomSignature(), fromAddress: wallet });
        await confirmDeposit(tx, f.admin, dep.id);
      });
    }
    await cross(a.id, b.id);
    await cross(c.id, d.id);
    await cross(a.id, e.id);
    const list = await call(s, 'GET', `/api/admin/trades?marketId=${m.id}&washSignal=same_user,same_signup_ip,shared_wallet&sort=createdAt`, { token });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.result.items.map((t: { makerUserId: string; takerUserId: string; washSignal: string }) => [t.makerUserId, t.takerUserId, t.washSignal])).toEqual([
      [String(a.id), String(b.id), 'same_signup_ip'],
      [String(c.id), String(d.id), 'shared_wallet'],
    ]);
    const all = await call(s, 'GET', `/api/admin/trades?marketId=${m.id}`, { token });
    expect(all.body.result.items.find((t: { takerUserId: string }) => t.takerUserId === String(e.id))).toMatchObject({ washSignal: null });
    const csv = await call(s, 'GET', `/api/admin/trades/export?marketId=${m.id}&washSignal=same_signup_ip,shared_wallet`, { token });
    expect(csv.status).toBe(200);
    expect(csv.raw.trim().split('\n')).toHaveLength(3);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL', () => {
  it('50 concurrent buys of one customer never pass the max position (group and single paths)', async () => {
    const m = await openMarket();
    expect((await call(s, 'PATCH', `/api/admin/markets/${m.id}`, { token, body: { maxPosition: 20 } })).status).toBe(200);
    const u = await makeUser(f);
    await fund(f, u.id, usdc, 500_000_000n);
    const input = { userId: u.id, marketId: Number(m.id), outcome: 'YES' as const, side: 'buy' as const, price: 40, quantity: 1, timeInForce: 'GTC' as const };
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2
          ? platform('POST', 'orders', { userId: String(u.id), market: m.id, outcome: 'YES', side: 'buy', price: 40, quantity: 1, timeInForce: 'GTC' }).then((r) => r.status)
          : placeOrder(null, f.platform, input, f.db).then(() => 200, (e: { status?: number }) => e.status ?? 500),
      ),
    );
    expect(results.filter((r) => r !== 200 && r !== 409)).toEqual([]);
    expect(results.filter((r) => r === 200).length).toBe(20);
    const [row] = await f.db.select({ n: count() }).from(orders).where(eq(orders.userId, u.id));
    expect(Number(row!.n)).toBe(20);
    expect(await checkLedgerInvariants(f.db)).toEqual([]);
  });

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
