import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSessions, admins, loginHistory, mailOutbox, passwordResets } from '../../db/schema.js';
import { hashToken } from '../../lib/tokens.js';
import { call, login, makeSubAdmin, startTestServer, SUPER_EMAIL, SUPER_PASSWORD, superLogin, type TestServer } from '../../../test/helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const lastResetLink = async (email: string) => {
  await s.idle();
  const [row] = await s.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(sql`id desc`).limit(1);
  const sent = s.mail.filter((m) => m.to === email).at(-1);
  const m = sent ? /token=([A-Za-z0-9_-]+)/.exec(sent.text) : null;
  return { row, sent, token: m ? decodeURIComponent(m[1]!) : null };
};

describe('POST /api/admin/login', () => {
  it('returns a token and the admin for the right password', async () => {
    const res = await call(s, 'POST', '/api/admin/login', { body: { email: SUPER_EMAIL.toUpperCase(), password: SUPER_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.result.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.result.admin).toMatchObject({ email: SUPER_EMAIL, role: 'superadmin', restriction: [] });
    // Only the hash of the token is stored.
    const rows = await s.database.db.select().from(adminSessions).where(eq(adminSessions.tokenHash, res.body.result.token));
    expect(rows).toHaveLength(0);
    const hashed = await s.database.db.select().from(adminSessions).where(eq(adminSessions.tokenHash, hashToken(res.body.result.token)));
    expect(hashed).toHaveLength(1);
  });

  it('answers a wrong password and an unknown email the same way, and records both attempts', async () => {
    const wrong = await call(s, 'POST', '/api/admin/login', { body: { email: SUPER_EMAIL, password: 'nope-nope-nope' }, ip: '10.1.0.1' });
    const unknown = await call(s, 'POST', '/api/admin/login', { body: { email: 'ghost@pitboss.test', password: 'nope-nope-nope' }, ip: '10.1.0.2' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.message).toBe('Invalid email or password');
    const hist = await s.database.db.select().from(loginHistory).where(eq(loginHistory.email, 'ghost@pitboss.test'));
    expect(hist[0]).toMatchObject({ success: false, reason: 'unknown email', ip: '10.1.0.2' });
  });

  it('rejects bad input with per-field errors', async () => {
    const res = await call(s, 'POST', '/api/admin/login', { body: { email: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'password']);
  });

  it('throttles one address guessing one account with a growing delay, not a lock', async () => {
    const email = 'victim@pitboss.test';
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await call(s, 'POST', '/api/admin/login', { body: { email, password: 'wrong-password' }, ip: '10.2.0.1' })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toContain(429);
    const res = await call(s, 'POST', '/api/admin/login', { body: { email, password: 'wrong-password' }, ip: '10.2.0.1' });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(300);
    // The delay runs from the last failure: once it has passed, attempts are allowed again.
    await s.database.db.update(loginHistory).set({ createdAt: sql`created_at - interval '10 minutes'` }).where(eq(loginHistory.email, email));
    expect((await call(s, 'POST', '/api/admin/login', { body: { email, password: 'wrong-password' }, ip: '10.2.0.1' })).status).toBe(401);
  });

  it('throttles a distributed attack on one account, but the owner\'s usual address still signs in', async () => {
    const owner = await makeSubAdmin(s, []); // signed in once from 127.0.0.1
    for (let i = 0; i < 22; i++) await call(s, 'POST', '/api/admin/login', { body: { email: owner.email, password: 'wrong-password' }, ip: `10.4.0.${i}` });
    expect((await call(s, 'POST', '/api/admin/login', { body: { email: owner.email, password: owner.password }, ip: '10.4.1.1' })).status).toBe(429);
    expect((await call(s, 'POST', '/api/admin/login', { body: { email: owner.email, password: owner.password }, ip: '127.0.0.1' })).status).toBe(200);
  });

  it('serialises parallel guesses, so a burst cannot exceed the free attempts', async () => {
    const email = 'burst@pitboss.test';
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call(s, 'POST', '/api/admin/login', { body: { email, password: 'wrong-password' }, ip: '10.5.0.1' })),
    );
    const counts: Record<number, number> = {};
    for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1;
    expect(counts[401]).toBe(5);
    expect(counts[429]).toBe(15);
    // Throttled attempts are recorded too, under the account when it exists.
    const sub = await makeSubAdmin(s, []);
    for (let i = 0; i < 6; i++) await call(s, 'POST', '/api/admin/login', { body: { email: sub.email, password: 'wrong-password' }, ip: '10.6.0.1' });
    const hist = await call(s, 'GET', '/api/admin/loginHistory', { token: sub.token, query: { limit: '50' } });
    expect(hist.body.result.items.filter((i: { reason: string }) => i.reason === 'throttled')).toHaveLength(1);
  });

  it('throttles one IP that sprays many accounts', async () => {
    let last = 0;
    for (let i = 0; i < 22; i++) {
      last = (await call(s, 'POST', '/api/admin/login', { body: { email: `spray${i}@pitboss.test`, password: 'wrong-password' }, ip: '10.3.3.3' })).status;
    }
    expect(last).toBe(429);
    // Another IP is unaffected.
    expect((await call(s, 'POST', '/api/admin/login', { body: { email: SUPER_EMAIL, password: SUPER_PASSWORD }, ip: '10.3.3.4' })).status).toBe(200);
  });
});

describe('sessions', () => {
  it('refuses a missing, unknown, revoked, expired, idle or disabled session with 401 and the envelope', async () => {
    const none = await call(s, 'GET', '/api/admin/getadmindetail');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ success: false });
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: 'x'.repeat(43) })).status).toBe(401);

    const revoked = await superLogin(s);
    expect((await call(s, 'POST', '/api/admin/logout', { token: revoked })).status).toBe(200);
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: revoked })).status).toBe(401);

    const expired = await superLogin(s);
    await s.database.db.update(adminSessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(adminSessions.tokenHash, hashToken(expired)));
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: expired })).status).toBe(401);

    const idle = await superLogin(s);
    await s.database.db.update(adminSessions).set({ lastSeenAt: new Date(Date.now() - (s.config.sessionIdleMinutes + 1) * 60_000) }).where(eq(adminSessions.tokenHash, hashToken(idle)));
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: idle })).status).toBe(401);

    const sub = await makeSubAdmin(s, [{ name: 'FAQ', canView: true, canEdit: false }]);
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: sub.token })).status).toBe(200);
    await s.database.db.update(admins).set({ status: 'disabled' }).where(eq(admins.email, sub.email));
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: sub.token })).status).toBe(401);
    expect((await call(s, 'POST', '/api/admin/login', { body: { email: sub.email, password: sub.password } })).status).toBe(401);
  });

  it('getadmindetail returns _id, name, email, role and restriction (and the 2FA flags the guard reads)', async () => {
    const sub = await makeSubAdmin(s, [{ name: 'FAQ', canView: true, canEdit: true }]);
    const res = await call(s, 'GET', '/api/admin/getadmindetail', { token: sub.token });
    expect(res.body.result).toEqual({
      _id: sub.id, name: expect.any(String), email: sub.email, role: 'subadmin', restriction: [{ name: 'FAQ', canView: true, canEdit: true }],
      twoFactorEnabled: false, twoFactorSetupRequired: false,
    });
  });

  it('issues a new token at every login', async () => {
    const a = await superLogin(s);
    const b = await superLogin(s);
    expect(a).not.toBe(b);
  });
});

