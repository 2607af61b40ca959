import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { auditLog, ledgerTransactions, markets, positions, resolutions } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { call, makeSubAdmin, superLogin } from '../../../test/helpers.js';
import { snapshot, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';
import { fundedUser, openTestMarket } from '../../../test/market-helpers.js';
import { checkLedgerInvariants } from '../ledger/invariants.js';
import { balanceOf, platformBalance, postTransaction } from '../ledger/service.js';
import { placeOrder } from '../orders/service.js';
import { marketCollateral, resolveMarket } from './service.js';

/**
 * Resolution and settlement: on random books (property-based) the payouts are the collateral to the
 * minor unit for YES, NO and VOID and the ledger stays whole; over the API the action's right, its
 * states, a bad body, two resolutions at once, and the rollback when the collateral would not end at zero.
 */
let f: MoneyFixture;
let token: string;
let usdc: number;
const U = 10_000n; // minor units per cent (USDC, 6 decimals)
const SHARE = 100n * U;
let seq = 0;
const HOUR = 3_600_000;
const iso = (h: number) => new Date(Date.now() + h * HOUR).toISOString();
const evidence = { source: 'Official results page', evidence: 'The published figure was 4.2%, above the 4% strike.', evidenceUrls: ['https://stats.example.gov/release/2026-11'] };

moneyFile((m) => ({ f, token, usdc } = m), { fees: { takerFeeBps: 150, makerFeeBps: 20 } });

const post = (path: string, body: unknown = {}, as = token) => call(f.s, 'POST', `/api/admin/${path}`, { token: as, body });

const openMarket = async () => (await openTestMarket(post, 'KXRES')).id;

const funded = (amount = 1_000_000_000n) => fundedUser(f, usdc, amount);

type Op = { user: number; outcome: 'YES' | 'NO'; side: 'buy' | 'sell'; price: number; quantity: number; ioc: boolean };

/** Places the orders (refusals, e.g. a sell without shares, are part of a random book), then closes the market. */
async function tradeAndClose(marketId: number, users: number[], ops: Op[]): Promise<void> {
  for (const op of ops) {
    await placeOrder(null, f.platform, {
      marketId, userId: users[op.user]!, outcome: op.outcome, side: op.side, price: op.price, quantity: op.quantity, timeInForce: op.ioc ? 'IOC' : 'GTC',
    }, f.db).catch((e: unknown) => {
      if (!(e instanceof AppError) || e.status !== 409) throw e;
    });
  }
  expect((await post(`markets/${marketId}/close`, { confirm: true })).status).toBe(200);
}

const held = (marketId: number) => f.db.select().from(positions).where(eq(positions.marketId, marketId));

/**
 * VOID's pro rata payouts by the rule (docs/markets.md, "Resolution and settlement"), in exact bigints: each
 * position floor(collateral × cost / costs), then the units left over one each to the largest
 * remainders, ties to the lowest id.
 */
function proRata(collateral: bigint, open: { id: number; cost: bigint }[]): Map<number, bigint> {
  const costs = open.reduce((a, p) => a + p.cost, 0n);
  const rows = open.map((p) => ({ id: p.id, share: costs === 0n ? 0n : (collateral * p.cost) / costs, rest: costs === 0n ? 0n : (collateral * p.cost) % costs }));
  let left = costs === 0n ? 0n : collateral - rows.reduce((a, x) => a + x.share, 0n);
  rows.sort((x, y) => (x.rest === y.rest ? x.id - y.id : x.rest > y.rest ? -1 : 1));
  const out = new Map<number, bigint>();
  for (const x of rows) {
    out.set(x.id, x.share + (left > 0n ? 1n : 0n));
    left -= 1n;
  }
  return out;
}

const opArb = (users: number) =>
  fc.record({
    user: fc.integer({ min: 0, max: users - 1 }),
    outcome: fc.constantFrom('YES' as const, 'NO' as const),
    side: fc.constantFrom('buy' as const, 'buy' as const, 'sell' as const),
    price: fc.integer({ min: 1, max: 99 }),
    quantity: fc.integer({ min: 1, max: 40 }),
    ioc: fc.boolean(),
  });

describe('settlement on random books (property-based)', () => {
  it('pays exactly the collateral for YES, NO and VOID: winners 100¢ a share, VOID each holder’s cost (shared pro rata when trades moved it); the market’s collateral ends at zero and the ledger balances', async () => {
    const USERS = 4;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb(USERS), { minLength: 1, maxLength: 30 }), fc.constantFrom('YES' as const, 'NO' as const, 'VOID' as const), async (ops, result) => {
        const marketId = await openMarket();
        const users: number[] = [];
        for (let i = 0; i < USERS; i++) users.push(await funded());
        await tradeAndClose(marketId, users, ops);

        const before = await held(marketId);
        const open = before.filter((p) => p.quantity > 0);
        const collateral = await marketCollateral(f.db, marketId, usdc);
        const yes = open.filter((p) => p.outcome === 'YES').reduce((a, p) => a + p.quantity, 0);
        expect(collateral).toBe(BigInt(yes) * SHARE);
        const pool = await platformBalance(f.db, 'market_collateral', usdc);
        const balances = new Map<number, bigint>();
        for (const u of users) balances.set(u, (await balanceOf(f.db, u, usdc)).available);

        const { resolution, market } = await f.db.transaction((tx) => resolveMarket(tx, f.admin, marketId, { result, ...evidence, confirm: true }));
        expect(market).toMatchObject({ status: result === 'VOID' ? 'voided' : 'resolved', result, openInterest: 0 });
        expect(resolution).toMatchObject({ collateral, totalPaid: collateral, positions: open.length, holders: new Set(open.map((p) => p.userId)).size, pairs: yes });

        // What each position got.
        const after = new Map((await held(marketId)).map((p) => [p.id, p]));
        const totalCost = open.reduce((a, p) => a + p.cost, 0n);
        const shares = proRata(collateral, open);
        let paid = 0n;
        for (const p of open) {
          const a = after.get(p.id)!;
          expect(a).toMatchObject({ quantity: 0, cost: 0n, status: 'closed' });
          const got = a.settlement!;
          paid += got;
          expect(a.realizedPnl).toBe(p.realizedPnl + got - p.cost);
          if (result !== 'VOID') expect(got).toBe(p.outcome === result ? BigInt(p.quantity) * SHARE : 0n);
          else if (totalCost === collateral) expect(got).toBe(p.cost);
          // Its share of the collateral by cost, to the minor unit: floor, then largest remainders.
          else expect(got).toBe(shares.get(p.id));
        }
        expect(paid).toBe(collateral);
        // Positions closed before (quantity 0) are left alone.
        for (const p of before.filter((x) => x.quantity === 0)) expect(after.get(p.id)!.settlement).toBeNull();

        // Every user was credited what their positions got, in available; the pool gave exactly that.
        for (const u of users) {
          const credit = open.filter((p) => p.userId === u).reduce((a, p) => a + after.get(p.id)!.settlement!, 0n);
          expect((await balanceOf(f.db, u, usdc)).available - balances.get(u)!).toBe(credit);
        }
        expect(await platformBalance(f.db, 'market_collateral', usdc)).toBe(pool - collateral);
        expect(await marketCollateral(f.db, marketId, usdc)).toBe(0n);
        expect(await checkLedgerInvariants(f.db)).toEqual([]);
      }),
      { numRuns: 15 },
    );
  }, 300_000);

  it('VOID with only primary trades (mints) refunds each holder exactly their cost', async () => {
    const m = await openMarket();
    const [a, b, c] = [await funded(), await funded(), await funded()];
    await tradeAndClose(m, [a, b, c], [
      { user: 0, outcome: 'YES', side: 'buy', price: 37, quantity: 10, ioc: false },
      { user: 1, outcome: 'NO', side: 'buy', price: 63, quantity: 6, ioc: false },
      { user: 2, outcome: 'NO', side: 'buy', price: 70, quantity: 4, ioc: false },
    ]);
    const costs = new Map((await held(m)).map((p) => [p.id, p.cost]));
    await f.db.transaction((tx) => resolveMarket(tx, f.admin, m, { result: 'VOID', ...evidence, confirm: true }));
    for (const p of await held(m)) expect(p.settlement).toBe(costs.get(p.id));
  });

  it('VOID pro rata is exact when a share’s quotient is a hair below a whole unit (integer division, not a rounded one)', async () => {
    const m = await openMarket();
    const [a, b, c] = [await funded(), await funded(), await funded()];
    await tradeAndClose(m, [a, b, c], [
      { user: 0, outcome: 'YES', side: 'buy', price: 37, quantity: 200, ioc: false },
      { user: 1, outcome: 'NO', side: 'buy', price: 63, quantity: 120, ioc: false },
      { user: 2, outcome: 'NO', side: 'buy', price: 70, quantity: 80, ioc: false },
    ]);
    const collateral = await marketCollateral(f.db, m, usdc);
    expect(collateral).toBe(200n * SHARE);
    // Costs as trades at other prices could leave them (sum 100,000,000,007): the first position's
    // share is 142,857,142 + (1 − 10⁻¹¹), which numeric division rounds to 142,857,143.00000000 (a
    // floor of it would give that position its leftover unit twice and the second position none);
    // two units are left over, one each to the first and second (largest remainders).
    const ids = (await held(m)).map((p) => p.id).sort((x, y) => x - y);
    expect(ids).toHaveLength(3);
    const costs = [71_428_571_505n, 28_571_328_499n, 100_003n];
    for (const [i, id] of ids.entries()) await f.db.update(positions).set({ cost: costs[i]! }).where(eq(positions.id, id));
    const want = proRata(collateral, ids.map((id, i) => ({ id, cost: costs[i]! })));
    expect(ids.map((id) => want.get(id))).toEqual([142_857_143n, 57_142_657n, 200n]);
    await f.db.transaction((tx) => resolveMarket(tx, f.admin, m, { result: 'VOID', ...evidence, confirm: true }));
    const after = new Map((await held(m)).map((p) => [p.id, p.settlement]));
    expect(ids.map((id) => after.get(id))).toEqual([142_857_143n, 57_142_657n, 200n]);
  });
});

