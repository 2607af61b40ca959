import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { admins, coins, users } from '../../db/schema.js';
import { adminActor } from '../../context.js';
import { createCoin, updateCoin } from '../coins/service.js';
import { blockUser, createUser, unblockUser } from './service.js';
import { auditOf, expectRefused, fund, makeCoin, makeUser, randomAddress, type MoneyFixture, moneyFile } from '../../../test/money-helpers.js';

let f: MoneyFixture;
moneyFile((m) => ({ f } = m));

describe('users', () => {
  it('creates a user with normalised fields and an audit entry naming the actor', async () => {
    const wallet = randomAddress();
    const u = await f.db.transaction((tx) =>
      createUser(tx, f.platform, { username: ' Lucky_Ann ', email: 'Ann@Example.com', walletAddress: wallet, country: 'fr', signupIp: '198.51.100.9' }),
    );
    expect(u).toMatchObject({ username: 'Lucky_Ann', email: 'Ann@Example.com', walletAddress: wallet, country: 'FR', status: 'active', emailVerified: false, blockedReason: null });
    const [entry] = await auditOf(f.db, 'users', u.id);
    expect(entry).toMatchObject({ action: 'create', actorKind: 'platform', adminId: null, adminEmail: 'platform', ip: '198.51.100.7', after: expect.objectContaining({ username: 'Lucky_Ann' }) });
  });

  it('refuses a username or email taken in another case, and a wallet of another user (409 with the field), changing nothing', async () => {
    const wallet = randomAddress();
    await makeUser(f, { username: 'CaseTest', email: 'case@test.example', walletAddress: wallet });
    await expectRefused(f, (tx) => createUser(tx, f.admin, { username: 'casetest', email: 'x1@test.example' }), { status: 409, errors: { username: 'This username is taken' } });
    await expectRefused(f, (tx) => createUser(tx, f.admin, { username: 'other1', email: 'CASE@TEST.EXAMPLE' }), { status: 409, errors: { email: expect.any(String) } });
    await expectRefused(f, (tx) => createUser(tx, f.admin, { username: 'other2', email: 'x2@test.example', walletAddress: wallet }), { status: 409, errors: { walletAddress: expect.any(String) } });
  });

  it('refuses malformed fields (400 naming each), changing nothing', async () => {
    await expectRefused(
      f,
      (tx) => createUser(tx, f.admin, { username: 'a b', email: 'nope', walletAddress: 'not-a-key', country: 'UK', signupIp: '999.1.1.1' }),
      { status: 400, errors: { username: expect.any(String), email: expect.any(String), walletAddress: expect.any(String), country: expect.any(String), signupIp: expect.any(String) } },
    );
  });

  it('blocks and unblocks once each: a second block or unblock is 409 naming the state', async () => {
    const u = await makeUser(f);
    const blocked = await f.db.transaction((tx) => blockUser(tx, f.admin, u.id, { reason: 'Chargeback fraud' }));
    expect(blocked).toMatchObject({ status: 'blocked', blockedReason: 'Chargeback fraud', blockedBy: f.admin.admin.id });
    await expectRefused(f, (tx) => blockUser(tx, f.admin, u.id, { reason: 'again' }), { status: 409, message: 'User is already blocked' });
    await expectRefused(f, (tx) => blockUser(tx, f.admin, u.id, { reason: '' }), { status: 400, errors: { reason: 'A reason is required' } });
    // A super admin's block: not a sub-admin's to lift.
    await expectRefused(f, (tx) => unblockUser(tx, f.admin2, u.id), { status: 403, message: 'A super admin blocked this user: only a super admin can unblock them' });
    const active = await f.db.transaction((tx) => unblockUser(tx, f.admin, u.id));
    expect(active).toMatchObject({ status: 'active', blockedReason: null, blockedAt: null });
    await expectRefused(f, (tx) => unblockUser(tx, f.admin, u.id), { status: 409, message: 'User is already active' });
    await expectRefused(f, (tx) => blockUser(tx, f.platform, u.id, { reason: 'x' }), { status: 403 });
    await expectRefused(f, (tx) => blockUser(tx, f.admin, 987_654, { reason: 'x' }), { status: 404 });
    const entries = await auditOf(f.db, 'users', u.id);
    expect(entries.map((e) => [e.action, e.adminId])).toEqual([['create', f.admin.admin.id], ['block', f.admin.admin.id], ['unblock', f.admin.admin.id]]);
    expect(entries[1]).toMatchObject({ before: expect.objectContaining({ status: 'active' }), after: expect.objectContaining({ status: 'blocked', blockedReason: 'Chargeback fraud' }) });
  });

  it("lifts a block only by its admin or one above them: a sub-admin's by itself or its creator, not by another sub-admin", async () => {
    // admin2 was created by the super admin; a third sub-admin, created by admin2, and a fourth beside them.
    const sub = async (createdBy: number) => {
      const [row] = await f.db.insert(admins).values({ name: 'Ops', email: `ops-${randomUUID()}@pitboss.test`, passwordHash: 'not-a-hash', role: 'subadmin', createdBy }).returning();
      return adminActor(row!, '203.0.113.7');
    };
    const below = await sub(f.admin2.admin.id);
    const beside = await sub(f.admin.admin.id);
    const u = await makeUser(f);
    const block = (by: typeof below) => f.db.transaction((tx) => blockUser(tx, by, u.id, { reason: 'Suspicious deposits' }));
    await block(below);
    await expectRefused(f, (tx) => unblockUser(tx, beside, u.id), { status: 403, message: `${below.admin.email} blocked this user: only they or an admin above them can unblock them` });
    expect((await f.db.transaction((tx) => unblockUser(tx, f.admin2, u.id))).status).toBe('active');
    await block(below);
    expect((await f.db.transaction((tx) => unblockUser(tx, below, u.id))).status).toBe('active');
    await block(f.admin2);
    await expectRefused(f, (tx) => unblockUser(tx, below, u.id), { status: 403, message: `${f.admin2.admin.email} blocked this user: only they or an admin above them can unblock them` });
    expect((await f.db.transaction((tx) => unblockUser(tx, f.admin, u.id))).status).toBe('active');
    // A block by the system: any admin with the right.
    await f.db.transaction((tx) => blockUser(tx, f.system, u.id, { reason: 'Sanctions list match' }));
    expect((await f.db.transaction((tx) => unblockUser(tx, beside, u.id))).status).toBe('active');
  });

  it('the database refuses a blocked user without a reason and a lower-case country', async () => {
    const u = await makeUser(f);
    await expect(f.db.update(users).set({ status: 'blocked' }).where(eq(users.id, u.id))).rejects.toThrow();
    await expect(f.db.update(users).set({ country: 'de' }).where(eq(users.id, u.id))).rejects.toThrow();
  });
});

