import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { notifications, reconciliations } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { call, makeSubAdmin, } from '../../../test/helpers.js';
import { expectLedgerHealthy, makeUser, newPlatformKey, platformCall, randomAddress, randomSignature, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';
import { fundedUser, openTestMarket } from '../../../test/market-helpers.js';
import { adjustBalance } from '../balance-adjustments/service.js';
import { coinBySymbol } from '../coins/service.js';
import type { CoinRow } from '../coins/table.js';
import { confirmDeposit, failDeposit, recordDeposit } from '../deposits/service.js';
import { placeOrder } from '../orders/service.js';
import { resolveMarket } from '../resolutions/service.js';
import { approveWithdrawal, completeWithdrawal, failWithdrawal, rejectWithdrawal, requestWithdrawal } from '../withdrawals/service.js';
import { runDailyReconciliation } from './service.js';

/**
 * Reconciliation: after random deposits, withdrawals, trades, settlements and adjustments, a custody
 * report of what the chain holds reconciles (differences zero, or exactly the deposits in flight);
 * one injected custody mismatch is flagged exactly once with its amount. Over the API: the platform
 * endpoint's checks, the rights, "Reconcile now", the report by day and the dashboard card.
 */
const key = newPlatformKey();
let f: MoneyFixture;
let token: string;
let usdc: CoinRow;

moneyFile((m) => ({ f, token } = m), { platformKey: key, fees: { takerFeeBps: 150, makerFeeBps: 20 } });
beforeAll(async () => {
  usdc = (await coinBySymbol(f.db, 'USDC'))!;
});

const post = (path: string, body: unknown = {}, as = token) => call(f.s, 'POST', `/api/admin/${path}`, { token: as, body });
const get = (path: string, as = token) => call(f.s, 'GET', `/api/admin/${path}`, { token: as });
const custody = (amount: bigint | string, asOf = new Date().toISOString(), k?: string) =>
  platformCall(f.s, key, 'POST', 'custody-balances', { body: { coin: 'USDC', amount: String(amount), asOf }, ...(k ? { key: k } : {}) });
const mismatchNotices = async () => Number((await f.db.select({ n: sql<number>`count(*)` }).from(notifications).where(eq(notifications.kind, 'reconciliation_mismatch')))[0]!.n);

/** What the chain holds of USDC in this file's world, kept by the test itself: every deposit seen (not failed) minus every amount sent. */
const chain = { held: 0n, pending: new Map<number, bigint>() };

type Op =
  | { kind: 'deposit'; amount: number; fate: 'confirm' | 'pending' | 'fail' }
  | { kind: 'confirmPending' }
  | { kind: 'withdraw'; amount: number; fate: 'complete' | 'reject' | 'fail' | 'approved' }
  | { kind: 'adjust'; amount: number }
  | { kind: 'trade'; price: number; quantity: number; settle: 'YES' | 'NO' | 'VOID' | null };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('deposit' as const), amount: fc.integer({ min: 1, max: 5_000_000_000 }), fate: fc.constantFrom('confirm' as const, 'pending' as const, 'fail' as const) }),
  fc.record({ kind: fc.constant('confirmPending' as const) }),
  fc.record({ kind: fc.constant('withdraw' as const), amount: fc.integer({ min: 1_000_000, max: 900_000_000 }), fate: fc.constantFrom('complete' as const, 'reject' as const, 'fail' as const, 'approved' as const) }),
  fc.record({ kind: fc.constant('adjust' as const), amount: fc.integer({ min: -50_000_000, max: 50_000_000 }).filter((n) => n !== 0) }),
  fc.record({ kind: fc.constant('trade' as const), price: fc.integer({ min: 1, max: 99 }), quantity: fc.integer({ min: 1, max: 30 }), settle: fc.constantFrom('YES' as const, 'NO' as const, 'VOID' as const, null) }),
);

let trader: number;
const refusedIs409 = (e: unknown) => {
  if (!(e instanceof AppError) || e.status !== 409) throw e;
};