describe('the resolve action over the API', () => {
  it('resolves a closed market: the winner is credited, positions close, the history and the audit log say who, when and with what evidence', async () => {
    const { id: m, ticker } = await openTestMarket(post, 'KXRES');
    const [winner, loser] = [await funded(), await funded()];
    await tradeAndClose(m, [winner, loser], [
      { user: 0, outcome: 'YES', side: 'buy', price: 55, quantity: 20, ioc: false },
      { user: 1, outcome: 'NO', side: 'buy', price: 45, quantity: 20, ioc: false },
    ]);
    const w0 = (await balanceOf(f.db, winner, usdc)).available;
    const res = await post(`markets/${m}/resolve`, { result: 'YES', ...evidence, confirm: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(`Market ${ticker} resolved YES: 20 USDC paid to 2 holders`);
    expect(res.body.result).toMatchObject({ status: 'resolved', result: 'YES', openInterest: 0 });
    expect((await balanceOf(f.db, winner, usdc)).available - w0).toBe(20n * SHARE);
    expect((await held(m)).every((p) => p.status === 'closed' && p.quantity === 0)).toBe(true);

    const list = await call(f.s, 'GET', `/api/admin/resolutions?marketId=${m}`, { token });
    expect(list.status).toBe(200);
    expect(list.body.result.items).toHaveLength(1);
    expect(list.body.result.items[0]).toMatchObject({
      marketId: String(m), result: 'YES', source: evidence.source, evidence: evidence.evidence, evidenceUrls: evidence.evidenceUrls, adminName: 'Super Admin',
      totalPaid: String(20n * SHARE), totalPaidText: '20 USDC', holders: 2, positions: 2, pairs: 20,
    });
    const csv = await call(f.s, 'GET', `/api/admin/resolutions/export?result=YES&marketId=${m}`, { token });
    expect(csv.status).toBe(200);
    expect(csv.raw).toContain(evidence.source);
    const [entry] = await f.db.select().from(auditLog).where(sql`${auditLog.resource} = 'markets' and ${auditLog.recordId} = ${String(m)} and ${auditLog.action} = 'resolve'`);
    expect(entry?.after).toMatchObject({ status: 'resolved', result: 'YES', source: evidence.source, totalPaid: String(20n * SHARE) });

    // Once resolved, again: 409, nothing paid twice.
    const again = await post(`markets/${m}/resolve`, { result: 'NO', ...evidence, confirm: true });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Market is already resolved');
  });

  it('settles the event with its last market: closed while any market awaits resolution, settled (audited) once none does', async () => {
    const n = ++seq;
    const ev = await post('events', { ticker: `KXRES-S${n}`, title: `Settling event ${n}`, openTime: iso(-1), closeTime: iso(48), expectedResolutionTime: iso(50) });
    const eventId = ev.body.result._id as string;
    expect((await post(`events/${eventId}/open`)).status).toBe(200);
    const ids: string[] = [];
    for (const k of [1, 2]) {
      const m = await post('markets', { eventId, ticker: `KXRES-S${n}-${k}`, title: `Settling market ${n}-${k}?`, rules: 'Resolves YES if it happens.' });
      ids.push(m.body.result._id);
      expect((await post(`markets/${m.body.result._id}/open`)).status).toBe(200);
    }
    const status = async () => (await call(f.s, 'GET', `/api/admin/events/${eventId}`, { token })).body.result.status;
    // The first market is resolved while the event is still open: nothing to settle yet.
    expect((await post(`markets/${ids[0]}/close`, { confirm: true })).status).toBe(200);
    expect((await post(`markets/${ids[0]}/resolve`, { result: 'NO', ...evidence, confirm: true })).status).toBe(200);
    expect(await status()).toBe('open');
    // Closing the event closes the other market; it awaits resolution, so the event stays closed.
    expect((await post(`events/${eventId}/close`)).status).toBe(200);
    expect(await status()).toBe('closed');
    expect((await post(`markets/${ids[1]}/resolve`, { result: 'VOID', ...evidence, confirm: true })).status).toBe(200);
    expect(await status()).toBe('settled');
    const [entry] = await f.db.select().from(auditLog).where(sql`${auditLog.resource} = 'events' and ${auditLog.recordId} = ${eventId} and ${auditLog.action} = 'settle'`);
    expect(entry?.after).toEqual({ status: 'settled' });

    // Every market resolved before the event closes: closing it settles it.
    const m = await openMarket();
    const record = (await call(f.s, 'GET', `/api/admin/markets/${m}`, { token })).body.result;
    expect((await post(`markets/${m}/close`, { confirm: true })).status).toBe(200);
    expect((await post(`markets/${m}/resolve`, { result: 'YES', ...evidence, confirm: true })).status).toBe(200);
    const closed = await post(`events/${record.eventId}/close`);
    expect(closed.status).toBe(200);
    expect((await call(f.s, 'GET', `/api/admin/events/${record.eventId}`, { token })).body.result.status).toBe('settled');
  });

  it('VOID makes the market voided; the unresolved list shows closed markets oldest close first', async () => {
    const [m1, m2] = [await openMarket(), await openMarket()];
    expect((await post(`markets/${m2}/close`, { confirm: true })).status).toBe(200);
    expect((await post(`markets/${m1}/close`, { confirm: true })).status).toBe(200);
    const queue = await call(f.s, 'GET', '/api/admin/markets?status=closed&sort=closedAt&limit=200', { token });
    const ids = (queue.body.result.items as { _id: string }[]).map((r) => Number(r._id));
    expect(ids.indexOf(m2)).toBeLessThan(ids.indexOf(m1));
    const res = await post(`markets/${m1}/resolve`, { result: 'VOID', ...evidence, confirm: true });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ status: 'voided', result: 'VOID' });
    expect(res.body.message).toMatch(/voided: 0 USDC refunded to 0 holders/);
  });

  it('refuses without the named right (403), from another state (409) and a bad body (400), changing nothing', async () => {
    const m = await openMarket();
    const [a, b] = [await funded(), await funded()];
    await placeOrder(null, f.platform, { marketId: m, userId: a, outcome: 'YES', side: 'buy', price: 50, quantity: 5, timeInForce: 'GTC' }, f.db);
    await placeOrder(null, f.platform, { marketId: m, userId: b, outcome: 'NO', side: 'buy', price: 50, quantity: 5, timeInForce: 'GTC' }, f.db);
    const editor = await makeSubAdmin(f.s, [{ name: 'Markets', canView: true, canEdit: true }], token);
    const resolver = await makeSubAdmin(f.s, [{ name: 'Markets', canView: true, canEdit: false, rights: ['resolve'] }], token);

    const base = await snapshot(f.db);
    // Open: 409 for the one holding the right.
    const early = await post(`markets/${m}/resolve`, { result: 'YES', ...evidence, confirm: true }, resolver.token);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('Market is open: only a closed market can be resolved');
    expect((await post(`markets/${m}/close`, { confirm: true })).status).toBe(200);
    const closed = await snapshot(f.db);
    expect(closed.counts.ledger_transactions).toBe(base.counts.ledger_transactions);

    // Edit on Markets is not the right to resolve.
    const denied = await post(`markets/${m}/resolve`, { result: 'YES', ...evidence, confirm: true }, editor.token);
    expect(denied.status).toBe(403);
    // Bad bodies: field errors, nothing written.
    const bad = await post(`markets/${m}/resolve`, { result: 'MAYBE', source: '', evidence: 'short' }, resolver.token);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['evidence', 'result', 'source']);
    expect((await post(`markets/${m}/resolve`, { result: 'YES', source: 'x'.repeat(301), evidence: evidence.evidence }, resolver.token)).status).toBe(400);
    expect((await post(`markets/${m}/resolve`, { result: 'YES', ...evidence, extra: 1 }, resolver.token)).status).toBe(400);
    // Evidence links: http(s) only, and at least one for YES or NO.
    expect((await post(`markets/${m}/resolve`, { result: 'YES', ...evidence, evidenceUrls: ['javascript:alert(1)'] }, resolver.token)).body.errors).toEqual({ 'evidenceUrls.0': 'Each link: a full http(s) URL' });
    expect((await post(`markets/${m}/resolve`, { result: 'NO', ...evidence, evidenceUrls: [] }, resolver.token)).body.errors).toEqual({ evidenceUrls: 'Add at least one link to the evidence (paste a URL, then Enter)' });
    const unchanged = await snapshot(f.db);
    expect({ ...unchanged, counts: { ...unchanged.counts, audit_log: 0 } }).toEqual({ ...closed, counts: { ...closed.counts, audit_log: 0 } });
    const [row] = await f.db.select().from(markets).where(eq(markets.id, m));
    expect(row!.status).toBe('closed');

    // The named right alone is enough.
    const ok = await post(`markets/${m}/resolve`, { result: 'NO', ...evidence, confirm: true }, resolver.token);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const [r] = await f.db.select().from(resolutions).where(eq(resolutions.marketId, m));
    expect(r).toMatchObject({ result: 'NO', adminId: Number(resolver.id), totalPaid: 5n * SHARE });
  });

  it('two resolutions at once settle once: one succeeds, the other gets 409', async () => {
    const m = await openMarket();
    const [a, b] = [await funded(), await funded()];
    await tradeAndClose(m, [a, b], [
      { user: 0, outcome: 'YES', side: 'buy', price: 30, quantity: 7, ioc: false },
      { user: 1, outcome: 'NO', side: 'buy', price: 70, quantity: 7, ioc: false },
    ]);
    const second = await superLogin(f.s);
    const [x, y] = await Promise.all([
      post(`markets/${m}/resolve`, { result: 'YES', ...evidence, confirm: true }),
      post(`markets/${m}/resolve`, { result: 'NO', ...evidence, confirm: true }, second),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    const loser = x.status === 409 ? x : y;
    expect(loser.body.message).toMatch(/^Market is already (resolved|voided)$|^Market is resolved/);
    expect(await f.db.select().from(resolutions).where(eq(resolutions.marketId, m))).toHaveLength(1);
    const settlements = await f.db.select().from(ledgerTransactions).where(sql`${ledgerTransactions.cause} = 'settlement' and ${ledgerTransactions.refId} = ${m}`);
    expect(settlements).toHaveLength(1);
    expect(await marketCollateral(f.db, m, usdc)).toBe(0n);
  });

  it('rolls back with a clear error when the collateral would not end at zero', async () => {
    const m = await openMarket();
    const [a, b] = [await funded(), await funded()];
    await tradeAndClose(m, [a, b], [
      { user: 0, outcome: 'YES', side: 'buy', price: 60, quantity: 3, ioc: false },
      { user: 1, outcome: 'NO', side: 'buy', price: 40, quantity: 3, ioc: false },
    ]);
    // A stray posting into this market's collateral (what a bug elsewhere would leave).
    const stray = (amount: bigint) =>
      f.db.transaction((tx) =>
        postTransaction(tx, f.system, { cause: 'order', ref: { type: 'market', id: m }, postings: [
          { account: { platform: 'market_collateral' }, coin: usdc, amount },
          { account: { platform: 'adjustments' }, coin: usdc, amount: -amount },
        ] }),
      );
    await stray(1n);
    const before = await snapshot(f.db);
    const res = await post(`markets/${m}/resolve`, { result: 'YES', ...evidence, confirm: true });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/cannot be settled: its collateral holds 3000001 minor units of USDC for 3 YES and 3 NO shares .*nothing was paid/);
    expect(await snapshot(f.db)).toEqual(before);
    const [row] = await f.db.select().from(markets).where(eq(markets.id, m));
    expect(row!.status).toBe('closed');
    expect((await held(m)).every((p) => p.status === 'open' && p.settlement === null)).toBe(true);
    // Undo the stray posting; then it settles.
    await stray(-1n);
    expect((await post(`markets/${m}/resolve`, { result: 'YES', ...evidence, confirm: true })).status).toBe(200);
  });

  it('refuses the platform API as the actor', async () => {
    const err = await f.db.transaction((tx) => resolveMarket(tx, f.platform, 1, { result: 'YES', ...evidence, confirm: true })).catch((e: unknown) => e);
    expect((err as AppError).status).toBe(403);
    const rows = await queryRows<{ n: number }>(f.db, sql`select count(*)::int as n from resolutions`);
    expect(rows[0]!.n).toBeGreaterThan(0);
  });
});

