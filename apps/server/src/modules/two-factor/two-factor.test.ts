import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { adminSessions, adminTwoFactor, auditLog, mailOutbox, siteSettings } from '../../db/schema.js';
import { ensureDemoTotpKey, loadConfig } from '../../config.js';
import { decryptSecret, encryptSecret } from './service.js';
import { call, makeSubAdmin, serverFile, type TestServer } from '../../../test/helpers.js';

let s: TestServer;
let superToken: string;
serverFile((m) => ({ s, token: superToken } = m));

/** The code an authenticator app shows `steps` 30 s steps from now. */
const codeOf = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + steps * 30_000 });

let ipCounter = 0;
/** A sub-admin with FAQ view rights, on an address of their own (the sign-in throttle counts per address). */
async function subAdmin(restriction = [{ name: 'FAQ', canView: true, canEdit: false }]) {
  const sub = await makeSubAdmin(s, restriction as never, superToken);
  return { ...sub, ip: `10.77.${Math.floor(++ipCounter / 200)}.${ipCounter % 200}` };
}

async function enrol(sub: { token: string; password: string }) {
  const setup = await call(s, 'POST', '/api/admin/2fa/setup', { token: sub.token, body: { password: sub.password } });
  expect(setup.status).toBe(200);
  const secret = setup.body.result.secret as string;
  const enabled = await call(s, 'POST', '/api/admin/2fa/enable', { token: sub.token, body: { code: codeOf(secret) } });
  expect(enabled.status).toBe(200);
  return { secret, recoveryCodes: enabled.body.result.recoveryCodes as string[] };
}

const firstStep = (sub: { email: string; password: string; ip: string }) => call(s, 'POST', '/api/admin/login', { body: { email: sub.email, password: sub.password }, ip: sub.ip });
const secondStep = (challenge: string, code: string, ip: string) => call(s, 'POST', '/api/admin/login/2fa', { body: { challenge, code }, ip });

describe('enrolment', () => {
  it('needs the password, shows a QR code, turns on with a first code and stores the secret encrypted', async () => {
    const sub = await subAdmin();
    const wrong = await call(s, 'POST', '/api/admin/2fa/setup', { token: sub.token, body: { password: 'not-the-password' } });
    expect(wrong.status).toBe(400);
    const setup = await call(s, 'POST', '/api/admin/2fa/setup', { token: sub.token, body: { password: sub.password } });
    expect(setup.status).toBe(200);
    expect(setup.body.result.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(setup.body.result.otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    const secret = setup.body.result.secret as string;
    const [row] = await s.database.db.select().from(adminTwoFactor).where(eq(adminTwoFactor.adminId, Number(sub.id)));
    expect(row!.secretEnc).not.toContain(secret);
    expect(row!.enabledAt).toBeNull();
    // Not active yet: signing in still gives a session directly.
    expect((await firstStep(sub)).body.result.token).toBeTruthy();

    const bad = await call(s, 'POST', '/api/admin/2fa/enable', { token: sub.token, body: { code: '000000' === codeOf(secret) ? '111111' : '000000' } });
    expect(bad.status).toBe(400);
    const on = await call(s, 'POST', '/api/admin/2fa/enable', { token: sub.token, body: { code: codeOf(secret) } });
    expect(on.status).toBe(200);
    expect(on.body.result.recoveryCodes).toHaveLength(10);
    const status = await call(s, 'GET', '/api/admin/2fa', { token: sub.token });
    expect(status.body.result).toMatchObject({ enabled: true, pending: false, recoveryCodesLeft: 10 });
    const audits = await s.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'two_factor_enable'), eq(auditLog.recordId, sub.id)));
    expect(audits).toHaveLength(1);
    const mails = await s.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, sub.email));
    expect(mails.some((m) => m.templateKey === 'two_factor_changed')).toBe(true);
  });
});

