import { beforeAll, describe, expect, it } from 'vitest';
import { cardCategories, cardCharacters, cardTiers, users } from '../src/db/schema.js';
import { requestWithdrawal } from '../src/modules/withdrawals/service.js';
import { call, makeSubAdmin, type TestServer } from './helpers.js';
import { fund, makeCoin, randomAddress, setSiteSettings, type MoneyFixture, moneyFile } from './money-helpers.js';

/**
 * Reference inputs ask their own choices endpoint (`GET <resource>/choices/<place>`), under the right
 * of the list, form or action they belong to: a sub-admin who may use a list but not browse the
 * users still picks a user by name, and learns nothing beyond ids and labels.
 */
let f: MoneyFixture;
let s: TestServer;
let superToken: string;
let alice: { id: number; email: string };
let bob: { id: number };
moneyFile((m) => ({ f, s, token: superToken } = m));
beforeAll(async () => {
  const [row] = await f.db.insert(users).values({ username: 'alice_choices', email: 'hidden.mailbox@pitboss.test', signupIp: '203.0.113.9' }).returning();
  alice = { id: row!.id, email: row!.email };
  const [other] = await f.db.insert(users).values({ username: 'alice_choices_too', email: 'bob.choices@pitboss.test', signupIp: '203.0.113.9' }).returning();
  bob = { id: other!.id };
  // Alice has a withdrawal; the other has none.
  await setSiteSettings(f.db, { withdrawalsEnabled: true });
  const coin = await makeCoin(f, { decimals: 6, minWithdrawal: 1_000_000n, withdrawalFee: 250_000n });
  await fund(f, alice.id, coin.id, 10_000_000n);
  await f.db.transaction((tx) => requestWithdrawal(tx, f.platform, { userId: alice.id, coin: coin.id, amount: 2_000_000n, toAddress: randomAddress() }));
}, 120_000);

const withdrawUserChoices = '/api/admin/withdrawals/choices/filter/userId';

