import type { RestrictionEntry } from '@pitboss/contract';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { adminSessions, faqs, mailOutbox, type supportCategories, tags } from '../src/db/schema.js';
import { createMailer } from '../src/mail/mailer.js';
import { hashToken } from '../src/lib/tokens.js';
import { call, login, makeSubAdmin, serverFile, startTestServer, SUPER_EMAIL, SUPER_PASSWORD, superLogin, type TestServer } from './helpers.js';

/**
 * The eight findings of the outside probe, each reproduced as it was reported. Every test here
 * failed before its fix.
 */
let s: TestServer;
let superToken: string;
serverFile((m) => ({ s, token: superToken } = m));

const count = async (table: typeof faqs | typeof tags | typeof supportCategories) => (await s.database.db.select().from(table)).length;

describe('1. a percent-encoded path is the route it decodes to, with all its checks', () => {
  it('refuses anonymous reads and writes through /%61pi and /ap%69', async () => {
    for (const url of ['/%61pi/admin/sub-admins', '/ap%69/admin/sub-admins/export', '/%61pi/admin/audit-log', '/%61pi/admin/getSiteSetting', '/%61pi/admin/faqs', '/%61pi/admin/getadmindetail']) {
      const res = await call(s, 'GET', url);
      expect(res.status, url).toBe(401);
      expect(res.body).toMatchObject({ success: false });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const before = await count(faqs);
    const post = await call(s, 'POST', '/%61pi/admin/faqs', { body: { question: 'Sneaky?', answer: '<p>x</p>' } });
    expect(post.status).toBe(401);
    expect(await count(faqs)).toBe(before);
    expect((await call(s, 'POST', '/%61pi/admin/faqs/bulk', { body: { action: 'delete', query: {} } })).status).toBe(401);
    expect((await call(s, 'DELETE', '/%61pi/admin/blocked-ips/1')).status).toBe(401);
    expect((await call(s, 'PATCH', '/%61pi/admin/whitelist-wallets/1', { body: {} })).status).toBe(401);
  });

  it('applies the rights and the blocked-IP check too, and serves a signed-in admin normally', async () => {
    const viewer = await makeSubAdmin(s, [{ name: 'FAQ', canView: true, canEdit: false }], superToken);
    expect((await call(s, 'POST', '/%61pi/admin/faqs', { token: viewer.token, body: { question: 'Sneaky?', answer: '<p>x</p>' } })).status).toBe(403);
    const me = await call(s, 'GET', '/%61pi/admin/getadmindetail', { token: viewer.token });
    expect(me.status).toBe(200);
    expect(me.body.result.email).toBe(viewer.email);
    const block = await call(s, 'POST', '/api/admin/blocked-ips', { token: superToken, body: { address: '192.0.2.66' } });
    expect(block.status).toBe(200);
    const blocked = await call(s, 'GET', '/%61pi/admin/faqs', { token: superToken, ip: '192.0.2.66' });
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe('BLOCKED_IP');
    expect((await call(s, 'DELETE', `/api/admin/blocked-ips/${block.body.result._id}`, { token: superToken })).status).toBe(200);
  });

  it('answers a JSON refusal for an API path however it is spelled, never the app page', async () => {
    for (const url of ['/API/admin/nothing', '/%41PI/admin/x', '//api/admin/sub-admins', '/api;x=1/admin/sub-admins', '/x/%2e%2e/api/admin/sub-admins']) {
      const res = await call(s, 'GET', url);
      expect([401, 404], url).toContain(res.status);
      expect(res.body, url).toMatchObject({ success: false });
    }
  });
});

describe('2. control characters are refused at validation with the field', () => {
  it('in search, filters, cursors, bulk queries and bodies', async () => {
    const cursor = Buffer.from(JSON.stringify(['a\u0000', '5'])).toString('base64url');
    const cases: [string, string, unknown, string][] = [
      ['GET', '/api/admin/faqs?q=a%00b', undefined, 'q'],
      ['GET', '/api/admin/faqs?category=x%00y', undefined, 'category'],
      ['GET', '/api/admin/audit-log?adminEmail=a%00b', undefined, 'adminEmail'],
      ['GET', '/api/admin/sub-admin-logins?ip=1%00', undefined, 'ip'],
      ['GET', `/api/admin/audit-log?cursor=${cursor}`, undefined, 'cursor'],
      ['POST', '/api/admin/faqs/bulk', { action: 'delete', query: { q: 'a\u0000b' } }, 'query.q'],
      ['POST', '/api/admin/tags', { name: 'nul\u0000byte' }, 'name'],
      ['PUT', '/api/admin/profile', { name: 'Root\u0000', email: SUPER_EMAIL }, 'name'],
      ['POST', '/api/admin/tags', { name: 'bell\u0007' }, 'name'],
      ['POST', '/api/admin/tags', { name: 'lone \ud800 surrogate' }, 'name'],
    ];
    const tagsBefore = await count(tags);
    for (const [method, url, body, field] of cases) {
      const res = await call(s, method, url, { token: superToken, body });
      expect(res.status, `${method} ${url}`).toBe(400);
      expect(res.body.errors?.[field], `${method} ${url}`).toBeDefined();
    }
    expect(await count(tags)).toBe(tagsBefore);
    // Line breaks and tabs are text: a multi-line FAQ answer is fine.
    const ok = await call(s, 'POST', '/api/admin/faqs', { token: superToken, body: { question: 'Multi-line?', answer: '<p>one</p>\n\t<p>two</p>' } });
    expect(ok.status).toBe(200);
  });
});

describe('3. JSON bodies are typed: nothing is coerced', () => {
  it('refuses booleans, arrays and null for numbers, and writes nothing', async () => {
    const before = await count(faqs);
    for (const sortOrder of [true, [], null, [7], '7']) {
      const res = await call(s, 'POST', '/api/admin/faqs', { token: superToken, body: { question: 'abc', answer: '<p>x</p>', sortOrder } });
      expect(res.status, JSON.stringify(sortOrder)).toBe(400);
      expect(res.body.errors.sortOrder).toBeDefined();
      const cat = await call(s, 'POST', '/api/admin/support-categories', { token: superToken, body: { name: 'Typed', sortOrder } });
      expect(cat.status, JSON.stringify(sortOrder)).toBe(400);
      const mod = await call(s, 'POST', '/api/admin/modules', { token: superToken, body: { name: 'Typed', sortOrder } });
      expect(mod.status, JSON.stringify(sortOrder)).toBe(400);
    }
    expect(await count(faqs)).toBe(before);
    // Query strings are text and are still read as numbers.
    expect((await call(s, 'GET', '/api/admin/faqs?page=1&limit=5', { token: superToken })).status).toBe(200);
  });
});

describe('4. guessable passwords are refused everywhere a password is chosen', () => {
  const weak = ['football', 'sunshine', 'princess', 'superman', 'trustno1', 'qazwsxedc', 'Password1!', 'P@ssw0rd1', 'Welcome@123', 'Summer2024!'];
  it('on a sub-admin password, a new sub-admin, and one\'s own change', async () => {
    const target = await makeSubAdmin(s, [], superToken);
    for (const password of weak) {
      const res = await call(s, 'POST', `/api/admin/sub-admins/${target.id}/set-password`, { token: superToken, body: { password } });
      expect(res.status, password).toBe(400);
      expect(res.body.errors.password, password).toBeTruthy();
    }
    const created = await call(s, 'POST', '/api/admin/sub-admins', { token: superToken, body: { name: 'Weak Pw', email: 'weakpw@pitboss.test', password: 'P@ssw0rd1' } });
    expect(created.status).toBe(400);
    const own = await call(s, 'POST', '/api/admin/changePassword', { token: target.token, body: { currentPassword: target.password, newPassword: 'Password1!', confirmPassword: 'Password1!' } });
    expect(own.status).toBe(400);
    expect(own.body.errors.newPassword).toBeTruthy();
    // The account's own name or email is guessable too.
    const named = await call(s, 'POST', '/api/admin/sub-admins', { token: superToken, body: { name: 'Zebulon Quartz', email: 'zebulon@pitboss.test', password: 'zebulonquartz' } });
    expect(named.status).toBe(400);
    // A passphrase passes.
    expect((await call(s, 'POST', `/api/admin/sub-admins/${target.id}/set-password`, { token: superToken, body: { password: 'Velvet-Otter-Harbour-62' } })).status).toBe(200);
  });
});

describe('5. no lower admin can lock a higher one out by blocking their address', () => {
  it('refuses a sub-admin a range holding a super admin\'s recent sign-in address, and asks the super admin to confirm', async () => {
    await login(s, SUPER_EMAIL, SUPER_PASSWORD, '198.51.100.7');
    const blocker = await makeSubAdmin(s, [{ name: 'Ip Address', canView: true, canEdit: true }], superToken);
    for (const address of ['198.51.100.7', '198.51.100.0/24', '::ffff:198.51.100.7']) {
      const res = await call(s, 'POST', '/api/admin/blocked-ips', { token: blocker.token, body: { address, confirm: true } });
      expect(res.status, address).toBe(403);
      expect(res.body.message).toContain('198.51.100.7');
      expect(res.body.message).toContain('30 days');
    }
    // Changing an existing block to cover the address is refused the same way.
    const harmless = await call(s, 'POST', '/api/admin/blocked-ips', { token: blocker.token, body: { address: '203.0.113.9' } });
    expect(harmless.status).toBe(200);
    expect((await call(s, 'PATCH', `/api/admin/blocked-ips/${harmless.body.result._id}`, { token: blocker.token, body: { address: '198.51.100.7', confirm: true } })).status).toBe(403);
    // Even the super admin confirms before blocking a super admin's recent address.
    const ask = await call(s, 'POST', '/api/admin/blocked-ips', { token: superToken, body: { address: '198.51.100.0/24' } });
    expect(ask.status).toBe(409);
    expect(ask.body.code).toBe('CONFIRM_REQUIRED');
    expect(ask.body.message).toContain('198.51.100.7');
    const done = await call(s, 'POST', '/api/admin/blocked-ips', { token: superToken, body: { address: '198.51.100.0/24', confirm: true } });
    expect(done.status).toBe(200);
    await call(s, 'DELETE', `/api/admin/blocked-ips/${done.body.result._id}`, { token: superToken });
  });

  it('protects every address a higher admin used in a session, not only where they signed in (a laptop moving networks)', async () => {
    // The super admin signs in from one address, then works from another with the same session.
    const token = await login(s, SUPER_EMAIL, SUPER_PASSWORD, '198.51.100.30');
    const blocker = await makeSubAdmin(s, [{ name: 'Ip Address', canView: true, canEdit: true }], superToken);
    // Before the session is used from it, the second address is nobody's: the sub-admin could block it.
    const probe = await call(s, 'POST', '/api/admin/blocked-ips', { token: blocker.token, body: { address: '203.0.113.0/28' } });
    expect(probe.status).toBe(200);
    expect((await call(s, 'DELETE', `/api/admin/blocked-ips/${probe.body.result._id}`, { token: superToken })).status).toBe(200);
    // One request from the new address records it at once.
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token, ip: '203.0.113.5' })).status).toBe(200);
    for (const address of ['203.0.113.5', '203.0.113.0/28', '::ffff:203.0.113.5']) {
      const refused = await call(s, 'POST', '/api/admin/blocked-ips', { token: blocker.token, body: { address, confirm: true } });
      expect(refused.status, address).toBe(403);
      expect(refused.body.message).toContain('203.0.113.5');
      expect(refused.body.message).toContain(SUPER_EMAIL);
    }
    // The super admin still works from there.
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token, ip: '203.0.113.5' })).status).toBe(200);
    // A super admin's own block of it still asks for the confirmation, naming it.
    const ask = await call(s, 'POST', '/api/admin/blocked-ips', { token: superToken, body: { address: '203.0.113.5' } });
    expect(ask.status).toBe(409);
    expect(ask.body.code).toBe('CONFIRM_REQUIRED');
    expect(ask.body.message).toContain('203.0.113.5');
    // A third address used for the first time is protected from its first request too, in the same session.
    expect((await call(s, 'GET', '/api/admin/faqs', { token, ip: '192.0.2.140' })).status).toBe(200);
    expect((await call(s, 'POST', '/api/admin/blocked-ips', { token: blocker.token, body: { address: '192.0.2.140', confirm: true } })).status).toBe(403);
    // An address of a session older than the window no longer counts.
    await s.database.db.execute(sql`update admin_session_addresses set first_seen_at = now() - interval '40 days', last_seen_at = now() - interval '31 days' where ip = '192.0.2.140'`);
    const old = await call(s, 'POST', '/api/admin/blocked-ips', { token: blocker.token, body: { address: '192.0.2.140' } });
    expect(old.status).toBe(200);
    expect((await call(s, 'DELETE', `/api/admin/blocked-ips/${old.body.result._id}`, { token: superToken })).status).toBe(200);
  });

  it('lets a sub-admin block the address of an admin with no more rights than theirs', async () => {
    const blocker = await makeSubAdmin(s, [{ name: 'Ip Address', canView: true, canEdit: true }, { name: 'FAQ', canView: true, canEdit: true }], superToken);
    const lesser = await makeSubAdmin(s, [{ name: 'FAQ', canView: true, canEdit: false }], superToken);
    const higher = await makeSubAdmin(s, [{ name: 'Users', canView: true, canEdit: true }], superToken);
    await login(s, lesser.email, lesser.password, '192.0.2.10');
    await login(s, higher.email, higher.password, '192.0.2.20');
    expect((await call(s, 'POST', '/api/admin/blocked-ips', { token: blocker.token, body: { address: '192.0.2.10' } })).status).toBe(200);
    const refused = await call(s, 'POST', '/api/admin/blocked-ips', { token: blocker.token, body: { address: '192.0.2.20' } });
    expect(refused.status).toBe(403);
  });
});

