import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, loginHistory, mailOutbox } from '../../db/schema.js';
import { call, login, makeSubAdmin, startTestServer, SUPER_EMAIL, superLogin, type TestServer } from '../../../test/helpers.js';
import { SessionAddressCache } from './sessions.js';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IOS = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1';
// Addresses checked in the bundled DB-IP country database.
const US = '8.8.8.8';
const GB = '81.2.69.142';
const FR = '193.51.24.1';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ TRUST_PROXY: '' });
});
afterAll(async () => {
  await s?.close();
});

async function signIn(email: string, password: string, ip: string, userAgent = CHROME_WINDOWS): Promise<string> {
  const res = await call(s, 'POST', '/api/admin/login', { body: { email, password }, ip, headers: { 'user-agent': userAgent } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result.token as string;
}

const mailsTo = async (email: string) => {
  await s.idle();
  return s.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.templateKey, 'new_sign_in_country')));
};

describe('located sign-ins', () => {
  it('stores the country of a public address on the attempt and shows it with the device', async () => {
    const sub = await makeSubAdmin(s, []);
    const token = await signIn(sub.email, sub.password, US);
    const rows = await s.database.db.select().from(loginHistory).where(and(eq(loginHistory.email, sub.email), eq(loginHistory.ip, US)));
    expect(rows[0]).toMatchObject({ countryCode: 'US', success: true });
    const own = await call(s, 'GET', '/api/admin/loginHistory', { token });
    expect(own.status).toBe(200);
    const item = own.body.result.items.find((i: { ip: string }) => i.ip === US);
    expect(item).toMatchObject({ location: 'United States', countryCode: 'US', device: 'Chrome 131 on Windows 10' });
    // The super admin sees the same on the sub-admins' login history.
    const all = await call(s, 'GET', '/api/admin/sub-admin-logins', { token: await superLogin(s), query: { email: sub.email } });
    expect(all.body.result.items.find((i: { ip: string }) => i.ip === US)).toMatchObject({ location: 'United States', device: 'Chrome 131 on Windows 10' });
  });

  it('says so for loopback and private addresses', async () => {
    const sub = await makeSubAdmin(s, []); // signed in from 127.0.0.1
    const token = await signIn(sub.email, sub.password, '192.168.10.20', SAFARI_IOS);
    const own = await call(s, 'GET', '/api/admin/loginHistory', { token });
    const byIp = Object.fromEntries(own.body.result.items.map((i: { ip: string; location: string; device: string }) => [i.ip, i]));
    expect(byIp['127.0.0.1']).toMatchObject({ location: 'This machine', countryCode: null });
    expect(byIp['192.168.10.20']).toMatchObject({ location: 'Private network', countryCode: null, device: 'Safari 17 on iOS 17.2' });
  });

  it('mails the admin once for a new country, not for the first sign-in nor a known country', async () => {
    const sub = await makeSubAdmin(s, []); // first sign-in: loopback, not located
    await signIn(sub.email, sub.password, US); // first located sign-in: nothing to compare with
    expect(await mailsTo(sub.email)).toHaveLength(0);
    await signIn(sub.email, sub.password, US); // a known country
    expect(await mailsTo(sub.email)).toHaveLength(0);
    await signIn(sub.email, sub.password, GB); // new: mail
    const mails = await mailsTo(sub.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('United Kingdom');
    expect(mails[0]!.text).toContain(GB);
    expect(s.mail.filter((m) => m.to === sub.email && m.subject.includes('United Kingdom'))).toHaveLength(1);
    await signIn(sub.email, sub.password, GB); // now known
    await signIn(sub.email, sub.password, '10.9.9.9'); // not located
    expect(await mailsTo(sub.email)).toHaveLength(1);
  });

  it('does not count failed attempts as known countries', async () => {
    const sub = await makeSubAdmin(s, []);
    await signIn(sub.email, sub.password, US);
    expect((await call(s, 'POST', '/api/admin/login', { body: { email: sub.email, password: 'not-the-password' }, ip: FR })).status).toBe(401);
    await signIn(sub.email, sub.password, FR);
    expect((await mailsTo(sub.email)).map((m) => m.subject)).toEqual([expect.stringContaining('France')]);
  });
});

describe('sessions', () => {
  it('lists my live sessions with device, address and location, this one marked', async () => {
    const sub = await makeSubAdmin(s, []);
    const phone = await signIn(sub.email, sub.password, US, SAFARI_IOS);
    const res = await call(s, 'GET', '/api/admin/sessions', { token: phone });
    expect(res.status).toBe(200);
    const items = res.body.result.items as { _id: string; current: boolean; device: string; ip: string; location: string; startedAt: string; lastSeenAt: string }[];
    expect(items).toHaveLength(2);
    expect(items.filter((i) => i.current)).toHaveLength(1);
    expect(items.find((i) => i.current)).toMatchObject({ device: 'Safari 17 on iOS 17.2', ip: US, location: 'United States' });
    expect(items.find((i) => !i.current)).toMatchObject({ ip: '127.0.0.1', location: 'This machine' });
  });

  it('ends one of my sessions: that token stops working, mine goes on; it is audited', async () => {
    const sub = await makeSubAdmin(s, []);
    const other = await signIn(sub.email, sub.password, GB);
    const list = await call(s, 'GET', '/api/admin/sessions', { token: sub.token });
    const target = list.body.result.items.find((i: { current: boolean }) => !i.current) as { _id: string; ip: string };
    expect(target.ip).toBe(GB);
    const ended = await call(s, 'DELETE', `/api/admin/sessions/${target._id}`, { token: sub.token });
    expect(ended.status).toBe(200);
    expect((await call(s, 'GET', '/api/admin/profile', { token: other })).status).toBe(401);
    expect((await call(s, 'GET', '/api/admin/profile', { token: sub.token })).status).toBe(200);
    const audit = await s.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'end_session'), eq(auditLog.recordId, sub.id)));
    expect(audit).toHaveLength(1);
    // Ending it again, or this session, is refused.
    expect((await call(s, 'DELETE', `/api/admin/sessions/${target._id}`, { token: sub.token })).status).toBe(404);
    const mine = (await call(s, 'GET', '/api/admin/sessions', { token: sub.token })).body.result.items.find((i: { current: boolean }) => i.current);
    expect((await call(s, 'DELETE', `/api/admin/sessions/${mine._id}`, { token: sub.token })).status).toBe(400);
  });

  it('cannot end another admin\'s session through my own list', async () => {
    const a = await makeSubAdmin(s, []);
    const b = await makeSubAdmin(s, []);
    const bSession = (await call(s, 'GET', '/api/admin/sessions', { token: b.token })).body.result.items[0]._id;
    expect((await call(s, 'DELETE', `/api/admin/sessions/${bSession}`, { token: a.token })).status).toBe(404);
    expect((await call(s, 'GET', '/api/admin/profile', { token: b.token })).status).toBe(200);
  });

  it('ends all my other sessions and keeps mine', async () => {
    const sub = await makeSubAdmin(s, []);
    const t2 = await login(s, sub.email, sub.password, '10.0.0.2');
    const t3 = await login(s, sub.email, sub.password, '10.0.0.3');
    const res = await call(s, 'POST', '/api/admin/sessions/end-others', { token: t3 });
    expect(res.status).toBe(200);
    expect(res.body.result.ended).toBe(2);
    expect((await call(s, 'GET', '/api/admin/profile', { token: sub.token })).status).toBe(401);
    expect((await call(s, 'GET', '/api/admin/profile', { token: t2 })).status).toBe(401);
    const left = await call(s, 'GET', '/api/admin/sessions', { token: t3 });
    expect(left.body.result.items).toHaveLength(1);
    expect(left.body.result.items[0].current).toBe(true);
  });

  it('a sub-admin cannot list or end another admin\'s sessions; the super admin can, audited', async () => {
    const victim = await makeSubAdmin(s, []);
    const nosy = await makeSubAdmin(s, []);
    const peer = await makeSubAdmin(s, [{ name: 'Sub Admin', canView: true, canEdit: true }]);
    const victimSession = (await call(s, 'GET', '/api/admin/sessions', { token: victim.token })).body.result.items[0]._id;
    for (const who of [nosy, peer]) {
      expect((await call(s, 'GET', `/api/admin/sub-admins/${victim.id}/sessions`, { token: who.token })).status).toBe(403);
      expect((await call(s, 'DELETE', `/api/admin/sub-admins/${victim.id}/sessions/${victimSession}`, { token: who.token })).status).toBe(403);
    }
    expect((await call(s, 'GET', '/api/admin/profile', { token: victim.token })).status).toBe(200);

    const boss = await superLogin(s);
    const list = await call(s, 'GET', `/api/admin/sub-admins/${victim.id}/sessions`, { token: boss });
    expect(list.status).toBe(200);
    expect(list.body.result.items).toHaveLength(1);
    expect(list.body.result.items[0]).toMatchObject({ _id: victimSession, current: false, location: 'This machine' });
    // A session of someone else given under this admin's id is not found.
    const nosySession = (await call(s, 'GET', '/api/admin/sessions', { token: nosy.token })).body.result.items[0]._id;
    expect((await call(s, 'DELETE', `/api/admin/sub-admins/${victim.id}/sessions/${nosySession}`, { token: boss })).status).toBe(404);
    const end = await call(s, 'DELETE', `/api/admin/sub-admins/${victim.id}/sessions/${victimSession}`, { token: boss });
    expect(end.status).toBe(200);
    expect((await call(s, 'GET', '/api/admin/profile', { token: victim.token })).status).toBe(401);
    expect((await call(s, 'GET', '/api/admin/profile', { token: nosy.token })).status).toBe(200);
    const audit = await s.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'end_session'), eq(auditLog.recordId, victim.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ resource: 'sub-admins', adminEmail: SUPER_EMAIL });
    expect((await call(s, 'GET', `/api/admin/sub-admins/${victim.id}/sessions`, { token: boss })).body.result.items).toHaveLength(0);
  });

  it('refuses a malformed session id with a 400', async () => {
    const sub = await makeSubAdmin(s, []);
    expect((await call(s, 'DELETE', '/api/admin/sessions/abc', { token: sub.token })).status).toBe(400);
  });
});

