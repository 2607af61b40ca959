import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerAccounts, markets, orders, positions, trades } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { balanceOf, platformBalance } from '../ledger/service.js';
import { call, makeSubAdmin, } from '../../../test/helpers.js';
import { randomAddress, setSiteSettings, snapshot, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';
import { requestWithdrawal } from '../withdrawals/service.js';
import { fundedUser, openTestMarket } from '../../../test/market-helpers.js';
import { sweepExpiredOrders } from './expiry.js';
import { dropCachedBooks, placeOrder, restingOrders, cancelOrder, type PlaceOrderInput } from './service.js';

/**
 * Orders through the engine, on the ledger: each time in force, the money of each fill kind to the
 * unit, refusals that change nothing, cancel, close, GTD expiry by the job, the book rebuilt from
 * the database, and a rolled-back command leaving the book as committed.
 */
let f: MoneyFixture;
let token: string;
let usdc: number;
const U = 10_000n; // minor units per cent (USDC, 6 decimals)
const HOUR = 3_600_000;

moneyFile((m) => ({ f, token, usdc } = m), { fees: { takerFeeBps: 100, makerFeeBps: 0 } });

const post = (path: string, body: unknown = {}) => call(f.s, 'POST', `/api/admin/${path}`, { token, body });

const openMarket = async () => (await openTestMarket(post, 'KXORD')).id;

const funded = (amount = 100_000_000n) => fundedUser(f, usdc, amount);

const place = (marketId: number, userId: number, o: Partial<PlaceOrderInput> & Pick<PlaceOrderInput, 'outcome' | 'side' | 'price' | 'quantity'>) =>
  placeOrder(null, f.platform, { marketId, userId, timeInForce: 'GTC', ...o }, f.db);

const bal = (userId: number) => balanceOf(f.db, userId, usdc);
const collateral = () => platformBalance(f.db, 'market_collateral', usdc);
const fees = () => platformBalance(f.db, 'fees_income', usdc);

async function refused(p: Promise<unknown>, status: number, message?: RegExp) {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).status).toBe(status);
  if (message) expect((err as AppError).message).toMatch(message);
}

