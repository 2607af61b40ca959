import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema.js';
import { call, login, makeSubAdmin, serverFile, type TestServer } from '../../../test/helpers.js';

let s: TestServer;
let superToken: string;
serverFile((m) => ({ s, token: superToken } = m));

describe('sub-admins', () => {
  it('creates with the permission matrix; role is never taken from input', async () => {
    // A role in the body is refused as an unknown field: nothing is created.
    const forged = await call(s, 'POST', '/api/admin/sub-admins', {
      token: superToken,
      body: { name: 'Fay Viewer', email: 'Fay@Pitboss.test', password: 'Fay-Strong-Pass-1', role: 'superadmin', restriction: [{ name: 'FAQ', canView: false, canEdit: true }] },
    });
    expect(forged.status).toBe(400);
    expect(forged.body.errors).toEqual({ role: 'Unknown field' });
    const res = await call(s, 'POST', '/api/admin/sub-admins', {
      token: superToken,
      body: { name: 'Fay Viewer', email: 'Fay@Pitboss.test', password: 'Fay-Strong-Pass-1', restriction: [{ name: 'FAQ', canView: false, canEdit: true }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ email: 'fay@pitboss.test', role: 'subadmin', restriction: [{ name: 'FAQ', canView: true, canEdit: true }], rights: '1 edit, 0 view only' });
    expect(res.body.result.passwordHash).toBeUndefined();
    const bad = await call(s, 'POST', '/api/admin/sub-admins', { token: superToken, body: { name: 'X', email: 'x', password: 'short', restriction: [{ name: 'Nope', canView: true, canEdit: false }] } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(['name', 'email', 'password', 'restriction.0.name']));
    const dup = await call(s, 'POST', '/api/admin/sub-admins', { token: superToken, body: { name: 'Fay Two', email: 'fay@pitboss.test', password: 'Fay-Strong-Pass-1' } });
    expect(dup.status).toBe(409);
    expect(dup.body.errors.email).toBeDefined();
  });

  it('a sub-admin can never raise their own rights, grant rights they lack, or touch a super admin', async () => {
    const manager = await makeSubAdmin(s, [{ name: 'Sub Admin', canView: true, canEdit: true }, { name: 'FAQ', canView: true, canEdit: false }], superToken);
    const self = await call(s, 'PATCH', `/api/admin/sub-admins/${manager.id}`, { token: manager.token, body: { restriction: [{ name: 'Users', canView: true, canEdit: true }] } });
    expect(self.status).toBe(403);
    // Refusals by the service's own rules are audited like the route check's.
    const denials = await s.database.db.select().from(auditLog).where(eq(auditLog.adminEmail, manager.email));
    expect(denials.some((d) => d.action === 'denied')).toBe(true);
    const grantMore = await call(s, 'POST', '/api/admin/sub-admins', {
      token: manager.token, body: { name: 'Puppet', email: 'puppet@pitboss.test', password: 'Puppet-Pass-123', restriction: [{ name: 'FAQ', canView: true, canEdit: true }] },
    });
    expect(grantMore.status).toBe(403);
    const grantSame = await call(s, 'POST', '/api/admin/sub-admins', {
      token: manager.token, body: { name: 'Helper', email: 'helper@pitboss.test', password: 'Helper-Pass-123', restriction: [{ name: 'FAQ', canView: true, canEdit: false }] },
    });
    expect(grantSame.status).toBe(200);
    const superRow = await call(s, 'GET', '/api/admin/getadmindetail', { token: superToken });
    expect((await call(s, 'PATCH', `/api/admin/sub-admins/${superRow.body.result._id}`, { token: manager.token, body: { status: 'disabled' } })).status).toBe(404);
    // The super admin never appears in the sub-admin list.
    const listed = await call(s, 'GET', '/api/admin/sub-admins', { token: superToken, query: { limit: '200' } });
    expect(listed.body.result.items.every((i: { role: string }) => i.role === 'subadmin')).toBe(true);
  });

  it('a change of rights applies on the next request; disabling ends the sessions', async () => {
    const sub = await makeSubAdmin(s, [{ name: 'FAQ', canView: true, canEdit: false }], superToken);
    expect((await call(s, 'GET', '/api/admin/faqs', { token: sub.token })).status).toBe(200);
    await call(s, 'PATCH', `/api/admin/sub-admins/${sub.id}`, { token: superToken, body: { restriction: [{ name: 'Tags', canView: true, canEdit: false }] } });
    expect((await call(s, 'GET', '/api/admin/faqs', { token: sub.token })).status).toBe(403);
    expect((await call(s, 'GET', '/api/admin/tags', { token: sub.token })).status).toBe(200);
    const off = await call(s, 'PATCH', `/api/admin/sub-admins/${sub.id}`, { token: superToken, body: { status: 'disabled' } });
    expect(off.body.result).toMatchObject({ status: 'disabled', liveSessions: 0 });
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: sub.token })).status).toBe(401);
  });

  it('the super admin sets a sub-admin\'s password and ends their sessions', async () => {
    const sub = await makeSubAdmin(s, [], superToken);
    const ended = await call(s, 'POST', `/api/admin/sub-admins/${sub.id}/end-sessions`, { token: superToken });
    expect(ended.body.message).toMatch(/1 session/);
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: sub.token })).status).toBe(401);
    const token2 = await login(s, sub.email, sub.password);
    expect((await call(s, 'POST', `/api/admin/sub-admins/${sub.id}/set-password`, { token: superToken, body: { password: 'password123' } })).status).toBe(400);
    expect((await call(s, 'POST', `/api/admin/sub-admins/${sub.id}/set-password`, { token: superToken, body: { password: 'Brand-New-Pass-9' } })).status).toBe(200);
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: token2 })).status).toBe(401);
    await login(s, sub.email, 'Brand-New-Pass-9');
  });

  it('bulk disable refuses nothing silently and is audited per admin', async () => {
    const a = await makeSubAdmin(s, [], superToken);
    const b = await makeSubAdmin(s, [], superToken);
    const res = await call(s, 'POST', '/api/admin/sub-admins/bulk', { token: superToken, body: { action: 'status', status: 'disabled', ids: [a.id, b.id] } });
    expect(res.body.result.affected).toBe(2);
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: a.token })).status).toBe(401);
    expect((await call(s, 'POST', '/api/admin/sub-admins/bulk', { token: superToken, body: { action: 'delete', ids: [a.id] } })).status).toBe(400);
    const entries = await s.database.db.select().from(auditLog).where(eq(auditLog.resource, 'sub-admins'));
    expect(entries.filter((e) => e.action === 'update' && (e.recordId === a.id || e.recordId === b.id))).toHaveLength(2);
  });

  it('lists one sub-admin\'s sign-ins by their id (the child list of their page)', async () => {
    const one = await makeSubAdmin(s, [], superToken);
    const other = await makeSubAdmin(s, [], superToken);
    await login(s, one.email, one.password);
    const res = await call(s, 'GET', '/api/admin/sub-admin-logins', { token: superToken, query: { adminId: one.id } });
    expect(res.body.result.total).toBe(2);
    expect(res.body.result.items.every((i: { email: string }) => i.email === one.email)).toBe(true);
    expect((await call(s, 'GET', '/api/admin/sub-admin-logins', { token: superToken, query: { adminId: other.id } })).body.result.total).toBe(1);
  });

  it('sub-admin login history lists only sub-admins\' attempts and filters them', async () => {
    const sub = await makeSubAdmin(s, [], superToken);
    await call(s, 'POST', '/api/admin/login', { body: { email: sub.email, password: 'wrong-password' }, ip: '10.9.9.9' });
    const res = await call(s, 'GET', '/api/admin/sub-admin-logins', { token: superToken, query: { email: sub.email } });
    expect(res.body.result.items.map((i: { success: boolean }) => i.success)).toEqual([false, true]);
    expect((await call(s, 'GET', '/api/admin/sub-admin-logins', { token: superToken, query: { email: sub.email.toUpperCase() } })).body.result.total).toBe(2);
    const failures = await call(s, 'GET', '/api/admin/sub-admin-logins', { token: superToken, query: { success: 'false', ip: '10.9.9.9' } });
    expect(failures.body.result.total).toBe(1);
    const all = await call(s, 'GET', '/api/admin/sub-admin-logins', { token: superToken, query: { limit: '200' } });
    expect(all.body.result.items.some((i: { email: string }) => i.email === 'root@pitboss.test')).toBe(false);
  });
});

