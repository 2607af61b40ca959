import { beforeAll, describe, expect, it } from 'vitest';
import { call, makeSubAdmin, } from '../../../test/helpers.js';
import { auditOf, fund, makeUser, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';
import { openTestMarket } from '../../../test/market-helpers.js';
import { balanceOf } from '../ledger/service.js';
import { placeOrder, type PlaceOrderInput } from './service.js';

/** The admin lists of orders, trades and positions, the user's and market's tabs, and the admin's cancel. */
let f: MoneyFixture;
let token: string;
let usdc: number;

moneyFile((m) => ({ f, token, usdc } = m), { fees: { takerFeeBps: 100, makerFeeBps: 0 } });

const post = (path: string, body: unknown = {}, t = token) => call(f.s, 'POST', `/api/admin/${path}`, { token: t, body });
const list = async (path: string, t = token) => {
  const res = await call(f.s, 'GET', `/api/admin/${path}`, { token: t });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as { items: Record<string, unknown>[]; total: number; nextCursor?: string | null };
};

const openMarket = () => openTestMarket(post, 'KXLST');
async function funded() {
  const u = await makeUser(f);
  await fund(f, u.id, usdc, 100_000_000n);
  return u;
}
const place = (marketId: number, userId: number, o: Pick<PlaceOrderInput, 'outcome' | 'side' | 'price' | 'quantity'>) =>
  placeOrder(null, f.platform, { marketId, userId, timeInForce: 'GTC', ...o }, f.db);

describe('order, trade and position lists', () => {
  let m1: { id: number; ticker: string };
  let m2: { id: number; ticker: string };
  let a: Awaited<ReturnType<typeof funded>>;
  let b: Awaited<ReturnType<typeof funded>>;
  let c: Awaited<ReturnType<typeof funded>>;
  beforeAll(async () => {
    [m1, m2] = [await openMarket(), await openMarket()];
    [a, b, c] = [await funded(), await funded(), await funded()];
    await place(m1.id, a.id, { outcome: 'YES', side: 'buy', price: 40, quantity: 10 }); // maker
    await place(m1.id, b.id, { outcome: 'NO', side: 'buy', price: 60, quantity: 10 }); // taker: mint 10
    await place(m1.id, a.id, { outcome: 'YES', side: 'sell', price: 45, quantity: 10 }); // rests
    await place(m1.id, c.id, { outcome: 'YES', side: 'buy', price: 45, quantity: 10 }); // transfer: a closes, c opens
    await place(m2.id, c.id, { outcome: 'NO', side: 'buy', price: 30, quantity: 5 }); // rests on m2
  });

  it('orders: readable columns, scoped by market, user, outcome, side and status; keyset pages', async () => {
    const all = await list(`orders?marketId=${m1.id}`);
    expect(all.items).toHaveLength(4);
    expect(all.items[0]).toMatchObject({ marketTicker: m1.ticker, marketTitle: expect.stringMatching(/^Market /), username: c.username, outcome: 'YES', side: 'buy', price: 45, quantity: 10, filled: 10, timeInForce: 'GTC', status: 'filled', feesText: expect.stringMatching(/ USDC$/) });
    expect((await list(`orders?userId=${a.id}`)).items.map((o) => o.side).sort()).toEqual(['buy', 'sell']);
    expect((await list(`orders?userId=${a.id}&side=sell`)).items).toHaveLength(1);
    expect((await list(`orders?marketId=${m1.id}&outcome=NO`)).items.map((o) => o.username)).toEqual([b.username]);
    expect((await list(`orders?userId=${c.id}&status=open`)).items.map((o) => o.marketId)).toEqual([String(m2.id)]);
    const first = await list(`orders?marketId=${m1.id}&limit=2`);
    expect(first.items).toHaveLength(2);
    const second = await list(`orders?marketId=${m1.id}&limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect([...first.items, ...second.items].map((o) => o._id)).toEqual(all.items.map((o) => o._id));
    const csv = await call(f.s, 'GET', `/api/admin/orders/export?marketId=${m1.id}`, { token });
    expect(csv.status).toBe(200);
    expect(csv.raw).toContain(m1.ticker);
    expect(csv.raw).toContain("Fees");
  });

  it('trades: the user filter matches maker or taker; market and kind filters', async () => {
    const t = await list(`trades?marketId=${m1.id}`);
    expect(t.items.map((x) => x.kind)).toEqual(['transfer', 'mint']);
    expect(t.items[1]).toMatchObject({ makerUsername: a.username, takerUsername: b.username, takerOutcome: 'NO', price: 40, quantity: 10, takerFeeText: '0.03 USDC', makerFeeText: '0 USDC' });
    expect((await list(`trades?userIds=${a.id}`)).items).toHaveLength(2); // maker of the mint, maker of the transfer
    expect((await list(`trades?userIds=${b.id}`)).items.map((x) => x.kind)).toEqual(['mint']);
    expect((await list(`trades?userIds=${c.id}&kind=transfer`)).items).toHaveLength(1);
    expect((await list(`trades?marketId=${m2.id}`)).items).toHaveLength(0);
  });

  it('open and closed positions each list only their kind', async () => {
    const open = await list(`open-positions?marketId=${m1.id}`);
    expect(open.items.every((p) => p.status === 'open')).toBe(true);
    expect(open.items.map((p) => [p.username, p.outcome, p.quantity]).sort()).toEqual([[b.username, 'NO', 10], [c.username, 'YES', 10]].sort());
    expect(open.items.find((p) => p.username === c.username)).toMatchObject({ averagePrice: 45, costText: '4.5 USDC' });
    const closed = await list(`closed-positions?marketId=${m1.id}`);
    expect(closed.items).toHaveLength(1);
    expect(closed.items[0]).toMatchObject({ username: a.username, outcome: 'YES', quantity: 0, status: 'closed', realizedPnlText: '0.5 USDC' });
    expect((await list(`open-positions?userId=${a.id}`)).items).toHaveLength(0);
    expect((await list(`closed-positions?userId=${c.id}`)).items).toHaveLength(0);
  });

  it('the user and market pages declare their tabs with filters the lists take', async () => {
    const { usersResource, marketsResource } = await import('@pitboss/contract');
    expect(usersResource.children?.map((ch) => [ch.resource, ch.filter])).toEqual(expect.arrayContaining([['orders', 'userId'], ['trades', 'userIds'], ['open-positions', 'userId'], ['closed-positions', 'userId']]));
    expect(marketsResource.children?.map((ch) => [ch.resource, ch.filter])).toEqual([['orders', 'marketId'], ['trades', 'marketId'], ['open-positions', 'marketId']]);
    expect((await list(`orders?marketId=${m2.id}`)).items).toHaveLength(1);
  });
});

describe('admin cancel', () => {
  it('403 without edit; cancels a live order, releasing its hold, with an audit entry; 409 on a filled order', async () => {
    const m = await openMarket();
    const u = await funded();
    const other = await funded();
    const resting = await place(m.id, u.id, { outcome: 'YES', side: 'buy', price: 30, quantity: 10 });
    expect((await balanceOf(f.db, u.id, usdc)).held).toBeGreaterThan(0n);
    const viewer = await makeSubAdmin(f.s, [{ name: 'Trade History', canView: true, canEdit: false }], token);
    expect((await list(`orders?userId=${u.id}`, viewer.token)).items).toHaveLength(1);
    expect((await post(`orders/${resting.order.id}/cancel`, {}, viewer.token)).status).toBe(403);
    const done = await post(`orders/${resting.order.id}/cancel`);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.result).toMatchObject({ status: 'cancelled', reason: 'USER', held: '0' });
    expect(await balanceOf(f.db, u.id, usdc)).toEqual({ available: 100_000_000n, held: 0n });
    const entries = await auditOf(f.db, 'orders', resting.order.id);
    expect(entries.map((e) => [e.action, e.actorKind])).toEqual([['place', 'platform'], ['cancel', 'admin']]);
    expect((await post(`orders/${resting.order.id}/cancel`)).status).toBe(409);

    await place(m.id, u.id, { outcome: 'YES', side: 'buy', price: 50, quantity: 4 });
    const filled = await place(m.id, other.id, { outcome: 'NO', side: 'buy', price: 50, quantity: 4 });
    expect(filled.order.status).toBe('filled');
    const refused = await post(`orders/${filled.order.id}/cancel`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/Order is filled/);
  });

  it('bulk: cancels the live ones and skips the others with the reason', async () => {
    const m = await openMarket();
    const u = await funded();
    const live = await place(m.id, u.id, { outcome: 'NO', side: 'buy', price: 20, quantity: 3 });
    const live2 = await place(m.id, u.id, { outcome: 'YES', side: 'buy', price: 21, quantity: 3 });
    await post(`orders/${live2.order.id}/cancel`);
    const res = await post('orders/bulk/cancel', { ids: [String(live.order.id), String(live2.order.id)] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ done: 1, skipped: [{ id: String(live2.order.id), reason: expect.stringMatching(/already cancelled/) }] });
    expect(await balanceOf(f.db, u.id, usdc)).toEqual({ available: 100_000_000n, held: 0n });
  });
});
