import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { admins, blockedWallets, secondApprovals, whitelistWallets } from '../../db/schema.js';
import { updateCoin } from '../coins/service.js';
import type { CoinRow } from '../coins/table.js';
import { balanceOf, platformBalance } from '../ledger/service.js';
import { blockUser } from '../users/service.js';
import type { UserRow } from '../users/table.js';
import {
  approveWithdrawal, completeWithdrawal, failWithdrawal, rejectWithdrawal, requestWithdrawal, type RequestWithdrawalInput,
} from './service.js';
import type { WithdrawalRow } from './table.js';
import { auditOf, expectRefused, fund, makeCoin, makeUser, randomAddress, randomSignature, setSiteSettings, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';

let f: MoneyFixture;
let coin: CoinRow;
let user: UserRow;
moneyFile((m) => ({ f } = m));
beforeAll(async () => {
  // 6 decimals; minimum 1.0, fee 0.25
  coin = await makeCoin(f, { decimals: 6, minWithdrawal: 1_000_000n, withdrawalFee: 250_000n });
  user = await makeUser(f);
  await fund(f, user.id, coin.id, 100_000_000n);
});
beforeEach(async () => {
  await setSiteSettings(f.db, { withdrawalsEnabled: true });
});

const request = (input: Partial<RequestWithdrawalInput> = {}, actor = f.platform) =>
  f.db.transaction((tx) => requestWithdrawal(tx, actor, { userId: user.id, coin: coin.id, amount: 2_000_000n, toAddress: randomAddress(), ...input }));
const approve = (w: WithdrawalRow, actor = f.admin) => f.db.transaction((tx) => approveWithdrawal(tx, actor, w.id));
const reject = (w: WithdrawalRow, reason = 'Address not verified') => f.db.transaction((tx) => rejectWithdrawal(tx, f.admin, w.id, { reasonCode: 'duplicate', reason }));
const complete = (w: WithdrawalRow, txSignature = randomSignature()) => f.db.transaction((tx) => completeWithdrawal(tx, f.admin, w.id, { txSignature }));
const fail = (w: WithdrawalRow, reason = 'RPC node rejected the transfer') => f.db.transaction((tx) => failWithdrawal(tx, f.admin, w.id, { reasonCode: 'chain_error', reason }));

describe('withdrawal lifecycle', () => {
  it('request holds amount + fee; approve moves nothing; complete pays hot_wallet the amount and fees_income the fee', async () => {
    const start = await balanceOf(f.db, user.id, coin.id);
    const hot = await platformBalance(f.db, 'hot_wallet', coin.id);
    const fees = await platformBalance(f.db, 'fees_income', coin.id);
    const w = await request({ amount: 2_000_000n });
    expect(w).toMatchObject({ status: 'requested', amount: 2_000_000n, fee: 250_000n, autoApproved: false, reviewedBy: null });
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: start.available - 2_250_000n, held: start.held + 2_250_000n });

    const a = await approve(w);
    expect(a).toMatchObject({ status: 'approved', reviewedBy: f.admin.admin.id });
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: start.available - 2_250_000n, held: start.held + 2_250_000n });

    const sig = randomSignature();
    const c = await complete(a, sig);
    expect(c).toMatchObject({ status: 'completed', txSignature: sig });
    expect(c.processedAt).toBeInstanceOf(Date);
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: start.available - 2_250_000n, held: start.held });
    expect(await platformBalance(f.db, 'hot_wallet', coin.id)).toBe(hot + 2_000_000n);
    expect(await platformBalance(f.db, 'fees_income', coin.id)).toBe(fees + 250_000n);

    const entries = await auditOf(f.db, 'withdrawals', w.id);
    expect(entries.map((e) => [e.action, e.actorKind, e.adminId])).toEqual([
      ['request', 'platform', null],
      ['approve', 'admin', f.admin.admin.id],
      ['complete', 'admin', f.admin.admin.id],
    ]);
    expect(entries[2]).toMatchObject({ before: expect.objectContaining({ status: 'approved' }), after: expect.objectContaining({ status: 'completed', txSignature: sig, amount: '2000000', fee: '250000' }) });
  });

  it('reject releases the hold (held → available), with the reason', async () => {
    const start = await balanceOf(f.db, user.id, coin.id);
    const w = await request();
    const r = await reject(w, 'Destination belongs to a mixer');
    expect(r).toMatchObject({ status: 'rejected', reason: 'Destination belongs to a mixer', reviewedBy: f.admin.admin.id });
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual(start);
    expect((await auditOf(f.db, 'withdrawals', w.id)).at(-1)).toMatchObject({ action: 'reject', after: expect.objectContaining({ reason: 'Destination belongs to a mixer' }) });
  });

  it('fail (after approval) releases the hold', async () => {
    const start = await balanceOf(f.db, user.id, coin.id);
    const w = await approve(await request());
    const x = await fail(w);
    expect(x).toMatchObject({ status: 'failed', reason: 'RPC node rejected the transfer' });
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual(start);
  });

  it('keeps the fee of the request time when the coin fee changes before completion', async () => {
    const w = await approve(await request());
    await f.db.transaction((tx) => updateCoin(tx, f.admin, coin.id, { withdrawalFee: 900_000n }));
    const c = await complete(w);
    expect(c.fee).toBe(250_000n);
    await f.db.transaction((tx) => updateCoin(tx, f.admin, coin.id, { withdrawalFee: 250_000n }));
  });

  it('a coin without fee completes with two postings', async () => {
    const free = await makeCoin(f, { minWithdrawal: 0n, withdrawalFee: 0n });
    await fund(f, user.id, free.id, 500n);
    const w = await approve(await request({ coin: free.id, amount: 500n }));
    await complete(w);
    expect(await balanceOf(f.db, user.id, free.id)).toEqual({ available: 0n, held: 0n });
  });
});