describe('two-step sign-in', () => {
  it('gives no session on the first step; the code gives it; the same code is refused the second time', async () => {
    const sub = await subAdmin();
    const { secret } = await enrol(sub);
    const sessions = async () => Number((await s.database.db.select({ n: count() }).from(adminSessions).where(eq(adminSessions.adminId, Number(sub.id))))[0]!.n);
    const before = await sessions();
    const first = await firstStep(sub);
    expect(first.status).toBe(200);
    expect(first.body.result).toMatchObject({ twoFactorRequired: true });
    expect(first.body.result.token).toBeUndefined();
    expect(await sessions()).toBe(before);
    // The challenge is no session token.
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: first.body.result.challenge })).status).toBe(401);

    // The enrolment used this step's code: the next step's code signs in.
    const code = codeOf(secret, 1);
    const second = await secondStep(first.body.result.challenge, code, sub.ip);
    expect(second.status).toBe(200);
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: second.body.result.token })).body.result.twoFactorEnabled).toBe(true);
    // The challenge is single use, and the code too (replay from another challenge).
    expect((await secondStep(first.body.result.challenge, code, sub.ip)).status).toBe(401);
    const again = await firstStep(sub);
    const replay = await secondStep(again.body.result.challenge, code, sub.ip);
    expect(replay.status).toBe(401);
    expect(replay.body.message).toMatch(/wrong or was already used/);
  });

  it('counts wrong codes and makes further tries wait', async () => {
    const sub = await subAdmin();
    await enrol(sub);
    const { body } = await firstStep(sub);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await secondStep(body.result.challenge, i % 2 ? '123456' : '654321', sub.ip)).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toContain(429);
    const [row] = await s.database.db.select().from(adminTwoFactor).where(eq(adminTwoFactor.adminId, Number(sub.id)));
    expect(row!.failedAttempts).toBeGreaterThanOrEqual(5);
  });

  it('takes a recovery code once', async () => {
    const sub = await subAdmin();
    const { recoveryCodes } = await enrol(sub);
    const code = recoveryCodes[3]!;
    const ok = await secondStep((await firstStep(sub)).body.result.challenge, code.toUpperCase(), sub.ip);
    expect(ok.status).toBe(200);
    const again = await secondStep((await firstStep(sub)).body.result.challenge, code, sub.ip);
    expect(again.status).toBe(401);
    expect((await call(s, 'GET', '/api/admin/2fa', { token: ok.body.result.token })).body.result.recoveryCodesLeft).toBe(9);
  });

  it('still asks for the code after a password reset', async () => {
    const sub = await subAdmin();
    await enrol(sub);
    await call(s, 'POST', '/api/admin/forgotPassword', { body: { email: sub.email } });
    await s.idle();
    const sent = s.mail.filter((m) => m.to === sub.email && /token=/.test(m.text)).at(-1);
    const token = decodeURIComponent(/token=([A-Za-z0-9_%-]+)/.exec(sent!.text)![1]!);
    const password = 'Brand-New-Secret-Pass-42';
    expect((await call(s, 'POST', '/api/admin/resetPassword', { body: { token, password, confirmPassword: password } })).status).toBe(200);
    const first = await firstStep({ ...sub, password });
    expect(first.status).toBe(200);
    expect(first.body.result.twoFactorRequired).toBe(true);
    expect(first.body.result.token).toBeUndefined();
  });
});

describe('turning it off and new recovery codes', () => {
  it('needs the password and a code; off means sign-in in one step again', async () => {
    const sub = await subAdmin();
    const { secret, recoveryCodes } = await enrol(sub);
    expect((await call(s, 'POST', '/api/admin/2fa/recovery-codes', { token: sub.token, body: { password: 'wrong-password', code: recoveryCodes[0] } })).status).toBe(400);
    expect((await call(s, 'POST', '/api/admin/2fa/recovery-codes', { token: sub.token, body: { password: sub.password, code: 'aaaa-bbbb-cccc' } })).status).toBe(400);
    const regen = await call(s, 'POST', '/api/admin/2fa/recovery-codes', { token: sub.token, body: { password: sub.password, code: recoveryCodes[0] } });
    expect(regen.status).toBe(200);
    const fresh = regen.body.result.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    // The old codes stopped working.
    expect((await call(s, 'POST', '/api/admin/2fa/disable', { token: sub.token, body: { password: sub.password, code: recoveryCodes[1] } })).status).toBe(400);
    expect((await call(s, 'POST', '/api/admin/2fa/disable', { token: sub.token, body: { password: 'wrong-password', code: codeOf(secret, 1) } })).status).toBe(400);
    const off = await call(s, 'POST', '/api/admin/2fa/disable', { token: sub.token, body: { password: sub.password, code: codeOf(secret, 1) } });
    expect(off.status).toBe(200);
    expect((await firstStep(sub)).body.result.token).toBeTruthy();
    const actions = (await s.database.db.select().from(auditLog).where(eq(auditLog.recordId, sub.id))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['two_factor_enable', 'two_factor_recovery_codes', 'two_factor_disable']));
  });
});