describe('two admins to resolve: a proposal, a dispute window, a confirmation', () => {
  const settings = (body: Record<string, unknown>, as = token) => post('updateSiteDetails', body, as);
  const get = (path: string, as = token) => call(f.s, 'GET', `/api/admin/${path}`, { token: as });
  const paidOnce = async (m: number) => {
    expect(await f.db.select().from(resolutions).where(eq(resolutions.marketId, m))).toHaveLength(1);
    expect(await f.db.select().from(ledgerTransactions).where(sql`${ledgerTransactions.cause} = 'settlement' and ${ledgerTransactions.refId} = ${m}`)).toHaveLength(1);
    expect(await marketCollateral(f.db, m, usdc)).toBe(0n);
  };
  const closedMarket = async () => {
    const m = await openMarket();
    const [a, b] = [await funded(), await funded()];
    await tradeAndClose(m, [a, b], [
      { user: 0, outcome: 'YES', side: 'buy', price: 40, quantity: 5, ioc: false },
      { user: 1, outcome: 'NO', side: 'buy', price: 60, quantity: 5, ioc: false },
    ]);
    return { m, winner: a };
  };

  it('Resolve proposes, the proposer cannot confirm, the window holds, another admin settles once', async () => {
    const rita = await makeSubAdmin(f.s, [{ name: 'Markets', canView: true, canEdit: false, rights: ['resolve'] }], token);
    const ravi = await makeSubAdmin(f.s, [{ name: 'Markets', canView: true, canEdit: false, rights: ['resolve'] }], token);
    expect((await settings({ resolutionTwoAdmins: true, resolutionDisputeHours: 2 })).status).toBe(200);
    try {
      const { m, winner } = await closedMarket();
      const w0 = (await balanceOf(f.db, winner, usdc)).available;
      const proposed = await post(`markets/${m}/resolve`, { result: 'YES', ...evidence, confirm: true }, rita.token);
      expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
      expect(proposed.body.message).toMatch(/^Resolution of KXRES-\S+ as YES proposed: another admin holding Resolve confirms it from .+ UTC, or rejects it$/);
      expect(proposed.body.result).toMatchObject({ status: 'closed', proposalPending: true, proposedResult: 'YES', proposedByEmail: rita.email });
      expect(await f.db.select().from(resolutions).where(eq(resolutions.marketId, m))).toHaveLength(0);
      // It waits in Ravi's queue, not in Rita's.
      expect((await get('approvals', ravi.token)).body.result.items.map((a: { summary: string }) => a.summary)).toContain(`Resolve ${proposed.body.result.ticker} YES`);
      expect((await get('approvals', rita.token)).body.result.items).toEqual([]);
      // A second proposal meanwhile: 409.
      expect((await post(`markets/${m}/resolve`, { result: 'NO', ...evidence, confirm: true }, ravi.token)).status).toBe(409);
      // The proposer cannot confirm; another admin not before the window ends.
      expect((await post(`markets/${m}/confirm`, {}, rita.token)).status).toBe(403);
      const early = await post(`markets/${m}/confirm`, {}, ravi.token);
      expect(early.status).toBe(409);
      expect(early.body.message).toMatch(/dispute window of KXRES-\S+ ends at .+ UTC: it can be confirmed from then$/);
      // The clock moves past the window (the proposal's end moved back, as two hours passing would).
      await f.db.execute(sql`update resolution_proposals set dispute_ends_at = now() - interval '1 minute' where market_id = ${m} and status = 'open'`);
      const [x, y] = await Promise.all([post(`markets/${m}/confirm`, {}, ravi.token), post(`markets/${m}/confirm`, {}, token)]);
      expect([x.status, y.status].sort()).toEqual([200, 409]);
      const done = x.status === 200 ? x : y;
      expect(done.body.message).toMatch(/^Market KXRES-\S+ resolved YES: 5 USDC paid to 2 holders$/);
      await paidOnce(m);
      expect((await balanceOf(f.db, winner, usdc)).available - w0).toBe(5n * SHARE);
      const [r] = await f.db.select().from(resolutions).where(eq(resolutions.marketId, m));
      expect(r).toMatchObject({ result: 'YES', evidenceUrls: evidence.evidenceUrls });
      const actions = (await f.db.select().from(auditLog).where(sql`${auditLog.resource} = 'markets' and ${auditLog.recordId} = ${String(m)}`)).map((e) => e.action);
      expect(actions).toEqual(expect.arrayContaining(['propose', 'resolve', 'confirm']));
    } finally {
      expect((await settings({ resolutionTwoAdmins: false })).status).toBe(200);
    }
  });

  it('a rejection (with a reason) pays nothing and leaves the market closed for a new proposal; dispute hours 0 confirm at once', async () => {
    const sam = await makeSubAdmin(f.s, [{ name: 'Markets', canView: true, canEdit: false, rights: ['resolve'] }], token);
    expect((await settings({ resolutionTwoAdmins: true, resolutionDisputeHours: 0 })).status).toBe(200);
    try {
      const { m } = await closedMarket();
      expect((await post(`markets/${m}/resolve`, { result: 'NO', ...evidence, confirm: true }, sam.token)).status).toBe(200);
      const before = await snapshot(f.db);
      expect((await post(`markets/${m}/reject`, {}, token)).body.errors).toEqual({ reasonCode: 'Pick a reason' });
      const rejected = await post(`markets/${m}/reject`, { reasonCode: 'wrong_result', reason: 'The figure was above the strike' });
      expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
      expect(rejected.body.result).toMatchObject({ status: 'closed', proposalPending: false, proposedResult: null });
      const after = await snapshot(f.db);
      expect(after.balances).toEqual(before.balances);
      expect((await post(`markets/${m}/confirm`, {}, token)).status).toBe(409);
      // Proposed again (YES), confirmed at once by another admin: the window is 0 hours.
      expect((await post(`markets/${m}/resolve`, { result: 'YES', ...evidence, confirm: true }, sam.token)).status).toBe(200);
      const ok = await post(`markets/${m}/confirm`, {}, token);
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      await paidOnce(m);
    } finally {
      expect((await settings({ resolutionTwoAdmins: false })).status).toBe(200);
    }
  });
});
