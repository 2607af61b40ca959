import { describe, expect, it } from 'vitest';
import { rejectWithdrawal, requestWithdrawal } from '../withdrawals/service.js';
import { call, makeSubAdmin, superLogin } from '../../../test/helpers.js';
import { fund, makeCoin, makeUser, moneyFile, randomAddress, startMoney, type MoneyFixture } from '../../../test/money-helpers.js';

/**
 * Four eyes through the admin API: a coin's second-approval threshold, turned on only with two
 * admins holding the right; the first approval waits in "Awaiting my approval" for the others who
 * may decide it (not the first approver, not an admin without the right) and is notified; the
 * second approves.
 */
let f: MoneyFixture;
let superToken: string;
moneyFile((m) => ({ f, token: superToken } = m));

const APPROVER = [{ name: 'Withdraw' as const, canView: true, canEdit: false, rights: ['approve'] }];

describe('awaiting my approval', () => {
  it('a large withdrawal approved by A waits for B; neither A nor a viewer without the right sees it there; B approves it', async () => {
    const coin = await makeCoin(f, { decimals: 6, minWithdrawal: 1_000_000n, withdrawalFee: 0n });
    // The super admin and the money fixture's second admin (no rights) are not two approvers… yet.
    const a = await makeSubAdmin(f.s, APPROVER, superToken);
    const patch = (body: object) => call(f.s, 'PATCH', `/api/admin/coins/${coin.id}`, { token: superToken, body });
    const b = await makeSubAdmin(f.s, [...APPROVER, { name: 'Notification', canView: true, canEdit: false }], superToken);
    const viewer = await makeSubAdmin(f.s, [{ name: 'Withdraw', canView: true, canEdit: false }], superToken);
    const turnedOn = await patch({ secondApprovalThreshold: '5000000000' });
    expect(turnedOn.status).toBe(200);
    expect(turnedOn.body.result).toMatchObject({ secondApprovalThreshold: '5000000000', secondApprovalThresholdText: `5000 ${coin.symbol}` });

    const user = await makeUser(f);
    await fund(f, user.id, coin.id, 10_000_000_000n);
    const w = await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: user.id, coin: coin.id, amount: 8_432_230_000n, toAddress: randomAddress() }));

    const approve = (token: string) => call(f.s, 'POST', `/api/admin/withdrawals/${w.id}/approve`, { token, body: {} });
    const first = await approve(a.token);
    expect(first.status).toBe(200);
    expect(first.body.message).toBe(`First approval of 8432.23 ${coin.symbol} given: a second admin must approve it`);
    expect(first.body.result).toMatchObject({ status: 'awaiting_second_approval', firstApprovedByEmail: a.email });

    const queue = (token: string) => call(f.s, 'GET', '/api/admin/approvals', { token });
    const forB = await queue(b.token);
    expect(forB.body.result.items).toEqual([
      expect.objectContaining({ resource: 'withdrawals', what: 'Withdrawal', recordId: String(w.id), firstAdminEmail: a.email, summary: `Withdrawal of 8,432.23 ${coin.symbol} to ${user.username}`, status: 'open' }),
    ]);
    expect((await queue(superToken)).body.result.items.map((i: { recordId: string }) => i.recordId)).toContain(String(w.id));
    expect((await queue(a.token)).body.result.items).toEqual([]);
    expect((await queue(viewer.token)).body.result.items).toEqual([]);
    // The others who may view withdrawals are told.
    const bell = await call(f.s, 'GET', '/api/admin/notifications', { token: b.token });
    expect(bell.body.result.items.map((n: { title: string }) => n.title)).toContain(`Second approval needed: Withdrawal of 8,432.23 ${coin.symbol} to ${user.username}`);

    const again = await approve(a.token);
    expect(again.status).toBe(403);
    expect(again.body.message).toBe('You gave the first approval: a second admin must give the other');
    expect((await approve(viewer.token)).status).toBe(403);
    // The Withdraw list filters by the waiting state (the queue's link opens it so).
    const listed = await call(f.s, 'GET', '/api/admin/withdrawals', { token: superToken, query: { status: 'awaiting_second_approval', userId: String(user.id) } });
    expect(listed.body.result.items.map((x: { _id: string; status: string }) => [x._id, x.status])).toEqual([[String(w.id), 'awaiting_second_approval']]);
    const second = await approve(b.token);
    expect(second.status).toBe(200);
    expect(second.body.result).toMatchObject({ status: 'approved', reviewedByEmail: b.email, firstApprovedByEmail: a.email });
    expect((await queue(b.token)).body.result.items).toEqual([]);
  });

  it('cannot be turned on while fewer than two active admins hold the right (409 on the field), withdrawals and adjustments alike', async () => {
    const fresh = await startMoney();
    try {
      const token = await superLogin(fresh.s);
      const coin = await makeCoin(fresh);
      const refused = await call(fresh.s, 'PATCH', `/api/admin/coins/${coin.id}`, { token, body: { secondApprovalThreshold: '1000000' } });
      expect(refused.status).toBe(409);
      expect(refused.body.errors).toEqual({ secondApprovalThreshold: 'Two approvals need two active admins holding Withdraw › approve; there is 1' });
      await makeSubAdmin(fresh.s, APPROVER, token);
      expect((await call(fresh.s, 'PATCH', `/api/admin/coins/${coin.id}`, { token, body: { secondApprovalThreshold: '1000000' } })).status).toBe(200);
      // Balance adjustments' threshold counts the holders of its own right: the withdrawal approver is not one.
      const adjustments = await call(fresh.s, 'PATCH', `/api/admin/coins/${coin.id}`, { token, body: { adjustmentApprovalThreshold: '1000000' } });
      expect(adjustments.body.errors).toEqual({ adjustmentApprovalThreshold: 'Two approvals need two active admins holding Users › adjust-balance; there is 1' });
      await makeSubAdmin(fresh.s, [{ name: 'Users', canView: true, canEdit: false, rights: ['adjust-balance'] }], token);
      expect((await call(fresh.s, 'PATCH', `/api/admin/coins/${coin.id}`, { token, body: { adjustmentApprovalThreshold: '1000000' } })).status).toBe(200);
      // Turning it off needs nobody.
      expect((await call(fresh.s, 'PATCH', `/api/admin/coins/${coin.id}`, { token, body: { secondApprovalThreshold: null } })).body.result.secondApprovalThreshold).toBeNull();
    } finally {
      await fresh.s.close();
    }
  });
});