describe('password reset', () => {
  it('answers the same for a known and an unknown email, and mails only the known one', async () => {
    const before = (await s.database.db.select().from(mailOutbox)).length;
    const unknown = await call(s, 'POST', '/api/admin/forgotPassword', { body: { email: 'nobody@pitboss.test' } });
    await s.idle();
    expect((await s.database.db.select().from(mailOutbox)).length).toBe(before);
    const known = await call(s, 'POST', '/api/admin/forgotPassword', { body: { email: SUPER_EMAIL } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    const { row, sent, token } = await lastResetLink(SUPER_EMAIL);
    expect(row!.templateKey).toBe('forgot_password');
    expect(sent!.html).toContain('http://pitboss.test/verification/forgotPassword?token=');
    expect(sent!.subject).toBe('Reset your Pitboss admin password');
    expect(token!.length).toBeGreaterThanOrEqual(22); // ≥ 128 bits in base64url
    // Once sent, the copy kept in the outbox no longer holds the token.
    expect(row!.status).toBe('sent');
    expect(row!.html).not.toContain(token!);
    expect(row!.html).toContain('token=[redacted]');
    // Stored hashed: the raw token is nowhere in the table.
    const stored = await s.database.db.select().from(passwordResets);
    expect(stored.some((r) => r.tokenHash === token)).toBe(false);
    expect(stored.some((r) => r.tokenHash === hashToken(token!))).toBe(true);
  });

  it('validates the token, resets the password once, ends sessions, and never logs in by itself', async () => {
    const sub = await makeSubAdmin(s, []);
    await call(s, 'POST', '/api/admin/forgotPassword', { body: { email: sub.email } });
    const { token } = await lastResetLink(sub.email);
    expect((await call(s, 'POST', '/api/admin/checkauthtoken', { body: { token } })).body).toMatchObject({ success: true });

    const mismatch = await call(s, 'POST', '/api/admin/resetPassword', { body: { token, password: 'New-Strong-Pass-1', confirmPassword: 'other' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors.confirmPassword).toBeDefined();
    const common = await call(s, 'POST', '/api/admin/resetPassword', { body: { token, password: 'password123', confirmPassword: 'password123' } });
    expect(common.status).toBe(400);
    expect(common.body.errors.password).toMatch(/common/);

    const res = await call(s, 'POST', '/api/admin/resetPassword', { body: { token, password: 'New-Strong-Pass-1', confirmPassword: 'New-Strong-Pass-1' } });
    expect(res.status).toBe(200);
    expect(res.body.result).toBeUndefined();
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: sub.token })).status).toBe(401);
    await login(s, sub.email, 'New-Strong-Pass-1');
    expect((await call(s, 'POST', '/api/admin/login', { body: { email: sub.email, password: sub.password } })).status).toBe(401);

    const again = await call(s, 'POST', '/api/admin/resetPassword', { body: { token, password: 'Another-Pass-22', confirmPassword: 'Another-Pass-22' } });
    expect(again.status).toBe(400);
    expect(again.body.errors.token).toBeDefined();
    const used = await call(s, 'POST', '/api/admin/checkauthtoken', { body: { token } });
    expect(used.status).toBe(400);
    expect(used.body).toMatchObject({ success: false, errors: { token: expect.any(String) } });
  });

  it('refuses an expired or unknown token', async () => {
    const sub = await makeSubAdmin(s, []);
    await call(s, 'POST', '/api/admin/forgotPassword', { body: { email: sub.email } });
    const { token } = await lastResetLink(sub.email);
    await s.database.db.update(passwordResets).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResets.tokenHash, hashToken(token!)));
    expect((await call(s, 'POST', '/api/admin/checkauthtoken', { body: { token } })).status).toBe(400);
    expect((await call(s, 'POST', '/api/admin/resetPassword', { body: { token, password: 'New-Strong-Pass-1', confirmPassword: 'New-Strong-Pass-1' } })).status).toBe(400);
    expect((await call(s, 'POST', '/api/admin/checkauthtoken', { body: { token: 'unknown-token-value-123' } })).status).toBe(400);
    expect((await call(s, 'POST', '/api/admin/checkauthtoken', { body: {} })).body.errors.token).toBeDefined();
  });

  it('dies when the admin is disabled', async () => {
    const sub = await makeSubAdmin(s, []);
    await call(s, 'POST', '/api/admin/forgotPassword', { body: { email: sub.email } });
    const { token } = await lastResetLink(sub.email);
    const superToken = await superLogin(s);
    await call(s, 'PATCH', `/api/admin/sub-admins/${sub.id}`, { token: superToken, body: { status: 'disabled' } });
    expect((await call(s, 'POST', '/api/admin/resetPassword', { body: { token, password: 'New-Strong-Pass-1', confirmPassword: 'New-Strong-Pass-1' } })).status).toBe(400);
  });

  it('expires in 30 minutes', async () => {
    const sub = await makeSubAdmin(s, []);
    await call(s, 'POST', '/api/admin/forgotPassword', { body: { email: sub.email } });
    await s.idle();
    const [row] = await s.database.db.select().from(passwordResets).orderBy(sql`id desc`).limit(1);
    const minutes = (row!.expiresAt.getTime() - row!.createdAt.getTime()) / 60_000;
    expect(minutes).toBeCloseTo(30, 0);
  });
});