describe('6. a sub-admin cannot undo a decision of someone above them', () => {
  it('a puppet cannot re-enable or re-password the sub-admin the super admin disabled', async () => {
    const rights: RestrictionEntry[] = [{ name: 'Sub Admin', canView: true, canEdit: true }];
    const boss = await makeSubAdmin(s, rights, superToken);
    const puppetRes = await call(s, 'POST', '/api/admin/sub-admins', {
      token: boss.token, body: { name: 'Puppet', email: 'puppet-6@pitboss.test', password: 'Puppet-Pass-Lantern-6', restriction: rights },
    });
    expect(puppetRes.status).toBe(200);
    expect(puppetRes.body.result.createdByEmail).toBe(boss.email);
    const puppet = await login(s, 'puppet-6@pitboss.test', 'Puppet-Pass-Lantern-6');
    expect((await call(s, 'PATCH', `/api/admin/sub-admins/${boss.id}`, { token: superToken, body: { status: 'disabled' } })).status).toBe(200);
    const reenable = await call(s, 'PATCH', `/api/admin/sub-admins/${boss.id}`, { token: puppet, body: { status: 'active' } });
    expect(reenable.status).toBe(403);
    const repass = await call(s, 'POST', `/api/admin/sub-admins/${boss.id}/set-password`, { token: puppet, body: { password: 'Brand-New-Lantern-42' } });
    expect(repass.status).toBe(403);
    const bulk = await call(s, 'POST', '/api/admin/sub-admins/bulk', { token: puppet, body: { action: 'status', status: 'active', ids: [boss.id] } });
    expect(bulk.status).toBe(403);
    const record = await call(s, 'GET', `/api/admin/sub-admins/${boss.id}`, { token: superToken });
    expect(record.body.result).toMatchObject({ status: 'disabled', disabledByEmail: SUPER_EMAIL });
    await expect(login(s, boss.email, boss.password)).rejects.toThrow();
  });

  it('a sub-admin manages only the admins below them, and undoes only their own (or their subordinates\') disables', async () => {
    const rights: RestrictionEntry[] = [{ name: 'Sub Admin', canView: true, canEdit: true }];
    const boss = await makeSubAdmin(s, rights, superToken);
    const peer = await makeSubAdmin(s, rights, superToken);
    const made = await call(s, 'POST', '/api/admin/sub-admins', { token: boss.token, body: { name: 'Minion', email: 'minion-6@pitboss.test', password: 'Minion-Pass-Quartz-6', restriction: rights } });
    const minionId = made.body.result._id as string;
    // The creator disables and re-enables their own account's decision.
    expect((await call(s, 'PATCH', `/api/admin/sub-admins/${minionId}`, { token: boss.token, body: { status: 'disabled' } })).status).toBe(200);
    expect((await call(s, 'PATCH', `/api/admin/sub-admins/${minionId}`, { token: boss.token, body: { status: 'active' } })).status).toBe(200);
    // A peer created by someone else can't touch it, nor the creator anyone the super admin made.
    expect((await call(s, 'PATCH', `/api/admin/sub-admins/${minionId}`, { token: peer.token, body: { name: 'Renamed' } })).status).toBe(403);
    expect((await call(s, 'POST', `/api/admin/sub-admins/${peer.id}/end-sessions`, { token: boss.token })).status).toBe(403);
    // The super admin's disable locks the account to super admins, even for its creator.
    expect((await call(s, 'PATCH', `/api/admin/sub-admins/${minionId}`, { token: superToken, body: { status: 'disabled' } })).status).toBe(200);
    const undo = await call(s, 'PATCH', `/api/admin/sub-admins/${minionId}`, { token: boss.token, body: { status: 'active' } });
    expect(undo.status).toBe(403);
    expect(undo.body.message).toMatch(/super admin/);
    expect((await call(s, 'PATCH', `/api/admin/sub-admins/${minionId}`, { token: superToken, body: { status: 'active' } })).status).toBe(200);
  });
});