describe('reference choices', () => {
  it('offer a list viewer the target by its label only: ids and labels, no other field, and no search in fields the viewer may not see', async () => {
    const viewer = await makeSubAdmin(s, [{ name: 'Withdraw', canView: true, canEdit: false }], superToken);
    // The users themselves stay closed to this sub-admin.
    expect((await call(s, 'GET', '/api/admin/users?q=alice', { token: viewer.token })).status).toBe(403);
    // The filter offers the users some withdrawal points at: alice, not alice_choices_too (who has none).
    const found = await call(s, 'GET', `${withdrawUserChoices}?q=alice_ch`, { token: viewer.token });
    expect(found.status).toBe(200);
    expect(found.body.result.items).toEqual([{ _id: String(alice.id), label: 'alice_choices' }]);
    // The owned cards' user filter: neither owns a card.
    const both = await call(s, 'GET', '/api/admin/user-cards/choices/filter/userId?q=alice_ch', { token: superToken });
    expect(both.body.result.items).toEqual([]);
    // An email finds nobody for this sub-admin (the label is all it searches), so the offer is no way to test an address.
    const byEmail = await call(s, 'GET', `${withdrawUserChoices}?q=${encodeURIComponent('hidden.mailbox')}`, { token: viewer.token });
    expect(byEmail.body.result.items).toEqual([]);
    // An admin who may browse the users searches as the users list does (an email too).
    const asSuper = await call(s, 'GET', `${withdrawUserChoices}?q=${encodeURIComponent('hidden.mailbox')}`, { token: superToken });
    expect(asSuper.body.result.items).toEqual([{ _id: String(alice.id), label: 'alice_choices' }]);
    // The labels of chosen ids (a filter read back from the URL): to this sub-admin only users a
    // withdrawal points at, so the endpoint is no way to read the name behind any user id.
    const labels = await call(s, 'GET', `${withdrawUserChoices}?ids=${alice.id},${bob.id},999999999`, { token: viewer.token });
    expect(labels.body.result.items).toEqual([{ _id: String(alice.id), label: 'alice_choices' }]);
    // An admin who may view the users is named every id.
    const all = await call(s, 'GET', `${withdrawUserChoices}?ids=${alice.id},${bob.id},999999999`, { token: superToken });
    expect(all.body.result.items).toEqual([{ _id: String(alice.id), label: 'alice_choices' }, { _id: String(bob.id), label: 'alice_choices_too' }]);
  });

  it('are refused without the right of the list they belong to, and refuse a bad query with 400', async () => {
    const other = await makeSubAdmin(s, [{ name: 'Deposit', canView: true, canEdit: true }], superToken);
    expect((await call(s, 'GET', `${withdrawUserChoices}?q=alice`, { token: other.token })).status).toBe(403);
    // The deposits' own filter, under the deposits' right: alice was funded by a deposit, the other user has none.
    const deposits = await call(s, 'GET', '/api/admin/deposits/choices/filter/userId?q=alice_ch', { token: other.token });
    expect(deposits.status).toBe(200);
    expect(deposits.body.result.items).toEqual([{ _id: String(alice.id), label: 'alice_choices' }]);
    expect((await call(s, 'GET', `${withdrawUserChoices}?q=a&ids=1`, { token: superToken })).status).toBe(400);
    expect((await call(s, 'GET', `${withdrawUserChoices}?ids=1,x`, { token: superToken })).status).toBe(400);
    expect((await call(s, 'GET', `${withdrawUserChoices}?email=x`, { token: superToken })).status).toBe(400);
    expect((await call(s, 'GET', '/api/admin/withdrawals/choices/filter/coin', { token: superToken })).status).toBe(404);
  });

  it('a form field offers what its declaration allows (active categories only, with or without characters yet), still names a chosen inactive one (only one held, to an admin who may not view them), and opens to the form viewer', async () => {
    const db = s.database.db;
    const [active] = await db.insert(cardCategories).values({ name: 'Choice Active Cat', slug: 'choice-active-cat', status: 'active' }).returning();
    const [inactive] = await db.insert(cardCategories).values({ name: 'Choice Retired Cat', slug: 'choice-retired-cat', status: 'inactive' }).returning();
    const viewer = await makeSubAdmin(s, [{ name: 'Character', canView: true, canEdit: false }], superToken);
    const path = '/api/admin/card-characters/choices/form/categoryId';
    const search = await call(s, 'GET', `${path}?q=choice`, { token: viewer.token });
    expect(search.status).toBe(200);
    expect(search.body.result.items).toEqual([{ _id: String(active!.id), label: 'Choice Active Cat' }]);
    // A category no character holds is not named by id to this sub-admin (who may not view categories);
    // once a character holds it (a record's current value), it is, though no longer offered.
    const [retired] = await db.insert(cardCategories).values({ name: 'Choice Unheld Cat', slug: 'choice-unheld-cat', status: 'inactive' }).returning();
    expect((await call(s, 'GET', `${path}?ids=${retired!.id}`, { token: viewer.token })).body.result.items).toEqual([]);
    const [tier] = await db.insert(cardTiers).values({ name: 'Choice Tier', color: '#888888', dropWeight: 1 }).returning();
    await db.insert(cardCharacters).values({ name: 'Choice Holder', categoryId: inactive!.id, tierId: tier!.id, maxSupply: 10 });
    const named = await call(s, 'GET', `${path}?ids=${inactive!.id},${retired!.id}`, { token: viewer.token });
    expect(named.body.result.items).toEqual([{ _id: String(inactive!.id), label: 'Choice Retired Cat' }]);
    // The categories' own list stays closed to this sub-admin.
    expect((await call(s, 'GET', '/api/admin/card-categories', { token: viewer.token })).status).toBe(403);
  });

  it('an action field offers its choices under the action\'s right', async () => {
    const supportViewer = await makeSubAdmin(s, [{ name: 'Support Ticket', canView: true, canEdit: false }], superToken);
    const supportEditor = await makeSubAdmin(s, [{ name: 'Support Ticket', canView: true, canEdit: true }], superToken);
    const assign = '/api/admin/tickets/choices/action/assign/adminId';
    expect((await call(s, 'GET', assign, { token: supportViewer.token })).status).toBe(403);
    const offered = await call(s, 'GET', assign, { token: supportEditor.token });
    expect(offered.status).toBe(200);
    // The sub-admins by name (the editor among them), and nothing else of them (no email).
    expect(offered.body.result.items).toContainEqual({ _id: supportEditor.id, label: expect.stringMatching(/^Sub \d+$/) });
    for (const item of offered.body.result.items) expect(Object.keys(item).sort()).toEqual(['_id', 'label']);
  });
});