describe('request limits', () => {
  it('limits the public token endpoints per address, and password changes per admin', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await call(s, 'POST', '/api/admin/forgotPassword', { body: { email: 'x@pitboss.test' }, ip: '10.8.0.1' })).status);
    expect(statuses.slice(0, 10).every((st) => st === 200)).toBe(true);
    const limited = await call(s, 'POST', '/api/admin/forgotPassword', { body: { email: 'x@pitboss.test' }, ip: '10.8.0.1' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ success: false, code: 'THROTTLED' });
    expect((await call(s, 'POST', '/api/admin/forgotPassword', { body: { email: 'x@pitboss.test' }, ip: '10.8.0.2' })).status).toBe(200);
    const sub = await makeSubAdmin(s, []);
    let last = 0;
    for (let i = 0; i < 11; i++) {
      last = (await call(s, 'POST', '/api/admin/changePassword', { token: sub.token, body: { currentPassword: `guess-${i}-xx`, newPassword: 'Fresh-Pass-123', confirmPassword: 'Fresh-Pass-123' }, ip: `10.9.1.${i}` })).status;
    }
    expect(last).toBe(429);
  });
});

describe('own account', () => {
  it('changes the password only with the current one, and ends the other sessions', async () => {
    const sub = await makeSubAdmin(s, []);
    const other = await login(s, sub.email, sub.password);
    const wrong = await call(s, 'POST', '/api/admin/changePassword', { token: sub.token, body: { currentPassword: 'bad-current', newPassword: 'Fresh-Pass-123', confirmPassword: 'Fresh-Pass-123' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.currentPassword).toBeDefined();
    const res = await call(s, 'POST', '/api/admin/changePassword', { token: sub.token, body: { currentPassword: sub.password, newPassword: 'Fresh-Pass-123', confirmPassword: 'Fresh-Pass-123' } });
    expect(res.status).toBe(200);
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: sub.token })).status).toBe(200);
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: other })).status).toBe(401);
    await login(s, sub.email, 'Fresh-Pass-123');
  });

  it('reads and updates the profile, refusing a taken email', async () => {
    const sub = await makeSubAdmin(s, []);
    const res = await call(s, 'PUT', '/api/admin/profile', { token: sub.token, body: { name: 'Renamed Admin', email: sub.email } });
    expect(res.status).toBe(200);
    expect((await call(s, 'GET', '/api/admin/profile', { token: sub.token })).body.result.name).toBe('Renamed Admin');
    const noPassword = await call(s, 'PUT', '/api/admin/profile', { token: sub.token, body: { name: 'Renamed Admin', email: 'moved@pitboss.test' } });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.errors.currentPassword).toBeDefined();
    const wrong = await call(s, 'PUT', '/api/admin/profile', { token: sub.token, body: { name: 'Renamed Admin', email: 'moved@pitboss.test', currentPassword: 'not-it-at-all' } });
    expect(wrong.status).toBe(400);
    const moved = await call(s, 'PUT', '/api/admin/profile', { token: sub.token, body: { name: 'Renamed Admin', email: 'moved@pitboss.test', currentPassword: sub.password } });
    expect(moved.body.result.email).toBe('moved@pitboss.test');
    await s.idle();
    expect(s.mail.some((m) => m.to === sub.email && /moved@pitboss\.test/.test(m.text))).toBe(true);
    const taken = await call(s, 'PUT', '/api/admin/profile', { token: sub.token, body: { name: 'X Y', email: SUPER_EMAIL, currentPassword: sub.password } });
    expect(taken.status).toBe(409);
    expect(taken.body.errors.email).toBeDefined();
    expect((await call(s, 'PUT', '/api/admin/profile', { token: sub.token, body: { name: '', email: 'bad' } })).status).toBe(400);
  });

  it('lists only its own login history, newest first, paginated', async () => {
    const sub = await makeSubAdmin(s, []);
    await call(s, 'POST', '/api/admin/login', { body: { email: sub.email, password: 'wrong-one-here' } });
    await login(s, sub.email, sub.password);
    const res = await call(s, 'GET', '/api/admin/loginHistory', { token: sub.token, query: { page: '1', limit: '2' } });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ page: 1, limit: 2, total: 3 });
    expect(res.body.result.items).toHaveLength(2);
    expect(res.body.result.items.every((i: { email: string }) => i.email === sub.email)).toBe(true);
    expect(res.body.result.items[0].success).toBe(true);
    expect((await call(s, 'GET', '/api/admin/loginHistory', { token: sub.token, query: { limit: '5000' } })).status).toBe(400);
  });

  it('scopes every read of the login history to the signed-in admin: list, record, export and filters', async () => {
    const a = await makeSubAdmin(s, []);
    const b = await makeSubAdmin(s, []);
    const theirs = (await call(s, 'GET', '/api/admin/loginHistory', { token: b.token })).body.result.items[0]._id as string;
    expect((await call(s, 'GET', `/api/admin/loginHistory/${theirs}`, { token: a.token })).status).toBe(404);
    expect((await call(s, 'GET', `/api/admin/loginHistory/${theirs}`, { token: b.token })).status).toBe(200);
    const csv = await call(s, 'GET', '/api/admin/loginHistory/export', { token: a.token, query: { success: 'true' } });
    expect(csv.status).toBe(200);
    expect(csv.raw.split('\r\n').filter(Boolean)).toHaveLength(2);
    const all = await call(s, 'GET', '/api/admin/loginHistory', { token: a.token, query: { success: 'true,false' } });
    expect(all.body.result.items.every((i: { email: string }) => i.email === a.email)).toBe(true);
  });
});