describe('wrong states answer 409 naming the current state, and change nothing', () => {
  it('from requested, approved, rejected, completed and failed', async () => {
    const requested = await request();
    await expectRefused(f, (tx) => completeWithdrawal(tx, f.admin, requested.id, { txSignature: randomSignature() }), { status: 409, message: 'Withdrawal is requested: only an approved withdrawal can be completed' });
    await expectRefused(f, (tx) => failWithdrawal(tx, f.admin, requested.id, { reasonCode: 'chain_error', reason: 'x' }), { status: 409, message: 'Withdrawal is requested: only an approved withdrawal can be failed' });

    const approved = await approve(requested);
    await expectRefused(f, (tx) => approveWithdrawal(tx, f.admin2, approved.id), { status: 409, message: 'Withdrawal is already approved' });
    await expectRefused(f, (tx) => rejectWithdrawal(tx, f.admin, approved.id, { reasonCode: 'duplicate', reason: 'x' }), { status: 409, message: 'Withdrawal is approved: only a requested or awaiting second approval withdrawal can be rejected' });

    const rejected = await reject(await request());
    await expectRefused(f, (tx) => approveWithdrawal(tx, f.admin, rejected.id), { status: 409, message: 'Withdrawal is rejected: only a requested or awaiting second approval withdrawal can be approved' });
    await expectRefused(f, (tx) => rejectWithdrawal(tx, f.admin, rejected.id, { reasonCode: 'duplicate', reason: 'x' }), { status: 409, message: 'Withdrawal is already rejected' });
    await expectRefused(f, (tx) => completeWithdrawal(tx, f.admin, rejected.id, { txSignature: randomSignature() }), { status: 409, message: /^Withdrawal is rejected/ });

    const completed = await complete(approved);
    await expectRefused(f, (tx) => completeWithdrawal(tx, f.admin, completed.id, { txSignature: randomSignature() }), { status: 409, message: 'Withdrawal is already completed' });
    await expectRefused(f, (tx) => failWithdrawal(tx, f.admin, completed.id, { reasonCode: 'chain_error', reason: 'x' }), { status: 409, message: 'Withdrawal is completed: only an approved withdrawal can be failed' });
    await expectRefused(f, (tx) => rejectWithdrawal(tx, f.admin, completed.id, { reasonCode: 'duplicate', reason: 'x' }), { status: 409, message: /^Withdrawal is completed/ });

    const failed = await fail(await approve(await request()));
    await expectRefused(f, (tx) => failWithdrawal(tx, f.admin, failed.id, { reasonCode: 'chain_error', reason: 'x' }), { status: 409, message: 'Withdrawal is already failed' });
    await expectRefused(f, (tx) => completeWithdrawal(tx, f.admin, failed.id, { txSignature: randomSignature() }), { status: 409, message: /^Withdrawal is failed/ });
    await expectRefused(f, (tx) => approveWithdrawal(tx, f.admin, 123_456_789), { status: 404 });
  });
});

