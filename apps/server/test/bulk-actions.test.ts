import { BULK_ACTION_MAX } from '@pitboss/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, deposits, users, withdrawals } from '../src/db/schema.js';
import type { CoinRow } from '../src/modules/coins/table.js';
import { recordDeposit } from '../src/modules/deposits/service.js';
import { balanceOf } from '../src/modules/ledger/service.js';
import { blockUser } from '../src/modules/users/service.js';
import type { UserRow } from '../src/modules/users/table.js';
import { rejectWithdrawal, requestWithdrawal } from '../src/modules/withdrawals/service.js';
import { call, makeSubAdmin } from './helpers.js';
import { fund, makeCoin, makeUser, moneyFile, randomAddress, randomSignature, setSiteSettings, snapshot, type MoneyFixture } from './money-helpers.js';

/**
 * Bulk forms of declared actions (`POST /api/admin/<resource>/bulk/<action>`): the single action's
 * right, each record through `runAction` in its own transaction (lock, state check, service, audit
 * entry), records refused by their state or by the service skipped with the reason, and a cap.
 */
let f: MoneyFixture;
let superToken: string;
let coin: CoinRow;
let user: UserRow;

moneyFile((m) => ({ f, token: superToken } = m));
beforeAll(async () => {
  coin = await makeCoin(f, { decimals: 6, minWithdrawal: 1_000_000n, withdrawalFee: 250_000n });
  user = await makeUser(f);
  await fund(f, user.id, coin.id, 500_000_000n);
}, 120_000);
beforeEach(async () => {
  await setSiteSettings(f.db, { withdrawalsEnabled: true });
});

const requestFor = (u: UserRow, amount = 2_000_000n) =>
  f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: u.id, coin: coin.id, amount, toAddress: randomAddress() }));
const bulk = (resource: string, action: string, body: unknown, token = superToken) => call(f.s, 'POST', `/api/admin/${resource}/bulk/${action}`, { token, body });
const auditRows = (resource: string, action: string, ids: (number | string)[]) =>
  f.db.select().from(auditLog).where(and(eq(auditLog.resource, resource), eq(auditLog.action, action), inArray(auditLog.recordId, ids.map(String))));