async function apply(op: Op, userId: number): Promise<void> {
  switch (op.kind) {
    case 'deposit': {
      const d = await f.db.transaction((tx) => recordDeposit(tx, f.platform, { userId, coin: usdc.id, amount: BigInt(op.amount), txSignature: randomSignature(), fromAddress: randomAddress() }));
      chain.held += d.amount;
      if (op.fate === 'confirm') await f.db.transaction((tx) => confirmDeposit(tx, f.admin, d.id));
      else if (op.fate === 'fail') {
        await f.db.transaction((tx) => failDeposit(tx, f.admin, d.id, { reasonCode: 'not_found' }));
        chain.held -= d.amount;
      } else chain.pending.set(d.id, d.amount);
      return;
    }
    case 'confirmPending': {
      const [id] = chain.pending.keys();
      if (id === undefined) return;
      await f.db.transaction((tx) => confirmDeposit(tx, f.admin, id));
      chain.pending.delete(id);
      return;
    }
    case 'withdraw': {
      const w = await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId, coin: usdc.id, amount: BigInt(op.amount), toAddress: randomAddress() })).catch((e: unknown) => {
        refusedIs409(e);
        return null;
      });
      if (!w) return;
      if (op.fate === 'reject') {
        await f.db.transaction((tx) => rejectWithdrawal(tx, f.admin, w.id, { reasonCode: 'suspected_fraud' }));
        return;
      }
      if (w.status === 'requested') await f.db.transaction((tx) => approveWithdrawal(tx, f.admin, w.id));
      if (op.fate === 'complete') {
        await f.db.transaction((tx) => completeWithdrawal(tx, f.admin, w.id, { txSignature: randomSignature() }));
        chain.held -= w.amount;
      } else if (op.fate === 'fail') await f.db.transaction((tx) => failWithdrawal(tx, f.admin, w.id, { reasonCode: 'chain_error' }));
      return;
    }
    case 'adjust':
      await f.db.transaction((tx) => adjustBalance(tx, f.admin, { userId, coin: usdc.id, amount: BigInt(op.amount), reasonCode: 'correction', reason: 'Reconciliation test' })).catch(refusedIs409);
      return;
    case 'trade': {
      const m = await openTestMarket(post, 'KXREC');
      await placeOrder(null, f.platform, { marketId: m.id, userId, outcome: 'YES', side: 'buy', price: op.price, quantity: op.quantity, timeInForce: 'GTC' }, f.db).catch(refusedIs409);
      await placeOrder(null, f.platform, { marketId: m.id, userId: trader, outcome: 'NO', side: 'buy', price: 100 - op.price, quantity: op.quantity, timeInForce: 'GTC' }, f.db).catch(refusedIs409);
      if (op.settle) {
        expect((await post(`markets/${m.id}/close`, { confirm: true })).status).toBe(200);
        await f.db.transaction((tx) => resolveMarket(tx, f.admin, m.id, { result: op.settle, source: 'Official results page', evidence: 'The published figure decided it.', evidenceUrls: ['https://stats.example.gov/release/2026-11'], confirm: true }));
      }
      return;
    }
  }
}

describe('reconciliation (property-based)', () => {
  it('reconciles after random money movements, and flags one injected custody mismatch exactly once with its amount', async () => {
    trader = await fundedUser(f, usdc.id, 10_000_000_000n);
    chain.held += 10_000_000_000n;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 1_000_000_000 }), async (ops, injected) => {
        const user = (await makeUser(f)).id;
        for (const op of ops) await apply(op, user);
        const pending = [...chain.pending.values()].reduce((a, b) => a + b, 0n);

        // What the chain holds: reconciled, any difference exactly the deposits in flight.
        const asOf = new Date().toISOString();
        const ok = await custody(chain.held, asOf);
        expect(ok.status, JSON.stringify(ok.body)).toBe(200);
        expect(ok.body.result.reconciliation).toMatchObject({ status: pending === 0n ? 'matched' : 'explained', difference: String(pending), unexplained: '0' });
        const [row] = await f.db.select().from(reconciliations).where(eq(reconciliations.id, Number(ok.body.result.reconciliation._id)));
        expect(row).toMatchObject({ ledgerVsRecords: 0n, inFlight: pending, custody: chain.held, ledgerCustody: chain.held - pending });
        expect(row!.explanation.split('\n').filter((l) => l.startsWith('Deposit #')).length).toBe(Math.min(chain.pending.size, 50));

        // One custody report off by `injected`: one mismatch of exactly that amount, one notification, whoever looks again.
        const notices = await mismatchNotices();
        const k = `rec-${asOf}-${injected}`;
        const bad = await custody(chain.held + BigInt(injected), asOf, k);
        expect(bad.body.result.reconciliation).toMatchObject({ status: 'mismatch', difference: String(pending + BigInt(injected)), unexplained: String(injected) });
        expect(await mismatchNotices()).toBe(notices + 1);
        const replay = await custody(chain.held + BigInt(injected), asOf, k);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(replay.body.result.reconciliation._id).toBe(bad.body.result.reconciliation._id);
        expect(await mismatchNotices()).toBe(notices + 1);
        // The correct report again: no further notification.
        expect((await custody(chain.held)).body.result.reconciliation.unexplained).toBe('0');
        expect(await mismatchNotices()).toBe(notices + 1);
      }),
      { numRuns: 12 },
    );
    await expectLedgerHealthy(f.db);
  }, 300_000);
});

