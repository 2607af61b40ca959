import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { markets, orders, tradeBots } from '../../db/schema.js';
import { call, makeSubAdmin } from '../../../test/helpers.js';
import { auditOf, moneyFile, type MoneyFixture } from '../../../test/money-helpers.js';
import { fundedUser, openTestMarket } from '../../../test/market-helpers.js';
import { runTradeBots } from '../trade-bots/job.js';
import { LIVE_ORDER_STATUSES } from '../orders/table.js';
import { placeOrder } from '../orders/service.js';

/**
 * The kill switch: the named right (403 without it), the typed confirmation, halting exactly the
 * open markets and stopping exactly the running bots, audited; its release resumes exactly what it
 * halted and is still halted by it, and says what it could not bring back.
 */
let f: MoneyFixture;
let token: string;
let usdc: number;

moneyFile((m) => ({ f, token, usdc } = m));

const post = (path: string, body: unknown = {}, as = token) => call(f.s, 'POST', `/api/admin/${path}`, { token: as, body });
const statusOf = async (id: number) => (await f.db.select({ status: markets.status, code: markets.haltReasonCode }).from(markets).where(eq(markets.id, id)))[0];
const ENGAGE = { reasonCode: 'incident', reason: 'Matching looks wrong', confirmation: 'HALT ALL' };

