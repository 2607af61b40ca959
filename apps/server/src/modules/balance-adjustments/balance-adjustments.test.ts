import { describe, expect, it } from 'vitest';
import { call, makeSubAdmin } from '../../../test/helpers.js';
import { expectLedgerHealthy, fund, makeCoin, makeUser, moneyFile, type MoneyFixture } from '../../../test/money-helpers.js';
import { balanceOf, platformBalance } from '../ledger/service.js';

/**
 * Balance adjustments through the admin API: applied at once below the coin's two-approval
 * threshold; at or above it (either sign) pending until a second admin holding Users ›
 * adjust-balance approves (never the one who asked), or either rejects it; reversed by a linked
 * opposite adjustment under the same rule; listed, filtered and exported.
 */
let f: MoneyFixture;
let superToken: string;
moneyFile((m) => ({ f, token: superToken } = m));

const ADJUSTER = [{ name: 'Users' as const, canView: true, canEdit: false, rights: ['adjust-balance'] }];
const post = (url: string, body: unknown, token = superToken) => call(f.s, 'POST', `/api/admin/${url}`, { token, body });
const get = (url: string, query: Record<string, string> = {}, token = superToken) => call(f.s, 'GET', `/api/admin/${url}`, { token, query });

describe('balance adjustments', () => {
  it('below the threshold applies at once; at it, waits for a second admin who applies it once; the asker cannot', async () => {
    const coin = await makeCoin(f, { decimals: 6 });
    const user = await makeUser(f);
    const a = await makeSubAdmin(f.s, ADJUSTER, superToken);
    const b = await makeSubAdmin(f.s, ADJUSTER, superToken);
    const viewer = await makeSubAdmin(f.s, [{ name: 'Users', canView: true, canEdit: true }], superToken);
    expect((await call(f.s, 'PATCH', `/api/admin/coins/${coin.id}`, { token: superToken, body: { adjustmentApprovalThreshold: '1000000000' } })).status).toBe(200);
    const adjust = (amount: string, token = a.token) => post(`users/${user.id}/adjust-balance`, { coinId: String(coin.id), amount, reasonCode: 'goodwill', reason: 'Outage #12' }, token);

    const small = await adjust('999999999');
    expect(small.body.message).toBe(`Credited 999.999999 ${coin.symbol} to ${user.username}`);
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: 999_999_999n, held: 0n });

    // Exactly at the threshold: nothing moves yet.
    const big = await adjust('1000000000');
    expect(big.status).toBe(200);
    expect(big.body.message).toBe(`Adjustment #${/#(\d+)/.exec(big.body.message)?.[1]} (1,000.000000 ${coin.symbol}) waits for a second admin's approval: nothing is applied yet`);
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: 999_999_999n, held: 0n });
    const [pending] = (await get('balance-adjustments', { userId: String(user.id), status: 'pending' })).body.result.items;
    expect(pending).toMatchObject({ amount: '1000000000', amountText: `1000 ${coin.symbol}`, status: 'pending', reasonCode: 'goodwill', reason: 'Outage #12', requestedByEmail: a.email, transactionId: null, reversible: false });
    // In B's queue (not A's), with a notification.
    const queue = async (token: string) => (await get('approvals', { resource: 'balance-adjustments' }, token)).body.result.items.map((i: { recordId: string }) => i.recordId);
    expect(await queue(b.token)).toEqual([pending._id]);
    expect(await queue(a.token)).toEqual([]);
    expect(await queue(viewer.token)).toEqual([]);

    expect((await post(`balance-adjustments/${pending._id}/approve`, {}, a.token)).body.message).toBe('You gave the first approval: a second admin must give the other');
    expect((await post(`balance-adjustments/${pending._id}/approve`, {}, viewer.token)).status).toBe(403);
    // B and the super admin approve at the same moment: applied once.
    const both = await Promise.all([post(`balance-adjustments/${pending._id}/approve`, {}, b.token), post(`balance-adjustments/${pending._id}/approve`, {})]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: 1_999_999_999n, held: 0n });
    const applied = (await get(`balance-adjustments/${pending._id}`)).body.result;
    expect(applied).toMatchObject({ status: 'applied', reversible: true, transactionId: expect.any(String) });
    expect(await queue(b.token)).toEqual([]);
    await expectLedgerHealthy(f.db);
  });

  it('a debit at the threshold waits too; either admin rejects it with a reason code, and nothing is applied', async () => {
    const coin = await makeCoin(f, { decimals: 9 });
    const user = await makeUser(f);
    await fund(f, user.id, coin.id, 5_000_000_000n);
    const a = await makeSubAdmin(f.s, ADJUSTER, superToken);
    await makeSubAdmin(f.s, ADJUSTER, superToken);
    expect((await call(f.s, 'PATCH', `/api/admin/coins/${coin.id}`, { token: superToken, body: { adjustmentApprovalThreshold: '2000000000' } })).status).toBe(200);
    const res = await post(`users/${user.id}/adjust-balance`, { coinId: String(coin.id), amount: '-2000000000', reasonCode: 'chargeback' }, a.token);
    expect(res.body.message).toMatch(/^Adjustment #\d+ \(-2\.000000000 \S+\) waits/);
    const id = /#(\d+)/.exec(res.body.message)![1];
    expect((await post(`balance-adjustments/${id}/reject`, {}, a.token)).body.errors).toEqual({ reasonCode: 'Pick a reason' });
    const rejected = await post(`balance-adjustments/${id}/reject`, { reasonCode: 'wrong_amount', reason: 'Should be 0.2' }, a.token);
    expect(rejected.body.result).toMatchObject({ status: 'rejected', decisionReasonCode: 'wrong_amount', decisionReason: 'Should be 0.2', decidedByEmail: a.email, reversible: false });
    expect((await post(`balance-adjustments/${id}/approve`, {})).status).toBe(409);
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: 5_000_000_000n, held: 0n });
    expect((await get('approvals', { resource: 'balance-adjustments' })).body.result.items.map((i: { recordId: string }) => i.recordId)).not.toContain(id);
  });

  it('reverses an applied adjustment once, by a linked opposite one; a reversal is not reversed again', async () => {
    const coin = await makeCoin(f, { decimals: 6 });
    const user = await makeUser(f);
    const before = await platformBalance(f.db, 'adjustments', coin.id);
    await post(`users/${user.id}/adjust-balance`, { coinId: String(coin.id), amount: '7000000', reasonCode: 'promotion' });
    const listed = await get('balance-adjustments', { userId: String(user.id) });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const [original] = listed.body.result.items;
    expect(original).toMatchObject({ status: 'applied', reversal: 'none', reversible: true });
    expect((await post(`balance-adjustments/${original._id}/reverse`, { reasonCode: 'goodwill' })).body.errors).toEqual({ reasonCode: 'Pick a reason' });
    const reversed = await post(`balance-adjustments/${original._id}/reverse`, { reasonCode: 'entered_in_error' });
    expect(reversed.status).toBe(200);
    expect(reversed.body.message).toMatch(new RegExp(`^Reversed 7 ${coin.symbol} of ${user.username} \\(adjustment #\\d+\\)$`));
    expect(reversed.body.result).toMatchObject({ status: 'applied', reversal: 'applied', reversible: false });
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: 0n, held: 0n });
    expect(await platformBalance(f.db, 'adjustments', coin.id)).toBe(before);
    const items = (await get('balance-adjustments', { userId: String(user.id), sort: 'createdAt' })).body.result.items;
    expect(items.map((i: { amount: string; reversesId: string | null; reasonCode: string }) => [i.amount, i.reversesId, i.reasonCode])).toEqual([
      ['7000000', null, 'promotion'],
      ['-7000000', original._id, 'entered_in_error'],
    ]);
    expect(items[1].amountText).toBe(`-7 ${coin.symbol}`);
    expect((await post(`balance-adjustments/${original._id}/reverse`, { reasonCode: 'entered_in_error' })).body.message).toMatch(/already has a reversal/);
    expect((await post(`balance-adjustments/${items[1]._id}/reverse`, { reasonCode: 'entered_in_error' })).body.message).toBe('This adjustment is a reversal: adjust the balance again instead');
    // Filters and the export.
    expect((await get('balance-adjustments', { userId: String(user.id), reversal: 'applied' })).body.result.items.map((i: { _id: string }) => i._id)).toEqual([original._id]);
    expect((await get('balance-adjustments', { userId: String(user.id), reasonCode: 'entered_in_error' })).body.result.total).toBe(1);
    const csv = await call(f.s, 'GET', '/api/admin/balance-adjustments/export', { token: superToken, query: { userId: String(user.id) } });
    expect(csv.status).toBe(200);
    expect(csv.raw).toContain('entered_in_error');
    // The user's audit history has both, with their codes.
    const audit = await get('audit-log', { resource: 'users', recordId: String(user.id), action: 'adjust-balance' });
    expect(audit.body.result.items.map((e: { after: { reasonCode: string } }) => e.after.reasonCode).sort()).toEqual(['entered_in_error', 'promotion']);
    await expectLedgerHealthy(f.db);
  });

  it('a threshold is whole minor units above zero, or none (two active holders of the right: approvals.test.ts)', async () => {
    const coin = await makeCoin(f, { decimals: 6 });
    const patch = (body: object) => call(f.s, 'PATCH', `/api/admin/coins/${coin.id}`, { token: superToken, body });
    expect((await patch({ adjustmentApprovalThreshold: '0' })).body.errors).toHaveProperty('adjustmentApprovalThreshold');
    expect((await patch({ adjustmentApprovalThreshold: '5000000' })).body.result).toMatchObject({ adjustmentApprovalThreshold: '5000000', adjustmentApprovalThresholdText: `5 ${coin.symbol}` });
    expect((await patch({ adjustmentApprovalThreshold: null })).body.result.adjustmentApprovalThreshold).toBeNull();
  });
});