describe('the addresses a session is used from', () => {
  it('are written again once their record is a touch interval old, so an address in use never ages out of the 30 days', () => {
    const cache = new SessionAddressCache(3);
    const t0 = 1_000_000;
    expect(cache.isFresh(1, '203.0.113.5', 60_000, t0)).toBe(false);
    cache.recorded(1, '203.0.113.5', t0);
    expect(cache.isFresh(1, '203.0.113.5', 60_000, t0 + 59_999)).toBe(true);
    // Another address of the same session, or the same address of another session, is new.
    expect(cache.isFresh(1, '198.51.100.7', 60_000, t0 + 1)).toBe(false);
    expect(cache.isFresh(2, '203.0.113.5', 60_000, t0 + 1)).toBe(false);
    // A touch interval later the pair is written again, whatever the session's own touches did.
    expect(cache.isFresh(1, '203.0.113.5', 60_000, t0 + 60_000)).toBe(false);
    // Bounded: when full, it forgets everything (the next request of each pair writes once more).
    cache.recorded(2, 'a', t0);
    cache.recorded(3, 'b', t0);
    cache.recorded(4, 'c', t0);
    expect(cache.isFresh(1, '203.0.113.5', 60_000, t0 + 1)).toBe(false);
    expect(cache.isFresh(4, 'c', 60_000, t0 + 1)).toBe(true);
  });
});