describe('bulk actions', () => {
  it('say before they run what they would act on: the count, what they would skip, and per coin the total and the largest', async () => {
    const other = await makeCoin(f, { decimals: 9, minWithdrawal: 1n, withdrawalFee: 0n });
    await fund(f, user.id, other.id, 10_000_000_000n);
    const small = await requestFor(user, 2_000_000n);
    const big = await requestFor(user, 300_000_000n);
    const sol = await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: user.id, coin: other.id, amount: 1_500_000_000n, toAddress: randomAddress() }));
    const done = await requestFor(user, 3_000_000n);
    await f.db.transaction((tx) => rejectWithdrawal(tx, f.admin, done.id, { reasonCode: 'duplicate', reason: 'Not this one' }));
    const ids = [small, big, sol, done].map((w) => String(w.id));
    const preview = await call(f.s, 'POST', '/api/admin/withdrawals/bulk/approve/preview', { token: superToken, body: { ids } });
    expect(preview.status).toBe(200);
    expect(preview.body.result).toEqual({
      count: 3, notApplicable: 1,
      totals: [
        { coin: coin.symbol, decimals: 6, count: 2, total: '302000000', largest: { _id: String(big.id), title: `300 ${coin.symbol}`, amount: '300000000' } },
        { coin: other.symbol, decimals: 9, count: 1, total: '1500000000', largest: { _id: String(sol.id), title: `1.5 ${other.symbol}`, amount: '1500000000' } },
      ].sort((a, b) => a.coin.localeCompare(b.coin)),
    });
    // Under the action's own right, and nothing changed.
    const viewer = await makeSubAdmin(f.s, [{ name: 'Withdraw', canView: true, canEdit: false }], superToken);
    expect((await call(f.s, 'POST', '/api/admin/withdrawals/bulk/approve/preview', { token: viewer.token, body: { ids } })).status).toBe(403);
    const [row] = await f.db.select().from(withdrawals).where(eq(withdrawals.id, small.id));
    expect(row!.status).toBe('requested');
    // The same for every record matching a query.
    const byQuery = await call(f.s, 'POST', '/api/admin/withdrawals/bulk/approve/preview', { token: superToken, body: { query: { userId: String(user.id), coin: other.symbol } } });
    expect(byQuery.body.result).toMatchObject({ count: 1, notApplicable: 0 });
    for (const w of [small, big, sol]) await f.db.transaction((tx) => rejectWithdrawal(tx, f.admin, w.id, { reasonCode: 'duplicate', reason: 'Cleaning up' }));
  });

  it('need the single action\'s right: the named approve right for approve and reject, edit for fail', async () => {
    const w = await requestFor(user);
    const editor = await makeSubAdmin(f.s, [{ name: 'Withdraw', canView: true, canEdit: true }], superToken);
    const viewer = await makeSubAdmin(f.s, [{ name: 'Withdraw', canView: true, canEdit: false }], superToken);
    const approver = await makeSubAdmin(f.s, [{ name: 'Withdraw', canView: true, canEdit: false, rights: ['approve'] }], superToken);
    expect((await bulk('withdrawals', 'approve', { ids: [String(w.id)] }, editor.token)).status).toBe(403);
    expect((await bulk('withdrawals', 'approve', { ids: [String(w.id)] }, viewer.token)).status).toBe(403);
    expect((await bulk('withdrawals', 'fail', { ids: [String(w.id)], input: { reasonCode: 'chain_error', reason: 'Batch did not go out' } }, approver.token)).status).toBe(403);
    // Actions without a bulk form have no bulk route: complete needs one signature per record.
    expect((await bulk('withdrawals', 'complete', { ids: [String(w.id)], input: { txSignature: randomSignature() } })).status).not.toBe(200);
    expect((await bulk('users', 'adjust-balance', { ids: [String(user.id)], input: { coinId: String(coin.id), amount: '1', reason: 'Nope' } })).status).not.toBe(200);
    const [row] = await f.db.select().from(withdrawals).where(eq(withdrawals.id, w.id));
    expect(row!.status).toBe('requested');
    const ok = await bulk('withdrawals', 'approve', { ids: [String(w.id)] }, approver.token);
    expect(ok.status).toBe(200);
    expect(ok.body.result).toEqual({ done: 1, skipped: [] });
  });

  it('approves each record on its own, skips a wrong state and a refusal of the service with the reason, and audits each one', async () => {
    const fresh = [await requestFor(user), await requestFor(user), await requestFor(user)];
    const alreadyRejected = await requestFor(user);
    expect((await call(f.s, 'POST', `/api/admin/withdrawals/${alreadyRejected.id}/reject`, { token: superToken, body: { reasonCode: 'duplicate', reason: 'Duplicate request' } })).status).toBe(200);
    // The service's own rule: a blocked user's withdrawal is not approved (409), it is rejected.
    const other = await makeUser(f);
    await fund(f, other.id, coin.id, 10_000_000n);
    const ofBlocked = await requestFor(other);
    await f.db.transaction((tx) => blockUser(tx, f.admin, other.id, { reason: 'Chargeback fraud' }));

    const ids = [...fresh, alreadyRejected, ofBlocked].map((w) => String(w.id));
    const res = await bulk('withdrawals', 'approve', { ids: [...ids, '999999'] });
    expect(res.status).toBe(200);
    expect(res.body.result.done).toBe(3);
    expect(res.body.result.skipped).toEqual([
      { id: String(alreadyRejected.id), reason: 'Withdrawal is rejected: only a requested or awaiting second approval withdrawal can be approved' },
      { id: String(ofBlocked.id), reason: 'The user is blocked: reject the withdrawal or unblock the user first' },
      { id: '999999', reason: 'Withdrawal not found' },
    ]);
    expect(res.body.message).toBe('Approve: 3 of 6 withdrawals done; 3 skipped');
    const rows = await f.db.select().from(withdrawals).where(inArray(withdrawals.id, [...fresh, alreadyRejected, ofBlocked].map((w) => w.id))).orderBy(withdrawals.id);
    expect(rows.map((r) => r.status)).toEqual(['approved', 'approved', 'approved', 'rejected', 'requested']);
    expect(rows.slice(0, 3).every((r) => r.reviewedBy === f.admin.admin.id)).toBe(true);
    // One audit entry per record done (the service's own), none for the skipped ones.
    const audit = await auditRows('withdrawals', 'approve', ids);
    expect(audit.map((a) => a.recordId).sort()).toEqual(fresh.map((w) => String(w.id)).sort());
    expect(audit.every((a) => a.actorKind === 'admin' && a.adminEmail === f.admin.admin.email)).toBe(true);
  });

  it('rejects every request matching a list query (a filter on a joined column included), releasing each hold once', async () => {
    const own = await makeCoin(f, { decimals: 6, minWithdrawal: 1_000_000n, withdrawalFee: 100_000n });
    const holder = await makeUser(f);
    await fund(f, holder.id, own.id, 50_000_000n);
    const ws = [];
    for (let i = 0; i < 4; i++) ws.push(await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: holder.id, coin: own.id, amount: 5_000_000n, toAddress: randomAddress() })));
    expect(await balanceOf(f.db, holder.id, own.id)).toEqual({ available: 50_000_000n - 4n * 5_100_000n, held: 4n * 5_100_000n });
    const missingReason = await bulk('withdrawals', 'reject', { query: { coin: own.symbol.toLowerCase(), status: 'requested' } });
    expect(missingReason.status).toBe(400);
    expect(missingReason.body.errors.input).toBeDefined();
    const res = await bulk('withdrawals', 'reject', { query: { coin: own.symbol.toLowerCase(), status: 'requested' }, input: { reasonCode: 'destination_risk', reason: 'Sanctioned destination' } });
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ done: 4, skipped: [] });
    expect(await balanceOf(f.db, holder.id, own.id)).toEqual({ available: 50_000_000n, held: 0n });
    const rows = await f.db.select().from(withdrawals).where(eq(withdrawals.coinId, own.id));
    expect(rows.every((r) => r.status === 'rejected' && r.reasonCode === 'destination_risk' && r.reason === 'Sanctioned destination')).toBe(true);
    expect(await auditRows('withdrawals', 'reject', ws.map((w) => w.id))).toHaveLength(4);
    // Again: nothing matches any more, nothing moves.
    const again = await bulk('withdrawals', 'reject', { ids: ws.map((w) => String(w.id)), input: { reasonCode: 'destination_risk' } });
    expect(again.body.result.done).toBe(0);
    expect(again.body.result.skipped.map((s: { reason: string }) => s.reason)).toEqual(Array(4).fill('Withdrawal is already rejected'));
    expect(await balanceOf(f.db, holder.id, own.id)).toEqual({ available: 50_000_000n, held: 0n });
  });

  it('approves each record once when two admins run the same bulk approve at the same time', async () => {
    const ws = [];
    for (let i = 0; i < 5; i++) ws.push(await requestFor(user));
    const ids = ws.map((w) => String(w.id));
    const second = await makeSubAdmin(f.s, [{ name: 'Withdraw', canView: true, canEdit: false, rights: ['approve'] }], superToken);
    const [a, b] = await Promise.all([bulk('withdrawals', 'approve', { ids }), bulk('withdrawals', 'approve', { ids }, second.token)]);
    expect(a.body.result.done + b.body.result.done).toBe(5);
    for (const r of [...a.body.result.skipped, ...b.body.result.skipped]) expect(r.reason).toBe('Withdrawal is already approved');
    expect(await auditRows('withdrawals', 'approve', ids)).toHaveLength(5);
  });

  it('confirms deposits in bulk, crediting each exactly once', async () => {
    const d = [];
    for (let i = 0; i < 3; i++) {
      d.push(await f.db.transaction((tx) => recordDeposit(tx, f.platform, { userId: user.id, coin: coin.id, amount: 1_000_000n, txSignature: randomSignature(), fromAddress: randomAddress() })));
    }
    const before = await balanceOf(f.db, user.id, coin.id);
    const ids = d.map((x) => String(x.id));
    expect((await bulk('deposits', 'confirm', { ids })).body.result).toEqual({ done: 3, skipped: [] });
    const twice = await bulk('deposits', 'confirm', { ids });
    expect(twice.body.result.done).toBe(0);
    expect(twice.body.result.skipped).toEqual(ids.map((id) => ({ id, reason: 'Deposit is already confirmed' })));
    expect(await balanceOf(f.db, user.id, coin.id)).toEqual({ available: before.available + 3_000_000n, held: before.held });
    const rows = await f.db.select().from(deposits).where(inArray(deposits.id, d.map((x) => x.id)));
    expect(rows.every((r) => r.status === 'confirmed')).toBe(true);
  });

  it(`refuses more than ${BULK_ACTION_MAX} records in one call with a 400, before touching any`, async () => {
    await f.db.execute(sql`
      insert into users (username, email, country, signup_ip)
      select 'bulk_' || i, 'bulk_' || i || '@players.test', 'NZ', '198.51.100.9' from generate_series(1, ${BULK_ACTION_MAX + 1}) as g(i)`);
    const before = await snapshot(f.db);
    const tooMany = await bulk('users', 'block', { query: { country: 'NZ' }, input: { reason: 'Bot farm' } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('Too many records: at most 1,000 at once, narrow the filters');
    const ids = (await f.db.select({ id: users.id }).from(users).where(eq(users.country, 'NZ'))).map((u) => String(u.id));
    const tooManyIds = await bulk('users', 'block', { ids, input: { reason: 'Bot farm' } });
    expect(tooManyIds.status).toBe(400);
    expect(tooManyIds.body.errors.ids).toBe('At most 1,000 records at once');
    expect(await snapshot(f.db)).toEqual(before);
    // Narrowed to the limit, it goes through: each user blocked, each with its audit entry.
    const narrowed = await bulk('users', 'block', { ids: ids.slice(0, 3), input: { reason: 'Bot farm' } });
    expect(narrowed.body.result).toEqual({ done: 3, skipped: [] });
    expect(await auditRows('users', 'block', ids.slice(0, 3))).toHaveLength(3);
    const unblocked = await bulk('users', 'unblock', { ids: ids.slice(0, 4) });
    expect(unblocked.body.result).toEqual({ done: 3, skipped: [{ id: ids[3], reason: 'User is already active' }] });
  });
});