describe('requests refused change nothing', () => {
  it('400 with the field: blocked user, disabled or inactive coin, under the minimum, blocked or malformed address, zero', async () => {
    const blocked = await makeUser(f);
    await fund(f, blocked.id, coin.id, 10_000_000n);
    await f.db.transaction((tx) => blockUser(tx, f.admin, blocked.id, { reason: 'KYC failed' }));
    await expectRefused(f, (tx) => requestWithdrawal(tx, f.platform, { userId: blocked.id, coin: coin.id, amount: 2_000_000n, toAddress: randomAddress() }), { status: 400, errors: { userId: 'This user is blocked and cannot withdraw' } });

    const off = await makeCoin(f, { withdrawEnabled: false });
    const inactive = await makeCoin(f, { status: 'inactive' });
    const base = { userId: user.id, coin: coin.id, amount: 2_000_000n, toAddress: randomAddress() };
    await expectRefused(f, (tx) => requestWithdrawal(tx, f.platform, { ...base, coin: off.id }), { status: 400, errors: { coin: `Withdrawals of ${off.symbol} are turned off` } });
    await expectRefused(f, (tx) => requestWithdrawal(tx, f.platform, { ...base, coin: inactive.id }), { status: 400, errors: { coin: expect.any(String) } });
    await expectRefused(f, (tx) => requestWithdrawal(tx, f.platform, { ...base, amount: 999_999n }), { status: 400, errors: { amount: `The minimum withdrawal is 1 ${coin.symbol}` } });
    await expectRefused(f, (tx) => requestWithdrawal(tx, f.platform, { ...base, amount: 0n }), { status: 400, errors: { amount: 'The amount must be positive' } });
    await expectRefused(f, (tx) => requestWithdrawal(tx, f.platform, { ...base, toAddress: 'not-an-address' }), { status: 400, errors: { toAddress: expect.any(String) } });
    const bad = randomAddress();
    await f.db.insert(blockedWallets).values({ address: bad, reason: 'Drainer' });
    await expectRefused(f, (tx) => requestWithdrawal(tx, f.platform, { ...base, toAddress: bad }), { status: 400, errors: { toAddress: 'This address is blocked' } });
    await expectRefused(f, (tx) => requestWithdrawal(tx, f.platform, { ...base, userId: 555_555 }), { status: 404 });
  });

  it('409 for more than the available balance (amount + fee), and while withdrawals are turned off', async () => {
    const poor = await makeUser(f);
    await fund(f, poor.id, coin.id, 2_249_999n);
    await expectRefused(f, (tx) => requestWithdrawal(tx, f.platform, { userId: poor.id, coin: coin.id, amount: 2_000_000n, toAddress: randomAddress() }), { status: 409, message: 'Insufficient balance' });
    await setSiteSettings(f.db, { withdrawalsEnabled: false });
    await expectRefused(f, (tx) => requestWithdrawal(tx, f.platform, { userId: user.id, coin: coin.id, amount: 2_000_000n, toAddress: randomAddress() }), { status: 409, message: 'Withdrawals are turned off for now' });
  });

  it('approval is refused (409) when the destination or the user was blocked after the request', async () => {
    const dest = randomAddress();
    const w = await request({ toAddress: dest });
    await f.db.insert(blockedWallets).values({ address: dest, reason: 'Reported after the request' });
    await expectRefused(f, (tx) => approveWithdrawal(tx, f.admin, w.id), { status: 409, errors: { toAddress: 'This address is blocked' } });
    await reject(w, 'Destination blocked');

    const later = await makeUser(f);
    await fund(f, later.id, coin.id, 5_000_000n);
    const w2 = await request({ userId: later.id });
    await f.db.transaction((tx) => blockUser(tx, f.admin, later.id, { reason: 'Fraud' }));
    await expectRefused(f, (tx) => approveWithdrawal(tx, f.admin, w2.id), { status: 409, errors: { userId: expect.any(String) } });
    await reject(w2, 'User blocked');
    expect(await balanceOf(f.db, later.id, coin.id)).toEqual({ available: 5_000_000n, held: 0n });
  });

  it('review actions need a reason, a valid signature, and a back-office actor; a signature is used once', async () => {
    const w = await request();
    // A reason code of the action's own list; "other" needs the note.
    await expectRefused(f, (tx) => rejectWithdrawal(tx, f.admin, w.id, { reasonCode: '', reason: 'No code' }), { status: 400, errors: { reasonCode: 'Pick a reason' } });
    await expectRefused(f, (tx) => rejectWithdrawal(tx, f.admin, w.id, { reasonCode: 'chain_error' }), { status: 400, errors: { reasonCode: 'Pick a reason' } });
    await expectRefused(f, (tx) => rejectWithdrawal(tx, f.admin, w.id, { reasonCode: 'other', reason: '   ' }), { status: 400, errors: { reason: 'Say what happened (at least 3 characters)' } });
    await expectRefused(f, (tx) => rejectWithdrawal(tx, f.admin, w.id, { reasonCode: 'duplicate', reason: 'x'.repeat(501) }), { status: 400, errors: { reason: 'At most 500 characters' } });
    await expectRefused(f, (tx) => approveWithdrawal(tx, f.platform, w.id), { status: 403 });
    const a = await approve(w);
    await expectRefused(f, (tx) => completeWithdrawal(tx, f.admin, a.id, { txSignature: 'abc' }), { status: 400, errors: { txSignature: expect.any(String) } });
    await expectRefused(f, (tx) => failWithdrawal(tx, f.admin, a.id, { reasonCode: 'other', reason: '' }), { status: 400, errors: { reason: expect.any(String) } });
    const sig = randomSignature();
    await complete(a, sig);
    const b = await approve(await request());
    await expectRefused(f, (tx) => completeWithdrawal(tx, f.admin, b.id, { txSignature: sig }), { status: 409, errors: { txSignature: 'Another withdrawal has this transaction signature' } });
    await fail(b);
  });
});