describe('money per fill kind, exact to the unit', () => {
  it('mint: a YES buyer and a NO buyer pay 100 cents per pair into collateral; the taker pays the fee; unused holds are released', async () => {
    const m = await openMarket();
    const a = await funded();
    const b = await funded();
    const [c0, f0] = [await collateral(), await fees()];
    const first = await place(m, a, { outcome: 'YES', side: 'buy', price: 40, quantity: 10 });
    expect(first.order, first.order.reason ?? '').toMatchObject({ status: 'open', held: 10n * 41n * U }); // 40¢ + 1¢ max fee per share
    expect(await bal(a)).toEqual({ available: 100_000_000n - 4_100_000n, held: 4_100_000n });
    const second = await place(m, b, { outcome: 'NO', side: 'buy', price: 60, quantity: 10 });
    expect(second.order).toMatchObject({ status: 'filled', filled: 10, remaining: 0, held: 0n, fees: 30_000n }); // ceil(1% × 10 × .4 × .6 $) = 3¢
    expect(await bal(a)).toEqual({ available: 100_000_000n - 4_000_000n, held: 0n });
    expect(await bal(b)).toEqual({ available: 100_000_000n - 6_000_000n - 30_000n, held: 0n });
    expect(await collateral()).toBe(c0 + 10_000_000n);
    expect(await fees()).toBe(f0 + 30_000n);
    const [t] = await f.db.select().from(trades).where(eq(trades.marketId, m));
    expect(t).toMatchObject({ kind: 'mint', price: 40, quantity: 10, makerUserId: a, takerUserId: b, makerFee: 0n, takerFee: 30_000n });
    const [mk] = await f.db.select().from(markets).where(eq(markets.id, m));
    expect(mk).toMatchObject({ volume: 10, openInterest: 10, lastPrice: 40 });
    const pos = await f.db.select().from(positions).where(eq(positions.marketId, m));
    expect(pos.find((p) => p.userId === a)).toMatchObject({ outcome: 'YES', quantity: 10, cost: 4_000_000n, status: 'open' });
    expect(pos.find((p) => p.userId === b)).toMatchObject({ outcome: 'NO', quantity: 10, cost: 6_000_000n });

    // transfer: A sells 4 YES at 45 (resting), C buys at 50 and pays 45 (the maker's price) + fee.
    const c = await funded();
    const sell = await place(m, a, { outcome: 'YES', side: 'sell', price: 45, quantity: 4 });
    expect(sell.order.status).toBe('open');
    const [c1, f1] = [await collateral(), await fees()];
    const buy = await place(m, c, { outcome: 'YES', side: 'buy', price: 50, quantity: 4 });
    expect(buy.order).toMatchObject({ status: 'filled', fees: 10_000n }); // ceil(1% × 4 × .45 × .55 $) = 1¢
    expect(await bal(c)).toEqual({ available: 100_000_000n - 1_800_000n - 10_000n, held: 0n });
    expect(await bal(a)).toEqual({ available: 100_000_000n - 4_000_000n + 1_800_000n, held: 0n });
    expect(await collateral()).toBe(c1);
    expect(await fees()).toBe(f1 + 10_000n);
    const [pa] = await f.db.select().from(positions).where(eq(positions.userId, a));
    expect(pa).toMatchObject({ quantity: 6, reserved: 0, cost: 2_400_000n, realizedPnl: 200_000n });

    // merge: A sells 3 YES at 30 (resting), B sells 3 NO at 70: a pair is burnt, 100¢ each released.
    await place(m, a, { outcome: 'YES', side: 'sell', price: 30, quantity: 3 });
    const [c2, f2] = [await collateral(), await fees()];
    const merge = await place(m, b, { outcome: 'NO', side: 'sell', price: 70, quantity: 3 });
    expect(merge.order).toMatchObject({ status: 'filled', fees: 10_000n }); // ceil(1% × 3 × .3 × .7 $) = 1¢
    expect(await bal(a)).toEqual({ available: 100_000_000n - 4_000_000n + 1_800_000n + 900_000n, held: 0n });
    expect(await bal(b)).toEqual({ available: 100_000_000n - 6_030_000n + 2_100_000n - 10_000n, held: 0n });
    expect(await collateral()).toBe(c2 - 3_000_000n);
    expect(await fees()).toBe(f2 + 10_000n);
    const kinds = (await f.db.select().from(trades).where(eq(trades.marketId, m))).map((t) => t.kind);
    expect(kinds).toEqual(['mint', 'transfer', 'merge']);
    expect((await f.db.select().from(markets).where(eq(markets.id, m)))[0]).toMatchObject({ openInterest: 7, volume: 17, lastPrice: 30 });
  });
});

describe('time in force and post-only', () => {
  it('IOC never rests; FOK fills all or nothing; post-only is rejected when it would cross', async () => {
    const m = await openMarket();
    const a = await funded();
    const b = await funded();
    const ioc = await place(m, a, { outcome: 'YES', side: 'buy', price: 50, quantity: 5, timeInForce: 'IOC' });
    expect(ioc.order).toMatchObject({ status: 'cancelled', reason: 'IOC_REMAINDER', held: 0n, remaining: 0 });
    expect(await bal(a)).toEqual({ available: 100_000_000n, held: 0n });

    await place(m, b, { outcome: 'NO', side: 'buy', price: 45, quantity: 2 }); // rests as an ask at YES 55
    const fokShort = await place(m, a, { outcome: 'YES', side: 'buy', price: 60, quantity: 5, timeInForce: 'FOK' });
    expect(fokShort.order).toMatchObject({ status: 'cancelled', reason: 'FOK_NOT_FILLED', filled: 0 });
    expect(fokShort.trades).toBe(0);
    const fok = await place(m, a, { outcome: 'YES', side: 'buy', price: 60, quantity: 2, timeInForce: 'FOK' });
    expect(fok.order).toMatchObject({ status: 'filled', filled: 2 });

    await place(m, b, { outcome: 'NO', side: 'buy', price: 45, quantity: 2 });
    const before = await bal(a);
    const post = await place(m, a, { outcome: 'YES', side: 'buy', price: 56, quantity: 1, postOnly: true });
    expect(post.order).toMatchObject({ status: 'rejected', reason: 'POST_ONLY_WOULD_CROSS', held: 0n });
    expect(post.message).toMatch(/post-only/);
    expect(await bal(a)).toEqual(before);
    const resting = await place(m, a, { outcome: 'YES', side: 'buy', price: 54, quantity: 1, postOnly: true });
    expect(resting.order.status).toBe('open');
    await refused(place(m, a, { outcome: 'YES', side: 'buy', price: 54, quantity: 1, timeInForce: 'IOC', postOnly: true }), 400);
  });

  it('a GTD order expires by the expiry job, its hold released, with nobody else trading', async () => {
    const m = await openMarket();
    const a = await funded();
    const gtd = await place(m, a, { outcome: 'YES', side: 'buy', price: 20, quantity: 3, timeInForce: 'GTD', expiresAt: new Date(Date.now() + 60_000) });
    expect(gtd.order.status).toBe('open');
    expect((await bal(a)).held).toBe(3n * 21n * U);
    expect(await sweepExpiredOrders(f.db, new Date(Date.now() + 30_000))).toBe(0);
    expect(await sweepExpiredOrders(f.db, new Date(Date.now() + 61_000))).toBe(1);
    const [row] = await f.db.select().from(orders).where(eq(orders.id, gtd.order.id));
    expect(row).toMatchObject({ status: 'expired', held: 0n, remaining: 0 });
    expect(await bal(a)).toEqual({ available: 100_000_000n, held: 0n });
    expect(await restingOrders(f.db, m)).toEqual([]);
    await refused(place(m, a, { outcome: 'YES', side: 'buy', price: 20, quantity: 3, timeInForce: 'GTD' }), 400);
  });
});