describe('7. reset links never reach the log', () => {
  it('holds mail in the outbox without SMTP; only a super admin sees the link there', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
    const mailer = createMailer({ db: s.database.db, smtpUrl: undefined, from: 'Pitboss <no-reply@pitboss.test>', log: pino({ level: 'trace' }, sink) });
    const link = 'http://pitboss.test/verification/forgotPassword?token=SECRETTOKEN123456789';
    await s.database.db.transaction((tx) => mailer.enqueueTemplate(tx, { key: 'forgot_password', to: 'held@pitboss.test', vars: { name: 'Held', email: 'held@pitboss.test', link, expiresInMinutes: '30', siteName: 'Pitboss' } }));
    await mailer.deliverPending();
    mailer.close();
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain('SECRETTOKEN');
    const [row] = await s.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'held@pitboss.test'));
    expect(row!.status).toBe('held');
    expect(row!.text).toContain('SECRETTOKEN123456789');

    const asSuper = await call(s, 'GET', `/api/admin/mail-outbox/${row!.id}`, { token: superToken });
    expect(asSuper.status).toBe(200);
    expect(asSuper.body.result.text).toContain('token=SECRETTOKEN123456789');
    const templates = await makeSubAdmin(s, [{ name: 'Email Templates', canView: true, canEdit: true }], superToken);
    const asSub = await call(s, 'GET', `/api/admin/mail-outbox/${row!.id}`, { token: templates.token });
    expect(asSub.status).toBe(200);
    expect(asSub.body.result.text).not.toContain('SECRETTOKEN');
    expect(asSub.body.result.text).toContain('token=[redacted]');
    const list = await call(s, 'GET', '/api/admin/mail-outbox?status=held', { token: templates.token });
    expect(JSON.stringify(list.body.result.items)).not.toContain('SECRETTOKEN');
    const csv = await call(s, 'GET', '/api/admin/mail-outbox/export?status=held', { token: templates.token });
    expect(csv.raw).not.toContain('SECRETTOKEN');
    expect((await call(s, 'GET', '/api/admin/mail-outbox', { token: (await makeSubAdmin(s, [], superToken)).token })).status).toBe(403);
  });
});