describe('required for every admin', () => {
  it('confines an admin without 2FA to their account and enrolment, and frees them once enrolled', async () => {
    const sub = await subAdmin();
    expect((await call(s, 'GET', '/api/admin/faqs', { token: sub.token })).status).toBe(200);
    const set = await call(s, 'POST', '/api/admin/updateSiteDetails', { token: superToken, body: { requireTwoFactor: true } });
    expect(set.status).toBe(200);
    try {
      const refused = await call(s, 'GET', '/api/admin/faqs', { token: sub.token });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('TWO_FACTOR_REQUIRED');
      expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: sub.token })).body.result.twoFactorSetupRequired).toBe(true);
      expect((await call(s, 'GET', '/api/admin/2fa', { token: sub.token })).body.result.required).toBe(true);
      await enrol(sub);
      expect((await call(s, 'GET', '/api/admin/faqs', { token: sub.token })).status).toBe(200);
      expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: sub.token })).body.result.twoFactorSetupRequired).toBe(false);
    } finally {
      // The super admin is confined too now (no 2FA): switch it off in the database.
      await s.database.db.update(siteSettings).set({ requireTwoFactor: false }).where(eq(siteSettings.id, 1));
    }
  });
});

describe('reset by an admin', () => {
  it('lets the super admin reset a sub-admin\'s 2FA, audited', async () => {
    const sub = await subAdmin();
    await enrol(sub);
    const res = await call(s, 'POST', `/api/admin/sub-admins/${sub.id}/reset-2fa`, { token: superToken });
    expect(res.status).toBe(200);
    const [audit] = await s.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'reset-2fa'), eq(auditLog.recordId, sub.id)));
    expect(audit).toBeTruthy();
    // They are told: the enrolment's mail and the reset's.
    const mails = await s.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.toAddress, sub.email), eq(mailOutbox.templateKey, 'two_factor_changed')));
    expect(mails).toHaveLength(2);
    // Their sessions ended; they sign in with the password alone.
    expect((await call(s, 'GET', '/api/admin/getadmindetail', { token: sub.token })).status).toBe(401);
    expect((await firstStep(sub)).body.result.token).toBeTruthy();
  });

  it('refuses a sub-admin without the right, and one with the right over an admin they do not manage', async () => {
    const target = await subAdmin();
    await enrol(target);
    const plain = await subAdmin();
    expect((await call(s, 'POST', `/api/admin/sub-admins/${target.id}/reset-2fa`, { token: plain.token })).status).toBe(403);
    const manager = await subAdmin([{ name: 'Sub Admin', canView: true, canEdit: true }, { name: 'FAQ', canView: true, canEdit: false }]);
    expect((await call(s, 'POST', `/api/admin/sub-admins/${target.id}/reset-2fa`, { token: manager.token })).status).toBe(403);
    const [row] = await s.database.db.select().from(adminTwoFactor).where(eq(adminTwoFactor.adminId, Number(target.id)));
    expect(row!.enabledAt).not.toBeNull();
    const denied = await s.database.db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(and(eq(auditLog.action, 'denied'), eq(auditLog.adminEmail, plain.email)));
    expect(denied[0]!.n).toBeGreaterThan(0);
  });
});

describe('the encryption key', () => {
  it('is required in production, kept in DATA_DIR in demo mode, and authenticates what it decrypts', () => {
    expect(() => loadConfig({ APP_MODE: 'production' } as NodeJS.ProcessEnv)).toThrow(/TOTP_ENCRYPTION_KEY: required when APP_MODE=production/);
    expect(() => loadConfig({ APP_MODE: 'production', TOTP_ENCRYPTION_KEY: 'short' } as NodeJS.ProcessEnv)).toThrow(/TOTP_ENCRYPTION_KEY: 64 hex digits/);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pitboss-totp-'));
    try {
      const demo = loadConfig({ APP_MODE: 'demo', DATA_DIR: dir } as NodeJS.ProcessEnv);
      expect(demo.totpEncryptionKey).toBeUndefined();
      ensureDemoTotpKey(demo);
      const file = path.join(dir, 'totp-encryption.key');
      expect(readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]{64}$/);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      // A restart reads the same key back.
      const again = loadConfig({ APP_MODE: 'demo', DATA_DIR: dir } as NodeJS.ProcessEnv);
      ensureDemoTotpKey(again);
      expect(again.totpEncryptionKey!.equals(demo.totpEncryptionKey!)).toBe(true);
      const sealed = encryptSecret(demo, 'JBSWY3DPEHPK3PXP');
      expect(decryptSecret(again, sealed)).toBe('JBSWY3DPEHPK3PXP');
      const other = loadConfig({ APP_MODE: 'demo', DATA_DIR: dir, TOTP_ENCRYPTION_KEY: 'cd'.repeat(32) } as NodeJS.ProcessEnv);
      expect(() => decryptSecret(other, sealed)).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