describe('coins', () => {
  it('creates a coin (symbol upper-cased, defaults) and updates it, audited with before and after', async () => {
    const c = await f.db.transaction((tx) => createCoin(tx, f.admin, { symbol: 'bonk', name: 'Bonk', decimals: 5, mintAddress: randomAddress(), minWithdrawal: 100_000n, withdrawalFee: 5_000n }));
    expect(c).toMatchObject({ symbol: 'BONK', network: 'devnet', depositEnabled: true, withdrawEnabled: true, status: 'active', minWithdrawal: 100_000n, withdrawalFee: 5_000n });
    const u = await f.db.transaction((tx) => updateCoin(tx, f.admin, c.id, { withdrawEnabled: false, withdrawalFee: 7_000n, logoUrl: 'https://cdn.example/bonk.png' }));
    expect(u).toMatchObject({ withdrawEnabled: false, withdrawalFee: 7_000n, logoUrl: 'https://cdn.example/bonk.png', name: 'Bonk' });
    const entries = await auditOf(f.db, 'coins', c.id);
    expect(entries.map((e) => e.action)).toEqual(['create', 'update']);
    expect(entries[1]).toMatchObject({ before: expect.objectContaining({ withdrawalFee: '5000' }), after: expect.objectContaining({ withdrawalFee: '7000' }) });
  });

  it('refuses a duplicate symbol (409), bad fields (400), and new decimals once the ledger uses the coin (409)', async () => {
    const c = await makeCoin(f, { symbol: 'DUPE' });
    await expectRefused(f, (tx) => createCoin(tx, f.admin, { symbol: 'dupe', name: 'Again', decimals: 2 }), { status: 409, errors: { symbol: expect.any(String) } });
    await expectRefused(
      f,
      (tx) => createCoin(tx, f.admin, { symbol: 'x', name: '', decimals: 19, minWithdrawal: -1n, logoUrl: 'javascript:alert(1)', mintAddress: 'nope' }),
      { status: 400, errors: { symbol: expect.any(String), name: expect.any(String), decimals: expect.any(String), minWithdrawal: expect.any(String), logoUrl: expect.any(String), mintAddress: expect.any(String) } },
    );
    // Unused: decimals may still change.
    await f.db.transaction((tx) => updateCoin(tx, f.admin, c.id, { decimals: 8 }));
    const u = await makeUser(f);
    await fund(f, u.id, c.id, 10n);
    await expectRefused(f, (tx) => updateCoin(tx, f.admin, c.id, { decimals: 9 }), { status: 409, errors: { decimals: expect.any(String) } });
    await expectRefused(f, (tx) => updateCoin(tx, f.admin, 424_242, { name: 'x' }), { status: 404 });
    await expectRefused(f, (tx) => updateCoin(tx, f.platform, c.id, { name: 'x' }), { status: 403 });
    const [row] = await f.db.select().from(coins).where(eq(coins.id, c.id));
    expect(row!.decimals).toBe(8);
  });

  it('shows at most 4 decimals in tables unless told, never more than the coin has', async () => {
    const c = await f.db.transaction((tx) => createCoin(tx, f.admin, { symbol: 'shown', name: 'Shown', decimals: 9, mintAddress: randomAddress() }));
    expect(c.displayDecimals).toBe(4);
    expect((await f.db.transaction((tx) => createCoin(tx, f.admin, { symbol: 'pts', name: 'Points', decimals: 1, mintAddress: randomAddress() }))).displayDecimals).toBe(1);
    await expectRefused(f, (tx) => createCoin(tx, f.admin, { symbol: 'over', name: 'Over', decimals: 2, displayDecimals: 3 }), { status: 400, errors: { displayDecimals: expect.any(String) } });
    await expectRefused(f, (tx) => updateCoin(tx, f.admin, c.id, { displayDecimals: 10 }), { status: 400, errors: { displayDecimals: expect.any(String) } });
    expect((await f.db.transaction((tx) => updateCoin(tx, f.admin, c.id, { displayDecimals: 9 }))).displayDecimals).toBe(9);
    // Fewer decimals (the ledger does not use it yet) take the display down with them.
    expect(await f.db.transaction((tx) => updateCoin(tx, f.admin, c.id, { decimals: 6 }))).toMatchObject({ decimals: 6, displayDecimals: 6 });
  });
});