describe('auto-approval', () => {
  it('approves a whitelisted destination up to its coin’s limit at once, as the system actor; never when the limit is 0', async () => {
    const trusted = randomAddress();
    await f.db.insert(whitelistWallets).values({ address: trusted, label: 'Cold storage', reason: 'Verified by finance' });

    const off = await request({ toAddress: trusted, amount: 1_000_000n });
    expect(off.status).toBe('requested');

    // The limit is the coin's, in its units: another coin's limit says nothing about this one.
    const other = await makeCoin(f, { decimals: 9 });
    await f.db.transaction((tx) => updateCoin(tx, f.admin, other.id, { autoApproveLimit: 3_000_000_000n }));
    expect((await request({ toAddress: trusted, amount: 3_000_000n })).status).toBe('requested');
    await f.db.transaction((tx) => updateCoin(tx, f.admin, coin.id, { autoApproveLimit: 3_000_000n }));
    const auto = await request({ toAddress: trusted, amount: 3_000_000n });
    expect(auto).toMatchObject({ status: 'approved', autoApproved: true, reviewedBy: null });
    expect(auto.reviewedAt).toBeInstanceOf(Date);
    const entries = await auditOf(f.db, 'withdrawals', auto.id);
    expect(entries.map((e) => [e.action, e.actorKind, e.adminEmail])).toEqual([
      ['request', 'platform', 'platform'],
      ['approve', 'system', 'system:withdrawal-auto-approve'],
    ]);

    expect((await request({ toAddress: trusted, amount: 3_000_001n })).status).toBe('requested');
    expect((await request({ toAddress: randomAddress(), amount: 1_000_000n })).status).toBe('requested');
    await complete(auto);
    await f.db.transaction((tx) => updateCoin(tx, f.admin, coin.id, { autoApproveLimit: 0n }));
  });
});