describe('custody reports and checks over the API', () => {
  it('refuses a bad custody report naming the field, and stores nothing', async () => {
    const before = (await get('reconciliations')).body.result.total;
    const neg = await platformCall(f.s, key, 'POST', 'custody-balances', { body: { coin: 'USDC', amount: '-5', asOf: new Date().toISOString() } });
    expect(neg.status).toBe(400);
    expect(Object.keys(neg.body.errors)).toEqual(['amount']);
    const coin = await platformCall(f.s, key, 'POST', 'custody-balances', { body: { coin: 'NOPE', amount: '5', asOf: new Date().toISOString() } });
    expect(coin.status).toBe(400);
    expect(Object.keys(coin.body.errors)).toEqual(['coin']);
    const future = await custody(5n, new Date(Date.now() + 3_600_000).toISOString());
    expect(future.status).toBe(400);
    expect(Object.keys(future.body.errors)).toEqual(['asOf']);
    const noZone = await custody(5n, '2026-11-28T10:00:00');
    expect(noZone.status).toBe(400);
    const noKey = await platformCall(f.s, key, 'POST', 'custody-balances', { body: { coin: 'USDC', amount: '5', asOf: new Date().toISOString() }, key: null });
    expect(noKey.status).toBe(400);
    expect((await get('reconciliations')).body.result.total).toBe(before);
  });

  it('needs the Reconciliation right: 403 without it, view lists, edit reconciles now', async () => {
    const none = await makeSubAdmin(f.s, [{ name: 'Deposit', canView: true, canEdit: true }], token);
    expect((await get('reconciliations', none.token)).status).toBe(403);
    expect((await get('reports/reconciliation-daily?from=2026-11-01&to=2026-11-02', none.token)).status).toBe(403);
    expect((await post('reconciliations', { coinId: String(usdc.id) }, none.token)).status).toBe(403);
    const viewer = await makeSubAdmin(f.s, [{ name: 'Reconciliation', canView: true, canEdit: false }], token);
    expect((await get('reconciliations', viewer.token)).status).toBe(200);
    expect((await post('reconciliations', { coinId: String(usdc.id) }, viewer.token)).status).toBe(403);
    const editor = await makeSubAdmin(f.s, [{ name: 'Reconciliation', canView: true, canEdit: true }], token);
    const bad = await post('reconciliations', { coinId: 'x' }, editor.token);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['coinId']);
    const now = await post('reconciliations', { coinId: String(usdc.id) }, editor.token);
    expect(now.status, JSON.stringify(now.body)).toBe(200);
    // Checked at the latest report's instant, against it: the last report above held what the chain holds.
    expect(now.body.result).toMatchObject({ coin: 'USDC', trigger: 'on_demand', byEmail: editor.email, unexplained: '0' });
    expect(['matched', 'explained']).toContain(now.body.result.status);
    expect(now.body.message).toMatch(/^USDC reconciled: (matched|an explained difference of [\d.]+ USDC)$/);
    const dash = await call(f.s, 'GET', '/api/admin/dashboard', { token: editor.token });
    const card = dash.body.result.cards.find((c: { key: string }) => c.key === 'reconciliation');
    expect(card.text).toMatch(/^USDC (matched|explained)/);
    expect((await call(f.s, 'GET', '/api/admin/dashboard', { token: none.token })).body.result.cards.some((c: { key: string }) => c.key === 'reconciliation')).toBe(false);
  });

  it('the report by day checks each coin and day at its last custody report; the daily job stores it once, without a second notification', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const res = await call(f.s, 'GET', `/api/admin/reports/reconciliation-daily?from=${today}&to=${today}`, { token, headers: { timezone: 'UTC' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = res.body.result.rows.find((r: { coin: string }) => r.coin === 'USDC');
    // The day's last report is the correct one posted last.
    expect(row).toMatchObject({ date: today, unexplainedText: '0 USDC' });
    const csv = await call(f.s, 'GET', `/api/admin/reports/reconciliation-daily/export?from=${today}&to=${today}`, { token, headers: { timezone: 'UTC' } });
    expect(csv.status).toBe(200);
    expect(csv.raw).toContain('Custody reported');

    const notices = await mismatchNotices();
    const tomorrow = new Date(Date.now() + 86_400_000);
    const first = await runDailyReconciliation(f.db, tomorrow);
    expect(first.checked).toBeGreaterThanOrEqual(1);
    expect((await runDailyReconciliation(f.db, tomorrow)).checked).toBe(0);
    const daily = await f.db.select().from(reconciliations).where(and(eq(reconciliations.trigger, 'daily'), eq(reconciliations.coinId, usdc.id)));
    expect(daily).toHaveLength(1);
    expect(daily[0]!.unexplained).toBe(0n);
    expect(await mismatchNotices()).toBe(notices);
  });
});