describe('kill switch', () => {
  it('needs Markets › kill-switch (403 with edit alone) and the typed words (400, nothing halted)', async () => {
    const m = await openTestMarket(post, 'KXKSA');
    const editor = await makeSubAdmin(f.s, [{ name: 'Markets', canView: true, canEdit: true }], token);
    const refused = await post('kill-switches', ENGAGE, editor.token);
    expect(refused.status).toBe(403);
    const holder = await makeSubAdmin(f.s, [{ name: 'Markets', canView: true, canEdit: false, rights: ['kill-switch'] }], token);
    const typo = await post('kill-switches', { ...ENGAGE, confirmation: 'halt all' }, holder.token);
    expect(typo.status).toBe(400);
    expect(typo.body.errors).toEqual({ confirmation: 'Type HALT ALL exactly, in capitals' });
    const nothing = await post('kill-switches', { ...ENGAGE, haltMarkets: false, stopBots: false }, holder.token);
    expect(nothing.status).toBe(400);
    expect(nothing.body.errors).toEqual({ haltMarkets: 'Choose what to stop: the markets, the bots, or both' });
    expect(await statusOf(m.id)).toEqual({ status: 'open', code: null });
    // The holder of the right may pull it (and release it) without the edit right.
    const pulled = await post('kill-switches', ENGAGE, holder.token);
    expect(pulled.status, JSON.stringify(pulled.body)).toBe(200);
    expect(pulled.body.result).toMatchObject({ status: 'engaged', engagedByEmail: holder.email });
    const released = await post(`kill-switches/${pulled.body.result._id}/release`, {}, holder.token);
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(await statusOf(m.id)).toEqual({ status: 'open', code: null });
    expect((await post(`markets/${m.id}/close`, { confirm: true })).status).toBe(200);
  });

  it('halts exactly the open markets and stops the running bots; release resumes exactly those still halted by it', async () => {
    const a = await openTestMarket(post, 'KXKSB');
    const b = await openTestMarket(post, 'KXKSC');
    const c = await openTestMarket(post, 'KXKSD');
    expect((await post(`markets/${c.id}/halt`, { reasonCode: 'pending_news' })).status).toBe(200);
    // A bot quoting on a.
    const house = await fundedUser(f, usdc, 1_000_000_000n);
    expect((await post(`users/${house}/make-house`, { reason: 'Market-making account' })).status).toBe(200);
    const bot = await post('trade-bots', { name: 'KS bot', userId: String(house), marketIds: [String(a.id)], allOpenMarkets: false, fairSource: 'fixed', fairPrice: 50, spread: 4, size: 10, levels: 1, maxPosition: 100, refreshSeconds: 10 });
    expect(bot.status, JSON.stringify(bot.body)).toBe(200);
    const botId = Number(bot.body.result._id);
    expect((await post(`trade-bots/${botId}/start`)).status).toBe(200);
    await runTradeBots(f.db, new Date(Date.now() + 1000));
    const live = () => f.db.select({ id: orders.id }).from(orders).where(and(eq(orders.userId, house), inArray(orders.status, [...LIVE_ORDER_STATUSES])));
    expect((await live()).length).toBeGreaterThan(0);

    const engaged = await post('kill-switches', ENGAGE);
    expect(engaged.status, JSON.stringify(engaged.body)).toBe(200);
    const ks = engaged.body.result;
    expect(ks).toMatchObject({ status: 'engaged', reasonCode: 'incident', botsStopped: 1, bots: 'KS bot' });
    expect(ks.markets).toContain(a.ticker);
    expect(ks.markets).toContain(b.ticker);
    expect(ks.markets).not.toContain(c.ticker);
    expect(await statusOf(a.id)).toEqual({ status: 'halted', code: 'kill_switch' });
    expect(await statusOf(b.id)).toEqual({ status: 'halted', code: 'kill_switch' });
    expect(await statusOf(c.id)).toEqual({ status: 'halted', code: 'pending_news' });
    expect((await f.db.select({ status: tradeBots.status }).from(tradeBots).where(eq(tradeBots.id, botId)))[0]!.status).toBe('stopped');
    expect(await live()).toEqual([]);
    // Nothing trades on a halted market.
    const u = await fundedUser(f, usdc, 10_000_000n);
    await expect(placeOrder(null, f.platform, { userId: u, marketId: a.id, outcome: 'YES', side: 'buy', price: 40, quantity: 1, timeInForce: 'GTC' }, f.db)).rejects.toMatchObject({ status: 409 });
    // Audited: the engagement, each halt (with the switch in its note), the bot's stop.
    expect((await auditOf(f.db, 'kill-switches', ks._id)).map((e) => e.action)).toEqual(['engage']);
    expect((await auditOf(f.db, 'markets', a.id)).at(-1)).toMatchObject({ action: 'halt', after: expect.objectContaining({ haltReasonCode: 'kill_switch', haltReason: `Kill switch #${ks._id}: Matching looks wrong` }) });
    expect((await auditOf(f.db, 'trade-bots', botId)).at(-1)).toMatchObject({ action: 'stop' });

    // While it is engaged nothing comes back by hand: no resume (whatever the halt's reason), no
    // market opens, no bot starts.
    for (const id of [a.id, c.id]) {
      const refused = await post(`markets/${id}/resume`);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(`Kill switch #${ks._id} is engaged: no market may resume until it is released (Markets & Trading › Kill switch)`);
    }
    const draft = await post('markets', { eventId: String(a.eventId), ticker: `${a.ticker}-X`, title: 'Opened during the switch?', rules: 'Resolves YES if it happens.' });
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    expect((await post(`markets/${draft.body.result._id}/open`)).status).toBe(409);
    expect((await post(`trade-bots/${botId}/start`)).body.message).toBe(`Kill switch #${ks._id} is engaged: no trade bot may start until it is released (Markets & Trading › Kill switch)`);
    // b is closed meanwhile (closing stays possible): the release leaves it and says so.
    expect((await post(`markets/${b.id}/close`, { confirm: true })).status).toBe(200);
    const released = await post(`kill-switches/${ks._id}/release`);
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(released.body.message).toBe(`Kill switch released: 1 market resumed, 1 bot restarted; not resumed: Market ${b.ticker}: closed now`);
    expect(released.body.result).toMatchObject({ status: 'released', marketsResumed: 1, botsRestarted: 1 });
    expect(await statusOf(a.id)).toEqual({ status: 'open', code: null });
    expect(await statusOf(b.id)).toEqual({ status: 'closed', code: null });
    // c was halted for its own reason: it stays halted, and now resumes by hand.
    expect(await statusOf(c.id)).toEqual({ status: 'halted', code: 'pending_news' });
    expect((await post(`markets/${c.id}/resume`)).status).toBe(200);
    expect((await f.db.select({ status: tradeBots.status }).from(tradeBots).where(eq(tradeBots.id, botId)))[0]!.status).toBe('running');
    expect((await auditOf(f.db, 'kill-switches', ks._id)).map((e) => e.action)).toEqual(['engage', 'release']);
    expect((await post(`kill-switches/${ks._id}/release`)).status).toBe(409);
  });
});