describe('daily limit per user', () => {
  it('refuses a request that would take the user past the coin’s limit over 24 hours; rejected requests do not count; other users and coins are apart', async () => {
    const limited = await makeCoin(f, { decimals: 6, minWithdrawal: 1_000_000n, withdrawalFee: 0n });
    const alice = await makeUser(f);
    const bob = await makeUser(f);
    await fund(f, alice.id, limited.id, 100_000_000n);
    await fund(f, bob.id, limited.id, 100_000_000n);
    await f.db.transaction((tx) => updateCoin(tx, f.admin, limited.id, { dailyWithdrawalLimit: 10_000_000n }));
    const ask = (u: UserRow, amount: bigint) => request({ userId: u.id, coin: limited.id, amount });
    const first = await ask(alice, 6_000_000n);
    // Refused with the limit in the message and on the field; nothing held, nothing written.
    await expectRefused(f, (tx) => requestWithdrawal(tx, f.platform, { userId: alice.id, coin: limited.id, amount: 5_000_000n, toAddress: randomAddress() }), {
      status: 409,
      message: `Over the daily withdrawal limit of 10 ${limited.symbol}: 6 ${limited.symbol} requested in the last 24 hours`,
      errors: { amount: `At most 10 ${limited.symbol} a day; 6 ${limited.symbol} already requested` },
    });
    // Exactly at the limit is allowed; another user has a limit of their own.
    await reject(await ask(alice, 4_000_000n));
    await reject(first);
    // Rejected requests free the limit again.
    const again = await ask(alice, 10_000_000n);
    expect(again.status).toBe('requested');
    expect((await ask(bob, 10_000_000n)).status).toBe('requested');
    // What was requested more than 24 hours ago does not count.
    await f.db.execute(sql`update withdrawals set created_at = now() - interval '25 hours' where id = ${again.id}`);
    expect((await ask(alice, 10_000_000n)).status).toBe('requested');
  });

  it('two requests at the same moment cannot both slip under the limit', async () => {
    const limited = await makeCoin(f, { decimals: 6, minWithdrawal: 1_000_000n, withdrawalFee: 0n });
    const carol = await makeUser(f);
    await fund(f, carol.id, limited.id, 100_000_000n);
    await f.db.transaction((tx) => updateCoin(tx, f.admin, limited.id, { dailyWithdrawalLimit: 10_000_000n }));
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => request({ userId: carol.id, coin: limited.id, amount: 3_000_000n })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.status)).toEqual([409, 409, 409]);
    expect((await balanceOf(f.db, carol.id, limited.id)).held).toBe(9_000_000n);
  });
});