describe('risk context', () => {
  it('tells the approver what they would look up: age, balances, flows, recent withdrawals, the destination, tickets, flags', async () => {
    const coin = await makeCoin(f, { decimals: 6, minWithdrawal: 1_000_000n, withdrawalFee: 0n });
    const shared = randomAddress();
    const other = await makeUser(f);
    await fund(f, other.id, coin.id, 10_000_000n);
    await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: other.id, coin: coin.id, amount: 2_000_000n, toAddress: shared }));
    const user = await makeUser(f);
    await fund(f, user.id, coin.id, 50_000_000n);
    const first = await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: user.id, coin: coin.id, amount: 3_000_000n, toAddress: shared }));
    const w = await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: user.id, coin: coin.id, amount: 4_000_000n, toAddress: shared }));

    const viewer = await makeSubAdmin(f.s, [{ name: 'Withdraw', canView: true, canEdit: false }], superToken);
    const risk = await call(f.s, 'GET', `/api/admin/withdrawals/${w.id}/risk`, { token: viewer.token });
    expect(risk.status).toBe(200);
    expect(risk.body.result).toMatchObject({
      withdrawalId: String(w.id),
      user: { _id: String(user.id), username: user.username, status: 'active', accountAgeDays: 0 },
      balances: [{ coin: coin.symbol, decimals: 6, available: '43000000', held: '7000000' }],
      lifetime: [{ coin: coin.symbol, decimals: 6, deposited: '50000000', withdrawn: '0' }],
      recent: [{ coin: coin.symbol, count24h: 2, amount24h: '7000000', count7d: 2, amount7d: '7000000' }],
      destination: { address: shared, whitelisted: false, newForUser: false, otherUsers: 1 },
      openTickets: 0,
    });
    expect(risk.body.result.flags.map((x: { code: string }) => x.code)).toEqual(['new_account', 'shared_destination']);
    const firstRisk = await call(f.s, 'GET', `/api/admin/withdrawals/${first.id}/risk`, { token: viewer.token });
    expect(firstRisk.body.result.flags.map((x: { code: string }) => x.code)).toEqual(['new_account', 'first_withdrawal', 'new_destination', 'shared_destination']);

    const outsider = await makeSubAdmin(f.s, [{ name: 'Deposit', canView: true, canEdit: false }], superToken);
    expect((await call(f.s, 'GET', `/api/admin/withdrawals/${w.id}/risk`, { token: outsider.token })).status).toBe(403);
    expect((await call(f.s, 'GET', '/api/admin/withdrawals/999999999/risk', { token: superToken })).status).toBe(404);
    for (const x of [first, w]) await f.db.transaction((tx) => rejectWithdrawal(tx, f.admin, x.id, { reasonCode: 'duplicate', reason: 'Test over' }));
  });
});
