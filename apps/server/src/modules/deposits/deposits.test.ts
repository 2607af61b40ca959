import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deposits, ledgerTransactions, notifications } from '../../db/schema.js';
import { updateCoin } from '../coins/service.js';
import type { CoinRow } from '../coins/table.js';
import { confirmDeposit, failDeposit, recordDeposit } from './service.js';
import { balanceOf, platformBalance } from '../ledger/service.js';
import type { UserRow } from '../users/table.js';
import { auditOf, expectRefused, makeCoin, makeUser, randomAddress, randomSignature, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';

let f: MoneyFixture;
let coin: CoinRow;
let user: UserRow;
moneyFile((m) => ({ f } = m));
beforeAll(async () => {
  coin = await makeCoin(f, { decimals: 9 });
  user = await makeUser(f);
});

const record = (amount = 1_500_000_000n, txSignature = randomSignature()) =>
  f.db.transaction((tx) => recordDeposit(tx, f.platform, { userId: user.id, coin: coin.id, amount, txSignature, fromAddress: randomAddress() }));

describe('deposits', () => {
  it('records a pending deposit without crediting, then confirming credits hot_wallet → user available once', async () => {
    const d = await record(1_500_000_000n);
    expect(d).toMatchObject({ status: 'pending', amount: 1_500_000_000n, confirmedAt: null });
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: 0n, held: 0n });
    const hotBefore = await platformBalance(f.db, 'hot_wallet', coin.id);
    const c = await f.db.transaction((tx) => confirmDeposit(tx, f.admin, d.id));
    expect(c).toMatchObject({ status: 'confirmed', reviewedBy: f.admin.admin.id });
    expect(c.confirmedAt).toBeInstanceOf(Date);
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: 1_500_000_000n, held: 0n });
    expect(await platformBalance(f.db, 'hot_wallet', coin.id)).toBe(hotBefore - 1_500_000_000n);
    const txns = await f.db.select().from(ledgerTransactions).where(eq(ledgerTransactions.refId, d.id));
    expect(txns.filter((t) => t.refType === 'deposit')).toMatchObject([{ cause: 'deposit', actorKind: 'admin', adminId: f.admin.admin.id }]);
    const entries = await auditOf(f.db, 'deposits', d.id);
    expect(entries.map((e) => [e.action, e.actorKind])).toEqual([['record', 'platform'], ['confirm', 'admin']]);
    expect(entries[1]).toMatchObject({ before: expect.objectContaining({ status: 'pending', amount: '1500000000' }), after: expect.objectContaining({ status: 'confirmed' }) });
  });

  it('a second confirmation is 409 "Deposit is already confirmed" and credits nothing', async () => {
    const d = await record(10n);
    await f.db.transaction((tx) => confirmDeposit(tx, f.system, d.id));
    await expectRefused(f, (tx) => confirmDeposit(tx, f.admin, d.id), { status: 409, message: 'Deposit is already confirmed', errors: { status: 'Deposit is already confirmed' } });
    await expectRefused(f, (tx) => failDeposit(tx, f.admin, d.id, { reasonCode: 'reverted', reason: 'late' }), { status: 409, message: 'Deposit is confirmed: only a pending deposit can be failed' });
  });

  it('fails a pending deposit with a reason; it can then be neither confirmed nor failed again', async () => {
    const d = await record(20n);
    const failed = await f.db.transaction((tx) => failDeposit(tx, f.admin, d.id, { reasonCode: 'reverted', reason: 'Transaction reverted on chain' }));
    expect(failed).toMatchObject({ status: 'failed', failedReason: 'Transaction reverted on chain' });
    await expectRefused(f, (tx) => confirmDeposit(tx, f.admin, d.id), { status: 409, message: 'Deposit is failed: only a pending deposit can be confirmed' });
    await expectRefused(f, (tx) => failDeposit(tx, f.admin, d.id, { reasonCode: 'reverted', reason: 'again' }), { status: 409, message: 'Deposit is already failed' });
    const pending = await record(5n);
    await expectRefused(f, (tx) => failDeposit(tx, f.admin, pending.id, { reasonCode: 'other', reason: '' }), { status: 400, errors: { reason: 'Say what happened (at least 3 characters)' } });
  });

  it('refuses the same transaction signature twice (409), changing nothing', async () => {
    const sig = randomSignature();
    await record(30n, sig);
    await expectRefused(f, (tx) => recordDeposit(tx, f.platform, { userId: user.id, coin: coin.id, amount: 99n, txSignature: sig }), {
      status: 409,
      errors: { txSignature: 'A deposit with this transaction signature is already recorded' },
    });
  });

  it('refuses a deposit-disabled or inactive coin, bad amounts and signatures, an unknown user, changing nothing', async () => {
    const off = await makeCoin(f, { depositEnabled: false });
    const inactive = await makeCoin(f, { status: 'inactive' });
    const base = { userId: user.id, coin: coin.id, amount: 10n, txSignature: randomSignature() };
    await expectRefused(f, (tx) => recordDeposit(tx, f.platform, { ...base, coin: off.id }), { status: 400, errors: { coin: `Deposits of ${off.symbol} are turned off` } });
    await expectRefused(f, (tx) => recordDeposit(tx, f.platform, { ...base, coin: inactive.id }), { status: 400, errors: { coin: expect.any(String) } });
    await expectRefused(f, (tx) => recordDeposit(tx, f.platform, { ...base, coin: 777_777 }), { status: 400, errors: { coin: 'No such coin' } });
    await expectRefused(f, (tx) => recordDeposit(tx, f.platform, { ...base, amount: 0n }), { status: 400, errors: { amount: expect.any(String) } });
    await expectRefused(f, (tx) => recordDeposit(tx, f.platform, { ...base, amount: 1.5 as unknown as bigint }), { status: 400, errors: { amount: expect.any(String) } });
    await expectRefused(f, (tx) => recordDeposit(tx, f.platform, { ...base, txSignature: randomAddress() }), { status: 400, errors: { txSignature: expect.any(String) } });
    await expectRefused(f, (tx) => recordDeposit(tx, f.platform, { ...base, fromAddress: '0xdeadbeef' }), { status: 400, errors: { fromAddress: expect.any(String) } });
    await expectRefused(f, (tx) => recordDeposit(tx, f.platform, { ...base, userId: 888_888 }), { status: 404 });
    await expectRefused(f, (tx) => confirmDeposit(tx, f.admin, 888_888), { status: 404 });
  });

  it('the platform API may record a deposit but not confirm or fail one', async () => {
    const d = await record(40n);
    await expectRefused(f, (tx) => confirmDeposit(tx, f.platform, d.id), { status: 403 });
    await expectRefused(f, (tx) => failDeposit(tx, f.platform, d.id, { reasonCode: 'reverted', reason: 'x' }), { status: 403 });
    const [row] = await f.db.select().from(deposits).where(eq(deposits.id, d.id));
    expect(row!.status).toBe('pending');
  });
});

describe('large deposits', () => {
  it('notify at or above the coin’s own threshold (in its units), once; below it or with none set, nothing', async () => {
    const alerts = async () => (await f.db.select().from(notifications).where(eq(notifications.kind, 'large_deposit'))).map((n) => n.title);
    const start = await alerts();
    await record(2_000_000_000n);
    expect(await alerts()).toEqual(start);
    await f.db.transaction((tx) => updateCoin(tx, f.admin, coin.id, { largeDepositThreshold: 2_000_000_000n }));
    await record(1_999_999_999n);
    const large = await record(2_000_000_000n);
    expect((await alerts()).slice(start.length)).toEqual([`Large deposit: 2 ${coin.symbol}`]);
    const [row] = await f.db.select().from(notifications).where(eq(notifications.recordKey, `deposit:${large.id}`));
    expect(row!.body).toContain(`(threshold 2 ${coin.symbol})`);
    await f.db.transaction((tx) => updateCoin(tx, f.admin, coin.id, { largeDepositThreshold: null }));
    await record(5_000_000_000n);
    expect(await alerts()).toHaveLength(start.length + 1);
  });
});