describe('two approvals (four eyes)', () => {
  let big: CoinRow;
  const grantApprove = (restriction: object[]) => f.db.update(admins).set({ restriction: restriction as never }).where(eq(admins.id, f.admin2.admin.id));
  const requestBig = async (amount: bigint) => {
    const u = await makeUser(f);
    await fund(f, u.id, big.id, 100_000_000n);
    return { u, w: await request({ userId: u.id, coin: big.id, amount }) };
  };
  const approvalsOf = (w: WithdrawalRow) => f.db.select().from(secondApprovals).where(and(eq(secondApprovals.resource, 'withdrawals'), eq(secondApprovals.recordId, w.id)));

  beforeAll(async () => {
    big = await makeCoin(f, { decimals: 6, minWithdrawal: 1_000_000n, withdrawalFee: 0n });
    // Only the super admin holds Withdraw › approve: two approvals cannot be turned on.
    await grantApprove([]);
    await expectRefused(f, (tx) => updateCoin(tx, f.admin, big.id, { secondApprovalThreshold: 5_000_000n }), {
      status: 409, errors: { secondApprovalThreshold: 'Two approvals need two active admins holding Withdraw › approve; there is 1' },
    });
    await grantApprove([{ name: 'Withdraw', canView: true, canEdit: false, rights: ['approve'] }]);
    await f.db.transaction((tx) => updateCoin(tx, f.admin, big.id, { secondApprovalThreshold: 5_000_000n }));
  });

  it('at the threshold: the first approval waits (hold kept), the same admin cannot give the second, another admin approves', async () => {
    const { u, w } = await requestBig(5_000_000n);
    const held = await balanceOf(f.db, u.id, big.id);
    const first = await approve(w);
    expect(first.status).toBe('awaiting_second_approval');
    expect(await balanceOf(f.db, u.id, big.id)).toEqual(held);
    expect(await approvalsOf(w)).toMatchObject([{ status: 'open', firstAdminId: f.admin.admin.id, action: 'approve', restriction: 'Withdraw', right: 'approve' }]);
    await expectRefused(f, (tx) => approveWithdrawal(tx, f.admin, w.id), { status: 403, message: 'You gave the first approval: a second admin must give the other' });
    const second = await approve(w, f.admin2);
    expect(second).toMatchObject({ status: 'approved', reviewedBy: f.admin2.admin.id });
    expect(await approvalsOf(w)).toMatchObject([{ status: 'approved', decidedBy: f.admin2.admin.id }]);
    expect(await balanceOf(f.db, u.id, big.id)).toEqual(held);
    const entries = await auditOf(f.db, 'withdrawals', w.id);
    expect(entries.map((e) => [e.action, e.adminId])).toEqual([['request', null], ['approve', f.admin.admin.id], ['approve', f.admin2.admin.id]]);
    // Below the threshold one approval is enough.
    const { w: small } = await requestBig(4_999_999n);
    expect((await approve(small)).status).toBe('approved');
  });

  it('a rejection by either admin after the first approval ends it and releases the hold once', async () => {
    const { u, w } = await requestBig(8_000_000n);
    const before = await balanceOf(f.db, u.id, big.id);
    await approve(w);
    const rejected = await f.db.transaction((tx) => rejectWithdrawal(tx, f.admin2, w.id, { reasonCode: 'duplicate', reason: 'Destination not verified' }));
    expect(rejected.status).toBe('rejected');
    expect(await balanceOf(f.db, u.id, big.id)).toEqual({ available: before.available + 8_000_000n, held: before.held - 8_000_000n });
    expect(await approvalsOf(w)).toMatchObject([{ status: 'rejected', decidedBy: f.admin2.admin.id }]);
    await expectRefused(f, (tx) => approveWithdrawal(tx, f.admin2, w.id), { status: 409 });
    await expectRefused(f, (tx) => rejectWithdrawal(tx, f.admin, w.id, { reasonCode: 'duplicate', reason: 'Again' }), { status: 409 });
  });

  it('two admins approving at the same moment give one first approval and one approval; one admin twice gives one', async () => {
    const { w } = await requestBig(6_000_000n);
    const both = await Promise.allSettled([approve(w, f.admin), approve(w, f.admin2)]);
    expect(both.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(both.map((r) => (r as PromiseFulfilledResult<WithdrawalRow>).value.status).sort()).toEqual(['approved', 'awaiting_second_approval']);
    expect(await approvalsOf(w)).toMatchObject([{ status: 'approved' }]);

    const { w: again } = await requestBig(6_000_000n);
    const twice = await Promise.allSettled([approve(again, f.admin), approve(again, f.admin)]);
    expect(twice.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<WithdrawalRow>).value.status)).toEqual(['awaiting_second_approval']);
    expect(twice.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.status)).toEqual([403]);
    expect(await approvalsOf(again)).toMatchObject([{ status: 'open' }]);
  });
});