describe('permission catalogue', () => {
  it('is seeded from the route table: one module per group, one sub module per restriction name', async () => {
    const mods = await call(s, 'GET', '/api/admin/modules', { token: superToken, query: { limit: '100' } });
    expect(mods.body.result.items.map((m: { name: string }) => m.name)).toContain('Admin controller');
    const subs = await call(s, 'GET', '/api/admin/sub-modules', { token: superToken, query: { limit: '100', q: 'Ip Address' } });
    expect(subs.body.result.items[0]).toMatchObject({ name: 'Ip Address', moduleName: 'Admin Settings', pages: ['/ip-address', '/add-block-ip', '/update-block-ip/{id}'] });
    const viewer = await makeSubAdmin(s, [{ name: 'Sub Admin', canView: true, canEdit: false }], superToken);
    const catalogue = await call(s, 'GET', '/api/admin/permission-catalogue', { token: viewer.token });
    expect(catalogue.body.result.groups.find((g: { module: string }) => g.module === 'Card').names).toEqual(['CardTier', 'Category', 'Character']);
    const card = mods.body.result.items.find((m: { name: string }) => m.name === 'Card');
    const byModule = await call(s, 'GET', '/api/admin/sub-modules', { token: superToken, query: { moduleId: card._id, limit: '100' } });
    expect(byModule.body.result.items.map((i: { name: string }) => i.name).sort()).toEqual(['CardTier', 'Category', 'Character']);
    expect(byModule.body.result.total).toBe(3);
    const badName = await call(s, 'POST', '/api/admin/sub-modules', { token: superToken, body: { name: 'Invented', moduleId: mods.body.result.items[0]._id } });
    expect(badName.status).toBe(400);
    const taken = await call(s, 'POST', '/api/admin/sub-modules', { token: superToken, body: { name: 'FAQ', moduleId: mods.body.result.items[0]._id } });
    expect(taken.status).toBe(409);
    // The module is a reference: a missing one is a 400 on the field, not a foreign-key error.
    const noModule = await call(s, 'POST', '/api/admin/sub-modules', { token: superToken, body: { name: 'FAQ', moduleId: '999999' } });
    expect(noModule.status).toBe(400);
    expect(noModule.body.errors).toEqual({ moduleId: 'No module with id 999999' });
    const moveToNowhere = await call(s, 'PATCH', `/api/admin/sub-modules/${subs.body.result.items[0]._id}`, { token: superToken, body: { moduleId: '999999' } });
    expect(moveToNowhere.status).toBe(400);
    expect(moveToNowhere.body.errors.moduleId).toBe('No module with id 999999');
    // A reference filter takes an id, nothing else.
    expect((await call(s, 'GET', '/api/admin/sub-modules', { token: superToken, query: { moduleId: 'card' } })).status).toBe(400);
    const inUse = await call(s, 'DELETE', `/api/admin/modules/${mods.body.result.items[0]._id}`, { token: superToken });
    expect(inUse.status).toBe(409);
  });
});

