import { describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../../test/helpers.js';
import { newPlatformKey, platformCall, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';
import { fundedUser, openTestMarket } from '../../../test/market-helpers.js';

/** Admin profit splits the fees income by its cause: the fees of a trade are trading fees, not withdrawal fees. */
const KEY = newPlatformKey();
let s: TestServer;
let f: MoneyFixture;
let token: string;
let usdc: number;

moneyFile((m) => ({ f, s, token, usdc } = m), { platformKey: KEY });

describe('admin profit', () => {
  it('counts the fees of a trade as trading fees', async () => {
    const market = await openTestMarket((path, body) => call(s, 'POST', `/api/admin/${path}`, { token, body: body ?? {} }), 'KXAP');
    const [maker, taker] = [await fundedUser(f, usdc, 100_000_000n), await fundedUser(f, usdc, 100_000_000n)];
    const order = (userId: number, outcome: 'YES' | 'NO', price: number) =>
      platformCall(s, KEY, 'POST', 'orders', { body: { userId: String(userId), market: market.ticker, outcome, side: 'buy', price, quantity: 100, timeInForce: 'GTC' } });
    expect((await order(maker, 'YES', 40)).status).toBe(200);
    const fill = await order(taker, 'NO', 60);
    expect(fill.status, JSON.stringify(fill.body)).toBe(200);
    expect(fill.body.result.status).toBe('filled');
    const fees = BigInt(fill.body.result.fees);
    expect(fees).toBeGreaterThan(0n);

    const today = new Date().toISOString().slice(0, 10);
    const profit = await call(s, 'GET', '/api/admin/reports/admin-profit', { token, query: { from: today, to: today } });
    expect(profit.status).toBe(200);
    const rows = profit.body.result.rows as { source: string; coin: string; amount: string }[];
    expect(rows.find((r) => r.source === 'trading fees' && r.coin === 'USDC')?.amount).toBe(String(fees));
    expect(rows.some((r) => r.source === 'withdrawal fees')).toBe(false);
  });
});
