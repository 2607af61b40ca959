import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders, positions, tradeBots } from '../../db/schema.js';
import { call, makeSubAdmin, } from '../../../test/helpers.js';
import { type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';
import { fundedUser, openTestMarket } from '../../../test/market-helpers.js';
import { balanceOf } from '../ledger/service.js';
import { placeOrder } from '../orders/service.js';
import { LIVE_ORDER_STATUSES } from '../orders/table.js';
import { runTradeBots } from './job.js';
import { fairOf, insideBook, wantedQuotes } from './service.js';

/**
 * Trade bots: quoting through the order service when started (the job's tick driven directly with
 * its clock), the max position, markets that halt or close, the stop action, the record's figures,
 * rights and validation.
 */
let f: MoneyFixture;
let token: string;
let usdc: number;
const U = 10_000n; // minor units per cent (USDC, 6 decimals)
let seq = 0;
/**
 * The job's clock: each tick `seconds` after the last one (or after now, for a bot just started at
 * the real time), so a bot is due exactly when its interval has passed.
 */
let clock = 0;
const later = (seconds: number) => {
  clock = Math.max(clock, Date.now()) + seconds * 1000;
  return new Date(clock);
};

moneyFile((m) => ({ f, token, usdc } = m), { fees: { takerFeeBps: 100, makerFeeBps: 0 } });

const post = (path: string, body: unknown = {}, as = token) => call(f.s, 'POST', `/api/admin/${path}`, { token: as, body });
const get = (path: string, as = token) => call(f.s, 'GET', `/api/admin/${path}`, { token: as });

const openMarket = async () => (await openTestMarket(post, 'KXBOT')).id;

const funded = (amount = 1_000_000_000n) => fundedUser(f, usdc, amount);
/** A funded user made a house account through the users' action (a bot trades only as one). */
const houseUser = async (amount = 1_000_000_000n) => {
  const id = await funded(amount);
  const res = await post(`users/${id}/make-house`, { reason: 'Market-making account' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return id;
};

/** Creates a bot through the API (defaults: last trade starting at 50¢, spread 4, 2 levels of 10, max 100, every 10 s) and starts it. */
async function startedBot(body: Record<string, unknown>) {
  const userId = (body.userId as number | undefined) ?? (await houseUser());
  const res = await post('trade-bots', { name: `Bot ${++seq}`, spread: 4, size: 10, levels: 2, maxPosition: 100, refreshSeconds: 10, ...body, userId: String(userId) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = res.body.result._id as string;
  const started = await post(`trade-bots/${id}/start`);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  expect(started.body.result.status).toBe('running');
  return { id, userId };
}

const liveOf = (userId: number, marketId?: number) =>
  f.db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), inArray(orders.status, [...LIVE_ORDER_STATUSES]), marketId === undefined ? undefined : eq(orders.marketId, marketId)))
    .orderBy(orders.id);
const quotes = async (userId: number, marketId: number) =>
  (await liveOf(userId, marketId)).map((o) => `${o.side} ${o.outcome} ${o.remaining}@${o.price}`).sort();
const tick = async (seconds: number) => {
  const report = await runTradeBots(f.db, later(seconds));
  expect(report).not.toBeNull();
  return report!;
};

describe('quoting', () => {
  it('a started bot quotes a fresh market at its first tick, then refreshes when its interval has passed', async () => {
    const m = await openMarket();
    const bot = await startedBot({ marketIds: [String(m)] });
    expect(await quotes(bot.userId, m)).toEqual([]);
    const first = await tick(1);
    expect(first.refreshed.map((r) => r.botId)).toContain(Number(bot.id));
    // No trade yet: around the starting price 50 with spread 4, two levels of 10: YES bids 48, 47; asks 52, 53 as NO bids 48, 47.
    expect(await quotes(bot.userId, m)).toEqual(['buy NO 10@47', 'buy NO 10@48', 'buy YES 10@47', 'buy YES 10@48']);
    const rec = (await get(`trade-bots/${bot.id}`)).body.result;
    expect(rec).toMatchObject({ status: 'running', openOrders: 4, fills: 0, lastError: null, marketIds: [String(m)] });
    expect(rec.markets).toEqual([expect.stringMatching(/^KXBOT-M[0-9A-F]+$/)]);
    expect(rec.lastRunSummary).toMatch(/1 open market: 4 placed, 0 cancelled, 0 kept/);

    // Within the interval nothing is due; once it has passed the quotes are checked and kept as they are.
    const early = await tick(5);
    expect(early.refreshed.find((r) => r.botId === Number(bot.id))).toBeUndefined();
    const due = await tick(5);
    expect(due.refreshed.find((r) => r.botId === Number(bot.id))?.stats).toMatchObject({ markets: 1, placed: 0, cancelled: 0, kept: 4 });
    expect(await quotes(bot.userId, m)).toEqual(['buy NO 10@47', 'buy NO 10@48', 'buy YES 10@47', 'buy YES 10@48']);

    // The bot's orders are everyone's orders: the order history filtered by its user lists them.
    const list = await get(`orders?userId=${bot.userId}&marketId=${m}`);
    expect(list.body.result.total).toBe(4);
    await post(`trade-bots/${bot.id}/stop`);
  });

  it('follows the last trade, and sells the shares it holds instead of buying the other side', async () => {
    const m = await openMarket();
    const bot = await startedBot({ marketIds: [String(m)], spread: 2, levels: 1, size: 10 });
    await tick(1);
    expect(await quotes(bot.userId, m)).toEqual(['buy NO 10@49', 'buy YES 10@49']);
    // A taker sells YES exposure into the bot's bid: it buys NO at 51, which mints against the YES bid at 49.
    const taker = await funded();
    await placeOrder(null, f.platform, { userId: taker, marketId: m, outcome: 'NO', side: 'buy', price: 51, quantity: 4, timeInForce: 'IOC' }, f.db);
    await tick(10);
    // Last trade 49: bid 48, ask 50; the ask sells the 4 YES held first, the rest buys NO at 50.
    expect(await quotes(bot.userId, m)).toEqual(['buy NO 6@50', 'buy YES 10@48', 'sell YES 4@50']);
    await post(`trade-bots/${bot.id}/stop`);
  });

  it('never trades into the book: before any trade it quotes around the middle, and a price off the book moves that side inside it', async () => {
    // Someone bids 37 (YES) and asks 39 (a NO bid at 61): no trade yet.
    const m = await openMarket();
    const trader = await funded();
    for (const o of [{ outcome: 'YES', price: 37 }, { outcome: 'NO', price: 61 }] as const) {
      await placeOrder(null, f.platform, { userId: trader, marketId: m, side: 'buy', quantity: 100, timeInForce: 'GTC', ...o }, f.db);
    }
    // Last trade, starting at 50: the middle of the book (38) instead, spread 4: bids 36, 35; asks 40, 41.
    const last = await startedBot({ marketIds: [String(m)] });
    await tick(1);
    expect(await quotes(last.userId, m)).toEqual(['buy NO 10@59', 'buy NO 10@60', 'buy YES 10@35', 'buy YES 10@36']);
    await post(`trade-bots/${last.id}/stop`);
    // A fixed 50 would bid 48, 47 into the ask at 39: its bids move to 38, 37 (its asks 52, 53 stay); nothing trades.
    const fixed = await startedBot({ marketIds: [String(m)], fairSource: 'fixed', fairPrice: 50 });
    const report = await tick(1);
    expect(report.refreshed.find((r) => r.botId === Number(fixed.id))?.stats).toMatchObject({ placed: 4, errors: [] });
    expect(await quotes(fixed.userId, m)).toEqual(['buy NO 10@47', 'buy NO 10@48', 'buy YES 10@37', 'buy YES 10@38']);
    expect((await liveOf(fixed.userId, m)).every((o) => o.postOnly && o.remaining === o.quantity)).toBe(true);
    expect(await quotes(trader, m)).toEqual(['buy NO 100@61', 'buy YES 100@37']);
    await post(`trade-bots/${fixed.id}/stop`);
  });

  it('respects its max position: bids and asks never add up past it, and a full position leaves one side unquoted', async () => {
    const m = await openMarket();
    const bot = await startedBot({ marketIds: [String(m)], fairSource: 'fixed', fairPrice: 50, spread: 2, size: 10, levels: 3, maxPosition: 15 });
    await tick(1);
    // 15 a side: 10 at the best level, 5 at the next, none at the third.
    expect(await quotes(bot.userId, m)).toEqual(['buy NO 10@49', 'buy NO 5@48', 'buy YES 10@49', 'buy YES 5@48']);
    // A taker hits every bid: the bot is long 15 YES, its limit.
    const taker = await funded();
    const hit = await placeOrder(null, f.platform, { userId: taker, marketId: m, outcome: 'NO', side: 'buy', price: 60, quantity: 50, timeInForce: 'IOC' }, f.db);
    expect(hit.order.filled).toBe(15);
    const [yes] = await f.db.select().from(positions).where(and(eq(positions.userId, bot.userId), eq(positions.marketId, m), eq(positions.outcome, 'YES')));
    expect(yes!.quantity).toBe(15);
    await tick(10);
    // No bid any more; 30 offered (max + net): the 15 YES held, then NO bids.
    const q = await quotes(bot.userId, m);
    expect(q).toEqual(['buy NO 10@47', 'buy NO 5@48', 'sell YES 10@51', 'sell YES 5@52']);
    expect(q.filter((x) => x.startsWith('buy YES') || x.startsWith('sell NO'))).toEqual([]);

    // Its figures: 2 fills, 15 YES at 49 and 48, marked at the last trade (48).
    const rec = (await get(`trade-bots/${bot.id}`)).body.result;
    const cost = (10n * 49n + 5n * 48n) * U;
    expect(rec).toMatchObject({ fills: 2, volume: 15, yesShares: 15, noShares: 0, openOrders: 4, realizedPnl: '0', feesPaid: '0' });
    expect(rec.unrealizedPnl).toBe(String(15n * 48n * U - cost));
    expect(rec.totalPnl).toBe(String(15n * 48n * U - cost));
    expect(rec.totalPnlText).toBe('-0.1 USDC');
    await post(`trade-bots/${bot.id}/stop`);
  });

  it('the pure ladder: net position and holdings decide each quote', () => {
    const p = { spread: 4, size: 10, levels: 2, maxPosition: 25 };
    expect(wantedQuotes(p, 50, { yes: 0, no: 0 })).toEqual([
      { outcome: 'YES', side: 'buy', price: 48, quantity: 10 }, { outcome: 'NO', side: 'buy', price: 48, quantity: 10 },
      { outcome: 'YES', side: 'buy', price: 47, quantity: 10 }, { outcome: 'NO', side: 'buy', price: 47, quantity: 10 },
    ]);
    // Short 20 (NO held): bids may add 45, asks only 5; the bid sells NO first.
    expect(wantedQuotes(p, 50, { yes: 0, no: 20 })).toEqual([
      { outcome: 'NO', side: 'sell', price: 52, quantity: 10 }, { outcome: 'NO', side: 'buy', price: 48, quantity: 5 },
      { outcome: 'NO', side: 'sell', price: 53, quantity: 10 },
    ]);
    // Near the edge, levels outside 1..99 are left out.
    expect(wantedQuotes({ ...p, levels: 3 }, 3, { yes: 0, no: 0 }).filter((q) => q.outcome === 'YES').map((q) => q.price)).toEqual([1]);
  });

  it('keeps each side of the ladder off the other side of the book, moving it only away from a trade', () => {
    const ladder = { bids: [48, 47, 46], asks: [52, 53, 54] };
    expect(insideBook(ladder, { bid: null, ask: null })).toEqual(ladder);
    expect(insideBook(ladder, { bid: 45, ask: 55 })).toEqual(ladder);
    // The book asks 40: the bids move down together to 39, 38, 37; the asks stay.
    expect(insideBook(ladder, { bid: 30, ask: 40 })).toEqual({ bids: [39, 38, 37], asks: [52, 53, 54] });
    // The book bids 97: the asks move up to 98, 99 (100 is dropped).
    expect(insideBook(ladder, { bid: 97, ask: 99 })).toEqual({ bids: [48, 47, 46], asks: [98, 99] });
    expect(insideBook(ladder, { bid: null, ask: 2 })).toEqual({ bids: [1], asks: [52, 53, 54] });
    // Before any trade a last-trade bot starts from the middle of a two-sided book, else from its price.
    const bot = { fairSource: 'last' as const, fairPrice: 50 };
    expect(fairOf(bot, { lastPrice: null }, { bid: 37, ask: 39 })).toBe(38);
    expect(fairOf(bot, { lastPrice: null }, { bid: 37, ask: null })).toBe(50);
    expect(fairOf(bot, { lastPrice: 61 }, { bid: 37, ask: 39 })).toBe(61);
    expect(fairOf({ fairSource: 'fixed', fairPrice: 30 }, { lastPrice: 61 }, { bid: 37, ask: 39 })).toBe(30);
  });

  it('records a short balance on the bot and quotes what the balance holds', async () => {
    const m = await openMarket();
    // 10 USDC: at 48¢ + 1¢ max fee a share, 20 shares of bids can be held.
    const poor = await houseUser(10_000_000n);
    const bot = await startedBot({ userId: poor, marketIds: [String(m)], size: 10, levels: 2 });
    await tick(1);
    const live = await liveOf(poor, m);
    expect(live.reduce((n, o) => n + o.quantity, 0)).toBeLessThan(40);
    expect((await balanceOf(f.db, poor, usdc)).available).toBeGreaterThanOrEqual(0n);
    const rec = (await get(`trade-bots/${bot.id}`)).body.result;
    expect(rec.lastError).toMatch(/balance short/);
    expect(rec.lastErrorAt).not.toBeNull();
    await post(`trade-bots/${bot.id}/stop`);
  });
});

describe('markets that stop trading, and stopping the bot', () => {
  it('cancels its quotes when a market halts (at the next tick, due or not), quotes again on resume, and leaves a closed market', async () => {
    const m = await openMarket();
    const bot = await startedBot({ marketIds: [String(m)] });
    await tick(1);
    expect(await liveOf(bot.userId, m)).toHaveLength(4);
    expect((await post(`markets/${m}/halt`, { reasonCode: 'incident' })).status).toBe(200);
    const report = await tick(1);
    expect(report.cancelledOnStoppedMarkets).toBe(4);
    expect(await liveOf(bot.userId, m)).toHaveLength(0);
    // Due while halted: nothing placed.
    const halted = await tick(10);
    expect(halted.refreshed.find((r) => r.botId === Number(bot.id))?.stats).toMatchObject({ placed: 0, left: 1 });
    expect(await liveOf(bot.userId, m)).toHaveLength(0);
    expect((await post(`markets/${m}/resume`)).status).toBe(200);
    await tick(10);
    expect(await liveOf(bot.userId, m)).toHaveLength(4);
    expect((await post(`markets/${m}/close`, { confirm: true })).status).toBe(200);
    await tick(10);
    expect(await liveOf(bot.userId, m)).toHaveLength(0);
    expect((await get(`trade-bots/${bot.id}`)).body.result.lastRunSummary).toMatch(/0 open markets: .*; 1 not open/);
    await post(`trade-bots/${bot.id}/stop`);
  });

  it('the stop action cancels its quotes and gives the holds back; a stopped bot is not refreshed', async () => {
    const m = await openMarket();
    const bot = await startedBot({ marketIds: [String(m)] });
    await tick(1);
    expect(await liveOf(bot.userId, m)).toHaveLength(4);
    expect((await balanceOf(f.db, bot.userId, usdc)).held).toBeGreaterThan(0n);
    const stop = await post(`trade-bots/${bot.id}/stop`);
    expect(stop.status).toBe(200);
    expect(stop.body.message).toMatch(/4 quotes cancelled/);
    expect(stop.body.result.status).toBe('stopped');
    expect(await liveOf(bot.userId)).toHaveLength(0);
    expect((await balanceOf(f.db, bot.userId, usdc)).held).toBe(0n);
    const after = await tick(60);
    expect(after.refreshed.find((r) => r.botId === Number(bot.id))).toBeUndefined();
    expect(await liveOf(bot.userId)).toHaveLength(0);
    // Stopping twice is a wrong state.
    expect((await post(`trade-bots/${bot.id}/stop`)).status).toBe(409);
  });

  it('a bot on every open market quotes a market opened after it started, at its next refresh', async () => {
    const bot = await startedBot({ allOpenMarkets: true, refreshSeconds: 30 });
    await tick(1);
    const fresh = await openMarket();
    expect(await liveOf(bot.userId, fresh)).toHaveLength(0);
    await tick(30);
    expect(await quotes(bot.userId, fresh)).toEqual(['buy NO 10@47', 'buy NO 10@48', 'buy YES 10@47', 'buy YES 10@48']);
    await post(`trade-bots/${bot.id}/stop`);
    expect(await liveOf(bot.userId)).toHaveLength(0);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('on PostgreSQL: one instance at a time', () => {
  it('two ticks at once (two instances) refresh a due bot once: one takes the lock, the other skips or finds nothing due', async () => {
    const m = await openMarket();
    const bot = await startedBot({ marketIds: [String(m)] });
    const at = later(1);
    const reports = await Promise.all([runTradeBots(f.db, at), runTradeBots(f.db, at), runTradeBots(f.db, at)]);
    const runs = reports.flatMap((r) => r?.refreshed ?? []).filter((r) => r.botId === Number(bot.id));
    expect(runs).toHaveLength(1);
    expect(await liveOf(bot.userId, m)).toHaveLength(4);
    await post(`trade-bots/${bot.id}/stop`);
  });

  it('a stop racing a tick leaves the bot stopped with no quote resting', async () => {
    const m = await openMarket();
    const bot = await startedBot({ marketIds: [String(m)] });
    const [, stop] = await Promise.all([runTradeBots(f.db, later(1)), post(`trade-bots/${bot.id}/stop`)]);
    expect(stop.status).toBe(200);
    await runTradeBots(f.db, later(60));
    expect((await get(`trade-bots/${bot.id}`)).body.result.status).toBe('stopped');
    expect(await liveOf(bot.userId)).toHaveLength(0);
  });
});

describe('house accounts', () => {
  it("trades only as a house account: a customer is refused, marking one takes the right to adjust balances, and a bot's user stays a house account", async () => {
    const m = await openMarket();
    const customer = await funded();
    const base = { name: `Bot ${++seq}`, marketIds: [String(m)], spread: 4, size: 10, levels: 2, maxPosition: 100, refreshSeconds: 10 };
    const refused = await post('trade-bots', { ...base, userId: String(customer) });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.userId).toMatch(/Not a house account/);
    // A Trade Bot editor with Users edit, but not the right to adjust balances, cannot make one.
    const botEditor = await makeSubAdmin(f.s, [{ name: 'Trade Bot', canView: true, canEdit: true }, { name: 'Users', canView: true, canEdit: true }], token);
    expect((await post(`users/${customer}/make-house`, { reason: 'Mine now' }, botEditor.token)).status).toBe(403);
    expect((await post('trade-bots', { ...base, userId: String(customer) }, botEditor.token)).status).toBe(400);
    expect((await f.db.select().from(tradeBots).where(eq(tradeBots.userId, customer))).length).toBe(0);
    // Made a house account (reason required, audited), the bot is created; the user cannot go back to a customer while it exists.
    expect((await post(`users/${customer}/make-house`, {})).status).toBe(400);
    const made = await post(`users/${customer}/make-house`, { reason: 'Desk account for the crypto maker' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect((await get(`users/${customer}`)).body.result.house).toBe(true);
    expect((await post(`users/${customer}/make-house`, { reason: 'Again' })).status).toBe(409);
    const bot = await post('trade-bots', { ...base, userId: String(customer) }, botEditor.token);
    expect(bot.status, JSON.stringify(bot.body)).toBe(200);
    const back = await post(`users/${customer}/make-customer`, { reason: 'Wrong account' });
    expect(back.status).toBe(409);
    expect(back.body.message).toMatch(/trades as/);
    // The picker's filter: house accounts only.
    const picker = await get(`users?house=true&limit=200`);
    expect(picker.body.result.items.map((u: { _id: string }) => u._id)).toContain(String(customer));
    expect(picker.body.result.items.every((u: { house: boolean }) => u.house)).toBe(true);
    // Without its bot, it can become a customer's again.
    expect((await call(f.s, 'DELETE', `/api/admin/trade-bots/${bot.body.result._id}`, { token })).status).toBe(200);
    expect((await post(`users/${customer}/make-customer`, { reason: 'Bot retired' })).status).toBe(200);
    const audit = await get(`audit-log?resource=users&recordId=${customer}`);
    expect(audit.body.result.items.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['make-house', 'make-customer']));
  });
});

describe('rights and validation', () => {
  it('answers 403 without the right, for the list, the form and the actions', async () => {
    const m = await openMarket();
    const userId = await houseUser();
    const viewer = await makeSubAdmin(f.s, [{ name: 'Trade Bot', canView: true, canEdit: false }], token);
    const nobody = await makeSubAdmin(f.s, [{ name: 'Markets', canView: true, canEdit: true }], token);
    const body = { name: `Bot ${++seq}`, userId: String(userId), marketIds: [String(m)], spread: 4, size: 10, levels: 2, maxPosition: 100, refreshSeconds: 10 };
    expect((await post('trade-bots', body, viewer.token)).status).toBe(403);
    expect((await get('trade-bots', nobody.token)).status).toBe(403);
    const created = await post('trade-bots', body);
    expect(created.status).toBe(200);
    const id = created.body.result._id;
    expect((await get(`trade-bots/${id}`, viewer.token)).status).toBe(200);
    expect((await post(`trade-bots/${id}/start`, {}, viewer.token)).status).toBe(403);
    expect((await post(`trade-bots/${id}/start`, {}, nobody.token)).status).toBe(403);
    expect((await f.db.select().from(tradeBots).where(eq(tradeBots.id, Number(id))))[0]!.status).toBe('stopped');
    // A running bot cannot be deleted; stopped, it can.
    expect((await post(`trade-bots/${id}/start`)).status).toBe(200);
    expect((await call(f.s, 'DELETE', `/api/admin/trade-bots/${id}`, { token })).status).toBe(409);
    expect((await post(`trade-bots/${id}/stop`)).status).toBe(200);
    expect((await call(f.s, 'DELETE', `/api/admin/trade-bots/${id}`, { token })).status).toBe(200);
  });

  it('refuses bad input with 400 and the reason on the field, creating nothing', async () => {
    const m = await openMarket();
    const userId = await houseUser();
    const base = { name: `Bot ${++seq}`, userId: String(userId), marketIds: [String(m)], spread: 4, size: 10, levels: 2, maxPosition: 100, refreshSeconds: 10 };
    const before = (await f.db.select().from(tradeBots)).length;
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ marketIds: [] }, 'marketIds', /at least one market/],
      [{ fairSource: 'fixed', fairPrice: 97, spread: 6, levels: 3 }, 'fairPrice', /highest ask would be 102¢/],
      [{ fairSource: 'fixed', fairPrice: 2, spread: 4 }, 'fairPrice', /lowest bid would be -1¢/],
      [{ spread: 90, levels: 10 }, 'levels', /spans 108¢/],
      [{ spread: 0 }, 'spread', /at least 1/],
      [{ refreshSeconds: 1 }, 'refreshSeconds', /at least 2/],
      [{ refreshSeconds: 86_400 }, 'refreshSeconds', /at most 3,600/],
      [{ levels: 11 }, 'levels', /at most 10/],
      [{ size: 2.5 }, 'size', /whole number/],
      [{ maxPosition: 5 }, 'maxPosition', /below the size per level/],
      [{ fairSource: 'mid' }, 'fairSource', /Last trade or fixed value/],
      [{ userId: '' }, 'userId', /Choose the user/],
      [{ userId: '999999999' }, 'userId', /No user with id/],
      [{ marketIds: ['999999999'] }, 'marketIds', /No market/],
      [{ name: ' ' }, 'name', /At least 2/],
    ];
    for (const [patch, field, message] of cases) {
      const res = await post('trade-bots', { ...base, ...patch });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.errors?.[field], `${JSON.stringify(patch)} → ${JSON.stringify(res.body)}`).toMatch(message);
    }
    // A closed market cannot be added.
    const closed = await openMarket();
    expect((await post(`markets/${closed}/close`, { confirm: true })).status).toBe(200);
    const withClosed = await post('trade-bots', { ...base, marketIds: [String(closed)] });
    expect(withClosed.status).toBe(400);
    expect(withClosed.body.errors.marketIds).toMatch(/is closed/);
    expect((await f.db.select().from(tradeBots)).length).toBe(before);

    // An update is checked with the stored values: a fixed fair price at 95 with the stored spread 4 and 2 levels overflows.
    const ok = await post('trade-bots', base);
    expect(ok.status).toBe(200);
    const patch = await call(f.s, 'PATCH', `/api/admin/trade-bots/${ok.body.result._id}`, { token, body: { fairSource: 'fixed', fairPrice: 97 } });
    expect(patch.status).toBe(400);
    expect(patch.body.errors.fairPrice).toMatch(/highest ask/);
    // One bot per user.
    const twin = await post('trade-bots', { ...base, name: `Twin ${seq}` });
    expect(twin.status).toBe(409);
    expect(twin.body.errors.userId).toMatch(/already trades for another bot/);
  });
});