describe('refusals change nothing', () => {
  it('a buy beyond the available balance is a 409; a sell without free shares is a 409; a closed market takes no orders', async () => {
    const m = await openMarket();
    const poor = await funded(1_000_000n); // 1 USDC
    const before = await snapshot(f.db);
    await refused(place(m, poor, { outcome: 'YES', side: 'buy', price: 50, quantity: 2 }), 409, /Insufficient balance/);
    await refused(place(m, poor, { outcome: 'NO', side: 'sell', price: 50, quantity: 1 }), 409, /Not enough NO shares/);
    expect(await snapshot(f.db)).toEqual(before);
    expect(await f.db.select().from(orders).where(eq(orders.marketId, m))).toEqual([]);
    // Shares already offered cannot be offered again.
    const a = await funded();
    const b = await funded();
    await place(m, a, { outcome: 'YES', side: 'buy', price: 50, quantity: 2 });
    await place(m, b, { outcome: 'NO', side: 'buy', price: 50, quantity: 2 });
    await place(m, a, { outcome: 'YES', side: 'sell', price: 90, quantity: 2 });
    await refused(place(m, a, { outcome: 'YES', side: 'sell', price: 80, quantity: 1 }), 409, /Not enough YES shares/);
    expect((await post(`markets/${m}/halt`, { reasonCode: 'incident' })).status).toBe(200);
    await refused(place(m, a, { outcome: 'YES', side: 'buy', price: 10, quantity: 1 }), 409, /halted: only an open market/);
  });
});

