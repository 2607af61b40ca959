import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { coinBySymbol } from '../src/modules/coins/service.js';
import { recordDeposit } from '../src/modules/deposits/service.js';
import { trades } from '../src/modules/orders/table.js';
import { call, makeSubAdmin, type TestServer } from './helpers.js';
import { fundedUser, openTestMarket } from './market-helpers.js';
import { makeUser, newPlatformKey, platformCall, randomSignature, type MoneyFixture, moneyFile } from './money-helpers.js';

/**
 * Money columns sort by their coin, then their amount, then id (`ResourceDef.sortBy`): amounts rank
 * within each coin. Keyset pages walk that order both ways without gaps or repeats.
 */
const KEY = newPlatformKey();
let s: TestServer;
let f: MoneyFixture;
let token: string;
let usdc: number;
let sol: number;

moneyFile((m) => ({ f, s, token, usdc } = m), { platformKey: KEY });
beforeAll(async () => {
  sol = (await coinBySymbol(f.db, 'SOL'))!.id;
});

type Row = { _id: string };
const list = async (resource: string, query: Record<string, string>) => {
  const res = await call(s, 'GET', `/api/admin/${resource}`, { token, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as { items: Row[]; nextCursor: string | null; prevCursor: string | null };
};

/**
 * Every page forward by `nextCursor`, then back from the last one by `prevCursor` (`before`): the
 * ids in order both ways, and the pages met coming back are the pages gone through forward.
 */
async function walk(resource: string, query: Record<string, string>): Promise<string[]> {
  const pages: string[][] = [];
  let page = await list(resource, query);
  pages.push(page.items.map((r) => r._id));
  while (page.nextCursor) {
    page = await list(resource, { ...query, cursor: page.nextCursor });
    pages.push(page.items.map((r) => r._id));
  }
  const back: string[][] = [];
  while (page.prevCursor) {
    page = await list(resource, { ...query, before: page.prevCursor });
    back.unshift(page.items.map((r) => r._id));
  }
  expect(back, 'backward pages').toEqual(pages.slice(0, -1));
  return pages.flat();
}

const byCoinThenAmount = (rows: { id: number; coin: number; amount: bigint }[]) =>
  [...rows].sort((a, b) => a.coin - b.coin || (a.amount < b.amount ? -1 : a.amount > b.amount ? 1 : 0) || a.id - b.id).map((r) => String(r.id));

describe('sorting by a money column', () => {
  it('deposits: amounts rank within each coin (ties by id), paged by cursor forward and back', async () => {
    const u = await makeUser(f);
    const amounts: [number, bigint][] = [[usdc, 5_000_000n], [usdc, 1_000_000n], [sol, 7n], [usdc, 5_000_000n], [sol, 1_000_000_000n], [usdc, 250n], [sol, 7n]];
    const rows: { id: number; coin: number; amount: bigint }[] = [];
    for (const [coin, amount] of amounts) {
      const d = await f.db.transaction((tx) => recordDeposit(tx, f.platform, { userId: u.id, coin, amount, txSignature: randomSignature() }));
      rows.push({ id: d.id, coin, amount });
    }
    const expected = byCoinThenAmount(rows);
    for (const limit of ['2', '3', '7']) {
      expect(await walk('deposits', { userId: String(u.id), sort: 'amountText', limit }), `limit ${limit}`).toEqual(expected);
      expect(await walk('deposits', { userId: String(u.id), sort: '-amountText', limit }), `limit ${limit}`).toEqual([...expected].reverse());
    }
    // One coin: its amounts alone, largest first.
    const inUsdc = await list('deposits', { userId: String(u.id), coin: 'USDC', sort: '-amountText' });
    expect(inUsdc.items.map((r) => (r as Row & { amount: string }).amount)).toEqual(['5000000', '5000000', '1000000', '250']);
    // The export follows the same order.
    const csv = await call(s, 'GET', '/api/admin/deposits/export', { token, query: { userId: String(u.id), sort: 'amountText' } });
    expect(csv.status).toBe(200);
    // The amount a plain number, its coin in the next column (spreadsheet-ready exports).
    expect(csv.raw.split('\r\n').slice(1, 4).map((line) => line.split(',').slice(2, 4).join(' '))).toEqual(['0.000000007 SOL', '0.000000007 SOL', '1 SOL']);
  });

  it('refuses a cursor that is not the sort’s: a single value, a word for an integer, past int8', async () => {
    const cursor = (value: unknown) => Buffer.from(JSON.stringify([value, '1'])).toString('base64url');
    for (const bad of ['5', ['1'], ['x', '5'], ['1', '9223372036854775808'], ['1', '5', '6'], [1, 5]]) {
      const res = await call(s, 'GET', '/api/admin/deposits', { token, query: { sort: 'amountText', cursor: cursor(bad) } });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.errors).toEqual({ cursor: 'Invalid cursor' });
    }
    // A date cursor for the composite sort, and the composite cursor for a date sort.
    expect((await call(s, 'GET', '/api/admin/deposits', { token, query: { sort: '-createdAt', cursor: cursor(['1', '5']) } })).status).toBe(400);
    expect((await call(s, 'GET', '/api/admin/deposits', { token, query: { sort: '-amountText', before: cursor(['1', '-9223372036854775808']) } })).status).toBe(200);
  });

  it('trades: fees rank within each coin, forward and back', async () => {
    const market = await openTestMarket((path, body) => call(s, 'POST', `/api/admin/${path}`, { token, body: body ?? {} }), 'KXMS');
    const [maker, taker] = [await fundedUser(f, usdc, 100_000_000n), await fundedUser(f, usdc, 100_000_000n)];
    const order = (userId: number, outcome: 'YES' | 'NO', price: number) =>
      platformCall(s, KEY, 'POST', 'orders', { body: { userId: String(userId), market: market.ticker, outcome, side: 'buy', price, quantity: 10, timeInForce: 'GTC' } });
    expect((await order(maker, 'YES', 40)).status).toBe(200);
    expect((await order(taker, 'NO', 60)).body.result.status).toBe('filled');
    const [real] = await f.db.select().from(trades).where(eq(trades.marketId, market.id));
    // More fills of the same orders, in both coins, with equal fees among them (the list reads them as rows).
    const { id: _id, createdAt: _at, ...fill } = real!;
    const rows = [{ id: real!.id, coin: real!.coinId, amount: real!.takerFee }];
    for (const [coin, takerFee] of [[sol, 3n], [usdc, 0n], [sol, 3n], [usdc, 90_000n], [sol, 1n]] as const) {
      const [t] = await f.db.insert(trades).values({ ...fill, coinId: coin, takerFee }).returning();
      rows.push({ id: t!.id, coin, amount: takerFee });
    }
    const expected = byCoinThenAmount(rows);
    expect(await walk('trades', { marketId: String(market.id), sort: 'takerFeeText', limit: '2' })).toEqual(expected);
    expect(await walk('trades', { marketId: String(market.id), sort: '-takerFeeText', limit: '4' })).toEqual([...expected].reverse());
    expect(await walk('trades', { marketId: String(market.id), sort: 'makerFeeText', limit: '5' })).toHaveLength(rows.length);
  });

  it('every admin reads how coins show (display decimals), whatever their rights', async () => {
    const viewer = await makeSubAdmin(s, [{ name: 'Deposit', canView: true, canEdit: false }], token);
    const res = await call(s, 'GET', '/api/admin/coin-units', { token: viewer.token });
    expect(res.status).toBe(200);
    expect(res.body.result.items).toEqual(expect.arrayContaining([{ symbol: 'SOL', decimals: 9, displayDecimals: 4 }, { symbol: 'USDC', decimals: 6, displayDecimals: 2 }]));
    expect((await call(s, 'GET', '/api/admin/coin-units')).status).toBe(401);
  });
});