describe('block IP', () => {
  it('normalises addresses and ranges and refuses duplicates', async () => {
    const one = await call(s, 'POST', '/api/admin/blocked-ips', { token: superToken, body: { address: '203.0.113.7', reason: 'Scraper' } });
    expect(one.body.result).toMatchObject({ address: '203.0.113.7/32', reason: 'Scraper', createdByEmail: 'root@pitboss.test' });
    const range = await call(s, 'POST', '/api/admin/blocked-ips', { token: superToken, body: { address: '198.51.100.77/24' } });
    expect(range.body.result.address).toBe('198.51.100.0/24');
    const v6 = await call(s, 'POST', '/api/admin/blocked-ips', { token: superToken, body: { address: '2001:DB8::1/32' } });
    expect(v6.body.result.address).toBe('2001:db8::/32');
    expect((await call(s, 'POST', '/api/admin/blocked-ips', { token: superToken, body: { address: '203.0.113.7/32' } })).status).toBe(409);
    expect((await call(s, 'POST', '/api/admin/blocked-ips', { token: superToken, body: { address: '999.1.1.1' } })).body.errors.address).toBeDefined();
  });

  it('refuses every API request from a blocked address with 403', async () => {
    const blocked = await call(s, 'GET', '/api/admin/getadmindetail', { token: superToken, ip: '198.51.100.20' });
    expect(blocked.status).toBe(403);
    expect(blocked.body).toMatchObject({ success: false, code: 'BLOCKED_IP' });
    expect((await call(s, 'POST', '/api/admin/login', { body: { email: 'a@b.co', password: 'x' }, ip: '::ffff:203.0.113.7' })).status).toBe(403);
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: superToken, ip: '2001:db8:1::5' })).status).toBe(403);
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: superToken, ip: '198.51.101.1' })).status).toBe(200);
  });

  it('needs an explicit confirmation to block a range containing your own address; unblocking lets you back in', async () => {
    const ask = await call(s, 'POST', '/api/admin/blocked-ips', { token: superToken, body: { address: '10.77.0.0/16' }, ip: '10.77.1.2' });
    expect(ask.status).toBe(409);
    expect(ask.body).toMatchObject({ code: 'CONFIRM_REQUIRED', errors: { address: expect.stringContaining('10.77.1.2') } });
    const list = await call(s, 'GET', '/api/admin/blocked-ips', { token: superToken, query: { q: '10.77' } });
    expect(list.body.result.total).toBe(0);
    const confirmed = await call(s, 'POST', '/api/admin/blocked-ips', { token: superToken, body: { address: '10.77.0.0/16', confirm: true }, ip: '10.77.1.2' });
    expect(confirmed.status).toBe(200);
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: superToken, ip: '10.77.1.2' })).status).toBe(403);
    expect((await call(s, 'DELETE', `/api/admin/blocked-ips/${confirmed.body.result._id}`, { token: superToken })).status).toBe(200);
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: superToken, ip: '10.77.1.2' })).status).toBe(200);
  });
});