describe('8. a session in use never times out at a short idle limit', () => {
  it('with SESSION_IDLE_MINUTES=1, a session used at 50 s still works at 75 s', async () => {
    const short = await startTestServer({ SESSION_IDLE_MINUTES: '1' });
    try {
      const token = await superLogin(short);
      const where = eq(adminSessions.tokenHash, hashToken(token));
      // Signed in 50 s ago, and used now.
      await short.database.db.update(adminSessions).set({ lastSeenAt: sql`now() - interval '50 seconds'` }).where(where);
      expect((await call(short, 'GET', '/api/admin/getadmindetail', { token })).status).toBe(200);
      const [seen] = await short.database.db.select().from(adminSessions).where(where);
      expect(Date.now() - seen!.lastSeenAt.getTime()).toBeLessThan(10_000);
      // 25 s after that use: still live.
      await short.database.db.update(adminSessions).set({ lastSeenAt: sql`now() - interval '25 seconds'` }).where(where);
      expect((await call(short, 'GET', '/api/admin/getadmindetail', { token })).status).toBe(200);
      // Idle past the limit: over.
      await short.database.db.update(adminSessions).set({ lastSeenAt: sql`now() - interval '61 seconds'` }).where(where);
      expect((await call(short, 'GET', '/api/admin/getadmindetail', { token })).status).toBe(401);
    } finally {
      await short.close();
    }
  });
});