describe('cancel, close, durability', () => {
  it('cancel releases the hold; closing the market cancels every resting order and releases holds and shares', async () => {
    const m = await openMarket();
    const a = await funded();
    const b = await funded();
    const o = await place(m, a, { outcome: 'YES', side: 'buy', price: 30, quantity: 10 });
    const cancelled = await f.db.transaction((tx) => cancelOrder(tx, f.platform, { orderId: o.order.id, userId: a }));
    expect(cancelled).toMatchObject({ status: 'cancelled', reason: 'USER', held: 0n });
    expect(await bal(a)).toEqual({ available: 100_000_000n, held: 0n });
    await refused(f.db.transaction((tx) => cancelOrder(tx, f.platform, { orderId: o.order.id })), 409, /cancelled: only an open order/);
    await refused(f.db.transaction((tx) => cancelOrder(tx, f.platform, { orderId: o.order.id, userId: b })), 404);

    await place(m, a, { outcome: 'YES', side: 'buy', price: 50, quantity: 4 });
    await place(m, b, { outcome: 'NO', side: 'buy', price: 50, quantity: 4 });
    await place(m, a, { outcome: 'YES', side: 'buy', price: 20, quantity: 5 });
    await place(m, b, { outcome: 'NO', side: 'sell', price: 90, quantity: 3 });
    const res = await post(`markets/${m}/close`, { confirm: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const live = await f.db.select().from(orders).where(eq(orders.marketId, m));
    expect(live.filter((x) => x.status === 'open' || x.status === 'partially_filled')).toEqual([]);
    expect(live.filter((x) => x.reason === 'CLOSED')).toHaveLength(2);
    expect((await bal(a)).held).toBe(0n);
    const [pb] = await f.db.select().from(positions).where(eq(positions.userId, b));
    expect(pb).toMatchObject({ quantity: 4, reserved: 0 });
  });

  it('the book rebuilt from the database (as after a restart) matches, and a rolled-back command leaves no trace in it', async () => {
    const m = await openMarket();
    const users = [await funded(), await funded(), await funded()];
    let k = 0;
    for (const price of [30, 35, 40, 40, 45]) await place(m, users[k++ % 3]!, { outcome: 'YES', side: 'buy', price, quantity: 3 });
    for (const price of [60, 55, 52]) await place(m, users[k++ % 3]!, { outcome: 'NO', side: 'buy', price: 100 - price, quantity: 2 });
    await place(m, users[0]!, { outcome: 'NO', side: 'buy', price: 60, quantity: 4, timeInForce: 'GTD', expiresAt: new Date(Date.now() + HOUR) });
    const before = await restingOrders(f.db, m);
    expect(before.length).toBeGreaterThan(5);
    dropCachedBooks();
    expect(await restingOrders(f.db, m)).toEqual(before);

    // A command whose transaction fails after the book took it: the next command sees the committed book.
    const err = await f.db
      .transaction(async (tx) => {
        await placeOrder(tx, f.platform, { marketId: m, userId: users[1]!, outcome: 'YES', side: 'buy', price: 44, quantity: 1, timeInForce: 'GTC' });
        throw new Error('boom');
      })
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe('boom');
    expect(await restingOrders(f.db, m)).toEqual(before);
  });
});

describe('the dashboard', () => {
  it('tells funds held for withdrawals from what resting buy orders hold; together they are the held balances', async () => {
    type Card = { key: string; value: number; text?: string };
    const cards = async (as = token) => (await call(f.s, 'GET', '/api/admin/dashboard', { token: as })).body.result.cards as Card[];
    // The USDC part of a card's text ("12.5 USDC · 3 SOL"), in minor units.
    const usdcOf = (list: Card[], key: string) => {
      const m = / ?([\d.]+) USDC/.exec(list.find((c) => c.key === key)?.text ?? '');
      if (!m) return 0n;
      const [whole, frac = ''] = m[1]!.split('.');
      return BigInt(whole! + frac.padEnd(6, '0'));
    };
    await setSiteSettings(f.db, { withdrawalsEnabled: true });
    const before = await cards();
    const m = await openMarket();
    const buyer = await funded();
    const bid = await place(m, buyer, { outcome: 'YES', side: 'buy', price: 40, quantity: 10 });
    const [resting] = await f.db.select().from(orders).where(eq(orders.id, bid.order.id));
    expect(resting!.held).toBeGreaterThan(0n);
    const w = await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: buyer, coin: usdc, amount: 3_000_000n, toAddress: randomAddress() }));
    const after = await cards();
    // Each card grows by exactly what its cause holds: the withdrawal's amount + fee is not collateral, the bid's hold is not a withdrawal.
    expect(usdcOf(after, 'fundsHeld') - usdcOf(before, 'fundsHeld')).toBe(w.amount + w.fee);
    expect(usdcOf(after, 'orderHolds') - usdcOf(before, 'orderHolds')).toBe(resting!.held);
    // Together they are what the ledger's held accounts hold.
    const [held] = await f.db
      .select({ total: sql<string>`coalesce(sum(${ledgerAccounts.balance}), 0)::text` })
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.bucket, 'held'), eq(ledgerAccounts.coinId, usdc)));
    expect(usdcOf(after, 'fundsHeld') + usdcOf(after, 'orderHolds')).toBe(BigInt(held!.total));
    // Each card to the admins who may view its source only.
    const finance = await makeSubAdmin(f.s, [{ name: 'Withdraw', canView: true, canEdit: false }], token);
    const trading = await makeSubAdmin(f.s, [{ name: 'Trade History', canView: true, canEdit: false }], token);
    expect((await cards(finance.token)).map((c) => c.key)).toEqual(expect.arrayContaining(['fundsHeld']));
    expect((await cards(finance.token)).map((c) => c.key)).not.toContain('orderHolds');
    expect((await cards(trading.token)).map((c) => c.key)).toEqual(expect.arrayContaining(['orderHolds']));
    expect((await cards(trading.token)).map((c) => c.key)).not.toContain('fundsHeld');
  });
});