describe('block IP by a sub-admin', () => {
  it('cannot block ranges wider than /16 or /32, and the refusal is audited', async () => {
    const sub = await makeSubAdmin(s, [{ name: 'Ip Address', canView: true, canEdit: true }], superToken);
    const wide = await call(s, 'POST', '/api/admin/blocked-ips', { token: sub.token, body: { address: '0.0.0.0/0', confirm: true } });
    expect(wide.status).toBe(403);
    expect((await call(s, 'POST', '/api/admin/blocked-ips', { token: sub.token, body: { address: '::/0', confirm: true } })).status).toBe(403);
    expect((await call(s, 'POST', '/api/admin/blocked-ips', { token: sub.token, body: { address: '192.0.2.0/24' } })).status).toBe(200);
    const denied = await s.database.db.select().from(auditLog).where(eq(auditLog.adminEmail, sub.email));
    expect(denied.filter((d) => d.action === 'denied')).toHaveLength(2);
  });

  it('an empty update writes nothing, not even an audit entry', async () => {
    const created = await call(s, 'POST', '/api/admin/tags', { token: superToken, body: { name: 'Quiet tag' } });
    const before = (await s.database.db.select().from(auditLog)).length;
    const res = await call(s, 'PATCH', `/api/admin/tags/${created.body.result._id}`, { token: superToken, body: {} });
    expect(res.status).toBe(200);
    expect((await s.database.db.select().from(auditLog)).length).toBe(before);
  });
});

