import { RESOURCES } from '@pitboss/contract';
import { describe, expect, it } from 'vitest';
import { coinBySymbol } from '../coins/service.js';
import { recordDeposit } from '../deposits/service.js';
import { requestWithdrawal } from '../withdrawals/service.js';
import { call, makeSubAdmin } from '../../../test/helpers.js';
import { fund, makeCoin, makeUser, moneyFile, randomAddress, randomSignature, type MoneyFixture } from '../../../test/money-helpers.js';

/**
 * Users and money through the admin API: the declared lists, record pages and actions over the
 * money services, with their rights (approve is a named right) and states.
 */
let f: MoneyFixture;
let superToken: string;
moneyFile((m) => ({ f, token: superToken } = m));

const get = (url: string, token = superToken, query?: Record<string, string>) => call(f.s, 'GET', url, { token, ...(query ? { query } : {}) });
const post = (url: string, body: unknown, token = superToken) => call(f.s, 'POST', url, { token, body });

describe('money resources', () => {
  it('a withdrawal awaiting review: approved by an admin with the approve right, refused to view-only and edit-only admins; the user page shows held then paid', async () => {
    // The platform's own USDC (bootstrap): 6 decimals, minimum 1 USDC, fee 0.5 USDC.
    const coin = (await coinBySymbol(f.db, 'USDC'))!;
    const user = await makeUser(f);
    await fund(f, user.id, coin.id, 50_000_000n);
    const w = await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: user.id, coin: coin.id, amount: 10_000_000n, toAddress: randomAddress() }));

    const listed = await get('/api/admin/withdrawals', superToken, { status: 'requested', coin: 'usdc' });
    expect(listed.status).toBe(200);
    expect(listed.body.result.items[0]).toMatchObject({ _id: String(w.id), status: 'requested', amountText: '10 USDC', feeText: '0.5 USDC', username: user.username });
    const page = await get(`/api/admin/users/${user.id}`);
    expect(page.body.result.balances).toEqual([{ coin: 'USDC', decimals: 6, available: '39500000', held: '10500000' }]);

    const viewer = await makeSubAdmin(f.s, [{ name: 'Withdraw', canView: true, canEdit: false }], superToken);
    const editor = await makeSubAdmin(f.s, [{ name: 'Withdraw', canView: true, canEdit: true }], superToken);
    const approver = await makeSubAdmin(f.s, [{ name: 'Withdraw', canView: true, canEdit: false, rights: ['approve'] }], superToken);
    expect((await post(`/api/admin/withdrawals/${w.id}/approve`, {}, viewer.token)).status).toBe(403);
    expect((await post(`/api/admin/withdrawals/${w.id}/approve`, {}, editor.token)).status).toBe(403);
    const approved = await post(`/api/admin/withdrawals/${w.id}/approve`, {}, approver.token);
    expect(approved.status).toBe(200);
    expect(approved.body.result).toMatchObject({ status: 'approved', reviewedByEmail: approver.email });
    const again = await post(`/api/admin/withdrawals/${w.id}/approve`, {}, approver.token);
    expect(again.status).toBe(409);

    // Completing is an edit-level step; the approver alone may not.
    const signature = randomSignature();
    expect((await post(`/api/admin/withdrawals/${w.id}/complete`, { txSignature: signature }, approver.token)).status).toBe(403);
    const done = await post(`/api/admin/withdrawals/${w.id}/complete`, { txSignature: signature }, editor.token);
    expect(done.status).toBe(200);
    expect(done.body.result.explorerUrl).toBe(`https://explorer.solana.com/tx/${signature}?cluster=devnet`);
    const after = await get(`/api/admin/users/${user.id}`);
    expect(after.body.result.balances).toEqual([{ coin: 'USDC', decimals: 6, available: '39500000', held: '0' }]);
  });

  it('reason codes: a rejection takes a code of its list; the code is on the record, filterable, exported and audited', async () => {
    const coin = await makeCoin(f, { decimals: 6, minWithdrawal: 1_000_000n, withdrawalFee: 0n });
    const user = await makeUser(f);
    await fund(f, user.id, coin.id, 20_000_000n);
    const ask = () => f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: user.id, coin: coin.id, amount: 2_000_000n, toAddress: randomAddress() }));
    const [a, b] = [await ask(), await ask()];
    // A free-text reason alone is no longer enough, and a code of another action's list is refused.
    expect((await post(`/api/admin/withdrawals/${a.id}/reject`, { reason: 'Looks odd' })).body.errors).toEqual({ reasonCode: 'Pick a reason' });
    expect((await post(`/api/admin/withdrawals/${a.id}/reject`, { reasonCode: 'chain_error' })).body.errors).toEqual({ reasonCode: 'Pick a reason' });
    expect((await get(`/api/admin/withdrawals/${a.id}`)).body.result.status).toBe('requested');
    expect((await post(`/api/admin/withdrawals/${a.id}/reject`, { reasonCode: 'suspected_fraud' })).status).toBe(200);
    expect((await post(`/api/admin/withdrawals/${b.id}/reject`, { reasonCode: 'other', reason: 'Asked by compliance' })).status).toBe(200);
    expect((await get(`/api/admin/withdrawals/${a.id}`)).body.result).toMatchObject({ status: 'rejected', reasonCode: 'suspected_fraud', reason: null });
    const filtered = await get('/api/admin/withdrawals', superToken, { userId: String(user.id), reasonCode: 'suspected_fraud' });
    expect(filtered.body.result.items.map((w: { _id: string }) => w._id)).toEqual([String(a.id)]);
    const both = await get('/api/admin/withdrawals', superToken, { userId: String(user.id), reasonCode: 'suspected_fraud,other' });
    expect(both.body.result.total).toBe(2);
    expect((await get('/api/admin/withdrawals', superToken, { reasonCode: 'nonsense' })).status).toBe(400);
    const audit = await get('/api/admin/audit-log', superToken, { resource: 'withdrawals', recordId: String(b.id), action: 'reject' });
    expect(audit.body.result.items[0].after).toMatchObject({ reasonCode: 'other', reason: 'Asked by compliance' });
    const csv = await call(f.s, 'GET', '/api/admin/withdrawals/export', { token: superToken, query: { userId: String(user.id), reasonCode: 'other' } });
    const [header, row] = csv.raw.trim().split('\n');
    const col = header!.split(',').indexOf('Reason');
    expect(col).toBeGreaterThan(-1);
    expect(row!.split(',')[col]).toBe('other');
  });

  it('deposits: confirm credits once, from pending only; a reason is required to fail one', async () => {
    const coin = await makeCoin(f, { decimals: 9 });
    const user = await makeUser(f);
    const d = await f.db.transaction((tx) => recordDeposit(tx, f.platform, { userId: user.id, coin: coin.id, amount: 2_500_000_000n, txSignature: randomSignature(), fromAddress: randomAddress() }));
    expect((await post(`/api/admin/deposits/${d.id}/fail`, { reason: '' })).status).toBe(400);
    const ok = await post(`/api/admin/deposits/${d.id}/confirm`, {});
    expect(ok.status).toBe(200);
    expect(ok.body.result).toMatchObject({ status: 'confirmed', amountText: `2.5 ${coin.symbol}` });
    const twice = await post(`/api/admin/deposits/${d.id}/confirm`, {});
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('INVALID_STATE');
    const u = await get(`/api/admin/users/${user.id}`);
    expect(u.body.result.balances[0]).toMatchObject({ coin: coin.symbol, available: '2500000000', held: '0' });
  });

  it('users: block with a reason and unblock; a balance adjustment needs its own right and a reason', async () => {
    const coin = await makeCoin(f);
    const user = await makeUser(f);
    expect((await post(`/api/admin/users/${user.id}/block`, {})).status).toBe(400);
    const blocked = await post(`/api/admin/users/${user.id}/block`, { reason: 'Chargeback fraud' });
    expect(blocked.body.result).toMatchObject({ status: 'blocked', blockedReason: 'Chargeback fraud' });
    expect((await post(`/api/admin/users/${user.id}/block`, { reason: 'Again' })).status).toBe(409);
    expect((await post(`/api/admin/users/${user.id}/unblock`, {})).body.result.status).toBe('active');

    const usersEditor = await makeSubAdmin(f.s, [{ name: 'Users', canView: true, canEdit: true }], superToken);
    const adjust = { coinId: String(coin.id), amount: '1500', reasonCode: 'goodwill', reason: 'Goodwill credit' };
    expect((await post(`/api/admin/users/${user.id}/adjust-balance`, adjust, usersEditor.token)).status).toBe(403);
    expect((await post(`/api/admin/users/${user.id}/adjust-balance`, { ...adjust, amount: '0' })).status).toBe(400);
    // The coin is chosen by id: one that does not exist is named on the field; an amount is whole minor units.
    expect((await post(`/api/admin/users/${user.id}/adjust-balance`, { ...adjust, coinId: '999999999' })).body.errors).toHaveProperty('coinId');
    expect((await post(`/api/admin/users/${user.id}/adjust-balance`, { ...adjust, amount: '1.5' })).body.errors).toHaveProperty('amount');
    expect((await post(`/api/admin/users/${user.id}/adjust-balance`, { ...adjust, amount: '9223372036854775808' })).body.errors).toHaveProperty('amount');
    const credited = await post(`/api/admin/users/${user.id}/adjust-balance`, adjust);
    expect(credited.status).toBe(200);
    expect(credited.body.message).toBe(`Credited 0.001500 ${coin.symbol} to ${user.username}`);
    expect(credited.body.result.balances).toEqual([{ coin: coin.symbol, decimals: 6, available: '1500', held: '0' }]);
    // The coin picker of the action names each coin with what the amount field needs (its decimals and
    // symbol), to an admin who holds the right but may not open the coin list.
    const adjuster = await makeSubAdmin(f.s, [{ name: 'Users', canView: true, canEdit: false, rights: ['adjust-balance'] }], superToken);
    const picked = await get('/api/admin/users/choices/action/adjust-balance/coinId', adjuster.token, { ids: String(coin.id) });
    expect(picked.body.result.items).toEqual([{ _id: String(coin.id), label: coin.symbol, extra: { decimals: 6, symbol: coin.symbol } }]);
    expect((await get('/api/admin/coins', adjuster.token)).status).toBe(403);
    // A debit past the balance is refused by the ledger.
    expect((await post(`/api/admin/users/${user.id}/adjust-balance`, { ...adjust, amount: '-2000' })).status).toBe(409);
  });

  it('child lists: a user\'s deposits and withdrawals by their id; coins are edited through the coin service', async () => {
    const coin = await makeCoin(f);
    const user = await makeUser(f);
    const other = await makeUser(f);
    await fund(f, user.id, coin.id, 5_000n);
    await fund(f, other.id, coin.id, 7_000n);
    const mine = await get('/api/admin/deposits', superToken, { userId: String(user.id) });
    expect(mine.body.result.items.map((d: { username: string }) => d.username)).toEqual([user.username]);
    for (const child of RESOURCES.users!.children ?? []) expect((await get(`/api/admin/${child.resource}`, superToken, { [child.filter]: String(user.id) })).status).toBe(200);

    const patched = await call(f.s, 'PATCH', `/api/admin/coins/${coin.id}`, { token: superToken, body: { withdrawalFee: '250', withdrawEnabled: false } });
    expect(patched.status).toBe(200);
    expect(patched.body.result).toMatchObject({ withdrawalFee: '250', withdrawEnabled: false });
    // The list reads amounts in the coin's decimals (6 here), never raw minor units.
    expect(patched.body.result).toMatchObject({ withdrawalFeeText: `0.00025 ${coin.symbol}`, minWithdrawalText: `0.001 ${coin.symbol}` });
    const shown = RESOURCES.coins!.columns.filter((c) => !c.hidden).map((c) => c.key);
    expect(shown).toEqual(expect.arrayContaining(['minWithdrawalText', 'withdrawalFeeText']));
    expect(shown).not.toContain('withdrawalFee');
    expect((await call(f.s, 'PATCH', `/api/admin/coins/${coin.id}`, { token: superToken, body: { withdrawalFee: '-1' } })).status).toBe(400);
    for (const name of ['users', 'coins', 'deposits', 'withdrawals', 'fiat-payments']) {
      const res = await get(`/api/admin/${name}`);
      for (const item of res.body.result.items) expect(RESOURCES[name]!.record!.safeParse(item).success, `${name} ${JSON.stringify(item)}`).toBe(true);
    }
  });

  it('the dashboard counts withdrawals awaiting review and the funds held, for admins who may view withdrawals', async () => {
    const coin = (await coinBySymbol(f.db, 'USDC'))!;
    const user = await makeUser(f);
    await fund(f, user.id, coin.id, 20_000_000n);
    await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: user.id, coin: coin.id, amount: 3_000_000n, toAddress: randomAddress() }));
    const cards = (await get('/api/admin/dashboard')).body.result.cards as { key: string; value: number; text?: string }[];
    expect(cards.find((c) => c.key === 'withdrawalsAwaitingReview')!.value).toBeGreaterThanOrEqual(1);
    expect(cards.find((c) => c.key === 'fundsHeld')!.text).toMatch(/\d+(\.\d+)? USDC/);
    expect(cards.find((c) => c.key === 'signupsToday')!.value).toBeGreaterThanOrEqual(1);
    const faqOnly = await makeSubAdmin(f.s, [{ name: 'FAQ', canView: true, canEdit: false }], superToken);
    const theirs = (await get('/api/admin/dashboard', faqOnly.token)).body.result.cards as { key: string }[];
    expect(theirs.map((c) => c.key)).not.toContain('fundsHeld');
    expect(theirs.map((c) => c.key)).not.toContain('signupsToday');
  });

  it('reports: signups per day of the caller\'s zone, and admin profit from the ledger (the completed withdrawal\'s fee)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    const signups = await get('/api/admin/reports/signups', superToken, { from, to: today });
    expect(signups.status).toBe(200);
    expect(signups.body.result.rows).toHaveLength(7);
    expect(signups.body.result.rows.reduce((n: number, r: { signups: number }) => n + r.signups, 0)).toBeGreaterThanOrEqual(5);
    const profit = await get('/api/admin/reports/admin-profit', superToken, { from, to: today });
    expect(profit.body.result.rows).toContainEqual(expect.objectContaining({ source: 'withdrawal fees', coin: 'USDC', amount: '500000', amountText: '0.5 USDC' }));
    const csv = await get('/api/admin/reports/admin-profit/export', superToken, { from, to: today });
    expect(csv.raw).toContain('Day,Source,Coin,Income,Income coin,Income (minor units)\r\n');
    expect(csv.raw).toContain('withdrawal fees,USDC,0.5,USDC,500000');
    expect((await get('/api/admin/reports/signups', superToken, { from: today, to: from })).status).toBe(400);
    expect((await get('/api/admin/reports/signups', superToken, { from: '2020-01-01', to: today })).status).toBe(400);
    const usersOnly = await makeSubAdmin(f.s, [{ name: 'Users', canView: true, canEdit: false }], superToken);
    expect((await get('/api/admin/reports/admin-profit', usersOnly.token, { from, to: today })).status).toBe(403);
    expect((await get('/api/admin/reports/signups', usersOnly.token, { from, to: today })).status).toBe(200);
  });
});
