import { beforeAll, describe, expect, it } from 'vitest';
import type { CoinRow } from '../coins/table.js';
import {
  failFiatPayment, recordFiatPayment, refundFiatPayment, succeedFiatPayment, type RecordFiatPaymentInput,
} from './service.js';
import { adjustBalance } from '../balance-adjustments/service.js';
import { balanceOf, platformBalance } from '../ledger/service.js';
import type { UserRow } from '../users/table.js';
import { auditOf, expectRefused, makeCoin, makeUser, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';

let f: MoneyFixture;
let usdc: CoinRow;
let user: UserRow;
let refSeq = 0;
moneyFile((m) => ({ f } = m));
beforeAll(async () => {
  usdc = await makeCoin(f, { symbol: 'FUSDC', decimals: 6 });
  user = await makeUser(f);
});

const topup = (input: Partial<RecordFiatPaymentInput> = {}) =>
  f.db.transaction((tx) =>
    recordFiatPayment(tx, f.platform, {
      userId: user.id, provider: 'stripe', providerReference: `pi_${Date.now()}_${++refSeq}`, amount: 2_500n, currency: 'usd',
      purpose: 'coin_topup', coin: usdc.id, coinAmount: 25_000_000n, ...input,
    }),
  );
const pack = () =>
  f.db.transaction((tx) =>
    recordFiatPayment(tx, f.platform, { userId: user.id, provider: 'stripe', providerReference: `pi_pack_${++refSeq}`, amount: 999n, currency: 'EUR', purpose: 'pack_purchase' }),
  );

describe('fiat payments', () => {
  it('a top-up credits the user from fiat_clearing when it succeeds, and a refund takes it back', async () => {
    const p = await topup();
    expect(p).toMatchObject({ status: 'pending', currency: 'USD', amount: 2_500n, coinAmount: 25_000_000n, provider: 'stripe' });
    expect(await balanceOf(f.db, user.id, usdc.id)).toEqual({ available: 0n, held: 0n });
    const s = await f.db.transaction((tx) => succeedFiatPayment(tx, f.system, p.id));
    expect(s.status).toBe('succeeded');
    expect(await balanceOf(f.db, user.id, usdc.id)).toEqual({ available: 25_000_000n, held: 0n });
    expect(await platformBalance(f.db, 'fiat_clearing', usdc.id)).toBe(-25_000_000n);
    const r = await f.db.transaction((tx) => refundFiatPayment(tx, f.admin, p.id, { reasonCode: 'customer_request', reason: 'Customer disputed the charge' }));
    expect(r).toMatchObject({ status: 'refunded', reason: 'Customer disputed the charge', reviewedBy: f.admin.admin.id });
    expect(r.refundedAt).toBeInstanceOf(Date);
    expect(await balanceOf(f.db, user.id, usdc.id)).toEqual({ available: 0n, held: 0n });
    expect(await platformBalance(f.db, 'fiat_clearing', usdc.id)).toBe(0n);
    const entries = await auditOf(f.db, 'fiat-payments', p.id);
    expect(entries.map((e) => [e.action, e.actorKind])).toEqual([['record', 'platform'], ['succeed', 'system'], ['refund', 'admin']]);
  });

  it('a refund needs the topped-up coins available: 409 and nothing changes', async () => {
    const p = await topup({ coinAmount: 10_000_000n });
    await f.db.transaction((tx) => succeedFiatPayment(tx, f.system, p.id));
    await f.db.transaction((tx) => adjustBalance(tx, f.admin, { userId: user.id, coin: usdc.id, amount: -4_000_000n, reasonCode: 'correction', reason: 'Spent elsewhere (test)' }));
    await expectRefused(f, (tx) => refundFiatPayment(tx, f.admin, p.id, { reasonCode: 'customer_request', reason: 'Chargeback' }), { status: 409, message: /^Insufficient balance/ });
    await f.db.transaction((tx) => adjustBalance(tx, f.admin, { userId: user.id, coin: usdc.id, amount: 4_000_000n, reasonCode: 'correction', reason: 'Undo test debit' }));
    await f.db.transaction((tx) => refundFiatPayment(tx, f.admin, p.id, { reasonCode: 'customer_request', reason: 'Chargeback' }));
  });

  it('a pack purchase moves no coins', async () => {
    const before = await balanceOf(f.db, user.id, usdc.id);
    const p = await pack();
    expect(p).toMatchObject({ purpose: 'pack_purchase', coinId: null, coinAmount: null });
    await f.db.transaction((tx) => succeedFiatPayment(tx, f.system, p.id));
    await f.db.transaction((tx) => refundFiatPayment(tx, f.admin, p.id, { reasonCode: 'customer_request', reason: 'Pack not delivered' }));
    expect(await balanceOf(f.db, user.id, usdc.id)).toEqual(before);
  });

  it('fail from pending; wrong states answer 409 naming the state', async () => {
    const p = await topup();
    const failed = await f.db.transaction((tx) => failFiatPayment(tx, f.system, p.id, { reason: 'Card declined' }));
    expect(failed).toMatchObject({ status: 'failed', reason: 'Card declined' });
    await expectRefused(f, (tx) => succeedFiatPayment(tx, f.system, p.id), { status: 409, message: 'Payment is failed: only a pending payment can be marked succeeded' });
    await expectRefused(f, (tx) => refundFiatPayment(tx, f.admin, p.id, { reasonCode: 'customer_request', reason: 'x' }), { status: 409, message: 'Payment is failed: only a succeeded payment can be refunded' });
    await expectRefused(f, (tx) => failFiatPayment(tx, f.admin, p.id, { reason: 'x' }), { status: 409, message: 'Payment is already failed' });
    const q = await topup();
    await expectRefused(f, (tx) => refundFiatPayment(tx, f.admin, q.id, { reasonCode: 'customer_request', reason: 'x' }), { status: 409, message: /^Payment is pending/ });
    await f.db.transaction((tx) => succeedFiatPayment(tx, f.system, q.id));
    await expectRefused(f, (tx) => succeedFiatPayment(tx, f.system, q.id), { status: 409, message: 'Payment is already succeeded' });
    await expectRefused(f, (tx) => failFiatPayment(tx, f.system, q.id, { reason: 'x' }), { status: 409, message: /^Payment is succeeded/ });
    await f.db.transaction((tx) => refundFiatPayment(tx, f.admin, q.id, { reasonCode: 'customer_request', reason: 'Test cleanup' }));
    await expectRefused(f, (tx) => refundFiatPayment(tx, f.admin, q.id, { reasonCode: 'customer_request', reason: 'x' }), { status: 409, message: 'Payment is already refunded' });
  });

  it('refuses a duplicate provider reference (409) and bad fields (400), changing nothing', async () => {
    const p = await topup();
    await expectRefused(
      f,
      (tx) => recordFiatPayment(tx, f.platform, { userId: user.id, provider: 'Stripe', providerReference: p.providerReference, amount: 1n, currency: 'USD', purpose: 'pack_purchase' }),
      { status: 409, errors: { providerReference: expect.any(String) } },
    );
    // The same reference at another provider is another payment.
    await f.db.transaction((tx) => recordFiatPayment(tx, f.platform, { userId: user.id, provider: 'moonpay', providerReference: p.providerReference, amount: 1n, currency: 'USD', purpose: 'pack_purchase' }));
    await expectRefused(f, (tx) => recordFiatPayment(tx, f.platform, { userId: user.id, provider: '', providerReference: 'a b', amount: -1n, currency: 'XYZ', purpose: 'gift' as 'pack_purchase' }), {
      status: 400,
      errors: { provider: expect.any(String), providerReference: expect.any(String), amount: expect.any(String), currency: expect.any(String), purpose: expect.any(String) },
    });
    await expectRefused(f, (tx) => recordFiatPayment(tx, f.platform, { userId: user.id, provider: 'stripe', providerReference: 'pi_x1', amount: 5n, currency: 'USD', purpose: 'coin_topup' }), {
      status: 400,
      errors: { coin: expect.any(String), coinAmount: expect.any(String) },
    });
    await expectRefused(f, (tx) => recordFiatPayment(tx, f.platform, { userId: user.id, provider: 'stripe', providerReference: 'pi_x2', amount: 5n, currency: 'USD', purpose: 'pack_purchase', coin: usdc.id, coinAmount: 5n }), {
      status: 400,
      errors: { coin: 'Only a coin top-up buys coins' },
    });
    await expectRefused(f, (tx) => recordFiatPayment(tx, f.platform, { userId: 31_337, provider: 'stripe', providerReference: 'pi_x3', amount: 5n, currency: 'USD', purpose: 'pack_purchase' }), { status: 404 });
    await expectRefused(f, (tx) => succeedFiatPayment(tx, f.platform, p.id), { status: 403 });
  });
});