describe('wallets', () => {
  it('accept only Solana public keys, unique per list', async () => {
    const addr = 'So11111111111111111111111111111111111111112';
    expect((await call(s, 'POST', '/api/admin/blocked-wallets', { token: superToken, body: { address: addr, label: 'Wrapped SOL', reason: 'test' } })).status).toBe(200);
    expect((await call(s, 'POST', '/api/admin/blocked-wallets', { token: superToken, body: { address: addr } })).status).toBe(409);
    const both = await call(s, 'POST', '/api/admin/whitelist-wallets', { token: superToken, body: { address: addr } });
    expect(both.status).toBe(409);
    expect(both.body.errors.address).toMatch(/block list/);
    const other = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
    expect((await call(s, 'POST', '/api/admin/whitelist-wallets', { token: superToken, body: { address: other } })).status).toBe(200);
    const bad = await call(s, 'POST', '/api/admin/whitelist-wallets', { token: superToken, body: { address: '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.address).toMatch(/Solana/);
  });
});

describe('archive (support categories)', () => {
  it('delete archives: the row leaves the list, stays readable, can be restored, and each step is audited', async () => {
    const c = await call(s, 'POST', '/api/admin/support-categories', { token: superToken, body: { name: 'Refunds' } });
    const id = c.body.result._id;
    expect((await call(s, 'DELETE', `/api/admin/support-categories/${id}`, { token: superToken })).body.message).toMatch(/archived/);
    const live = await call(s, 'GET', '/api/admin/support-categories', { token: superToken, query: { q: 'Refunds' } });
    expect(live.body.result.total).toBe(0);
    const archived = await call(s, 'GET', '/api/admin/support-categories', { token: superToken, query: { q: 'Refunds', archived: 'true' } });
    expect(archived.body.result.items[0]).toMatchObject({ _id: id, archivedAt: expect.any(String) });
    expect((await call(s, 'GET', '/api/admin/support-categories', { token: superToken, query: { q: 'Refunds', archived: 'true,false' } })).body.result.total).toBe(1);
    expect((await call(s, 'GET', `/api/admin/support-categories/${id}`, { token: superToken })).status).toBe(200);
    const restored = await call(s, 'POST', `/api/admin/support-categories/${id}/restore`, { token: superToken });
    expect(restored.body.result.archivedAt).toBeNull();
    expect((await call(s, 'GET', '/api/admin/support-categories', { token: superToken, query: { q: 'Refunds' } })).body.result.total).toBe(1);
    const trail = await call(s, 'GET', '/api/admin/audit-log', { token: superToken, query: { resource: 'support-categories', recordId: id } });
    expect(trail.body.result.items.map((i: { action: string }) => i.action)).toEqual(['restore', 'archive', 'create']);
    const bulk = await call(s, 'POST', '/api/admin/support-categories/bulk', { token: superToken, body: { action: 'delete', ids: [id] } });
    expect(bulk.body.message).toMatch(/archived/);
    expect((await call(s, 'GET', `/api/admin/support-categories/${id}`, { token: superToken })).body.result.archivedAt).not.toBeNull();
  });
});

describe('tags and support categories', () => {
  it('make a slug from the name and refuse duplicates case-insensitively', async () => {
    const t = await call(s, 'POST', '/api/admin/tags', { token: superToken, body: { name: 'Élection Night' } });
    expect(t.body.result.slug).toBe('election-night');
    expect((await call(s, 'POST', '/api/admin/tags', { token: superToken, body: { name: 'élection night' } })).status).toBe(409);
    const c = await call(s, 'POST', '/api/admin/support-categories', { token: superToken, body: { name: 'Payments', sortOrder: 2 } });
    expect(c.status).toBe(200);
    expect((await call(s, 'POST', '/api/admin/support-categories', { token: superToken, body: { name: 'PAYMENTS' } })).body.errors.name).toBeDefined();
  });
});

