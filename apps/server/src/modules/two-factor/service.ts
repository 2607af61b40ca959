import { createCipheriv, createDecipheriv, randomBytes, randomInt } from 'node:crypto';
import { ERROR_CODES, RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_PERIOD_SECONDS, TWO_FACTOR_CHALLENGE_MINUTES, TWO_FACTOR_FREE_FAILURES, type TwoFactorStatus } from '@pitboss/contract';
import { and, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Config } from '../../config.js';
import type { AdminActor, AppContext } from '../../context.js';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { admins, adminRecoveryCodes, adminTwoFactor, loginHistory, twoFactorChallenges } from '../../db/schema.js';
import { AppError, badRequest, conflict, throttled } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { verifyPassword } from '../../lib/passwords.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { createSession, revokeAdminSessions, toAdminDetail, type AdminRow } from '../auth/sessions.js';
import { loadSiteSettings } from '../site-settings/service.js';
import { locateIp } from '../../lib/geoip.js';
import { mailIfNewCountry } from '../auth/located.js';

// ── The secret at rest: AES-256-GCM, `v1.<iv>.<tag>.<ciphertext>` (base64url) ──

function keyOf(config: Config): Buffer {
  if (!config.totpEncryptionKey) throw new Error('TOTP_ENCRYPTION_KEY is not configured');
  return config.totpEncryptionKey;
}

export function encryptSecret(config: Config, base32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(config), iv);
  const data = Buffer.concat([cipher.update(base32, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

export function decryptSecret(config: Config, stored: string): string {
  const [v, iv, tag, data] = stored.split('.');
  if (v !== 'v1' || !iv || !tag || !data) throw new Error('Unreadable TOTP secret');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(config), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

function totpOf(base32: string, label = 'admin', issuer = 'Pitboss'): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(base32) });
}

// ── Recovery codes: 12 characters of a 32-letter alphabet (60 bits), shown `xxxx-xxxx-xxxx`, stored as sha256 ──

const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

function newRecoveryCode(): string {
  let s = '';
  for (let i = 0; i < 12; i++) s += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${s.slice(0, 4)}-${s.slice(4, 8)}-${s.slice(8)}`;
}

const normaliseRecovery = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

async function replaceRecoveryCodes(tx: DbOrTx, adminId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, adminId));
  await tx.insert(adminRecoveryCodes).values(codes.map((c) => ({ adminId, codeHash: hashToken(normaliseRecovery(c)) })));
  return codes;
}

// ── Checking a code: TOTP (±1 step, each step once) or a recovery code (once); wrong codes counted ──

const MAX_DELAY_S = 300;

/** Seconds still to wait: after 5 wrong codes in a row, each further try waits 2^(excess) s from the last, capped at 5 min. */
function waitSeconds(row: { failedAttempts: number; lastFailedAt: Date | null }): number {
  if (row.failedAttempts < TWO_FACTOR_FREE_FAILURES || !row.lastFailedAt) return 0;
  const delay = Math.min(2 ** (row.failedAttempts - TWO_FACTOR_FREE_FAILURES), MAX_DELAY_S);
  return Math.max(0, Math.ceil((row.lastFailedAt.getTime() + delay * 1000 - Date.now()) / 1000));
}

export type CodeCheck = { outcome: 'ok'; via: 'totp' | 'recovery' } | { outcome: 'invalid' } | { outcome: 'throttled'; wait: number };

/**
 * Checks a code against the admin's secret (enabled or, for `pending`, awaiting confirmation).
 * Locks the admin's 2FA row, so concurrent tries see each other; the failure count is written in
 * the same transaction, so the caller must let it commit (return, then throw).
 */
export async function checkCode(tx: DbOrTx, config: Config, adminId: number, code: string, opts: { pending?: boolean; allowRecovery: boolean }): Promise<CodeCheck> {
  const [row] = await tx.select().from(adminTwoFactor).where(eq(adminTwoFactor.adminId, adminId)).for('update');
  if (!row || (opts.pending ? row.enabledAt !== null : row.enabledAt === null)) return { outcome: 'invalid' };
  const wait = waitSeconds(row);
  if (wait > 0) return { outcome: 'throttled', wait };
  const trimmed = code.replace(/\s+/g, '');
  let ok: CodeCheck | null = null;
  if (/^\d{6}$/.test(trimmed)) {
    const delta = totpOf(decryptSecret(config, row.secretEnc)).validate({ token: trimmed, window: 1 });
    if (delta !== null) {
      const step = Math.floor(Date.now() / 1000 / TOTP_PERIOD_SECONDS) + delta;
      // A step at or before the last accepted one is a replay (or an older code): refused.
      const claimed = await tx
        .update(adminTwoFactor)
        .set({ lastUsedStep: step, failedAttempts: 0, lastFailedAt: null })
        .where(and(eq(adminTwoFactor.adminId, adminId), lt(adminTwoFactor.lastUsedStep, step)))
        .returning({ id: adminTwoFactor.adminId });
      if (claimed.length) ok = { outcome: 'ok', via: 'totp' };
    }
  } else if (opts.allowRecovery && normaliseRecovery(trimmed).length === 12) {
    const used = await tx
      .update(adminRecoveryCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(adminRecoveryCodes.adminId, adminId), eq(adminRecoveryCodes.codeHash, hashToken(normaliseRecovery(trimmed))), isNull(adminRecoveryCodes.usedAt)))
      .returning({ id: adminRecoveryCodes.id });
    if (used.length) {
      await tx.update(adminTwoFactor).set({ failedAttempts: 0, lastFailedAt: null }).where(eq(adminTwoFactor.adminId, adminId));
      ok = { outcome: 'ok', via: 'recovery' };
    }
  }
  if (ok) return ok;
  await tx.update(adminTwoFactor).set({ failedAttempts: sql`${adminTwoFactor.failedAttempts} + 1`, lastFailedAt: new Date() }).where(eq(adminTwoFactor.adminId, adminId));
  return { outcome: 'invalid' };
}

const INVALID_CODE = 'This code is wrong or was already used';

function raise(check: CodeCheck): void {
  if (check.outcome === 'throttled') throw throttled(check.wait);
  if (check.outcome === 'invalid') throw badRequest(INVALID_CODE, { code: INVALID_CODE });
}

// ── Status and the forced setting ──

export async function isTwoFactorEnabled(db: DbOrTx, adminId: number): Promise<boolean> {
  const [row] = await db.select({ enabledAt: adminTwoFactor.enabledAt }).from(adminTwoFactor).where(eq(adminTwoFactor.adminId, adminId));
  return Boolean(row?.enabledAt);
}

/** The site requires 2FA and this admin has not turned it on: only account and 2FA endpoints answer. */
export async function twoFactorSetupRequired(db: DbOrTx, adminId: number): Promise<boolean> {
  const rows = await queryRows<{ blocked: boolean }>(db, sql`
    select coalesce((select require_two_factor from site_settings where id = 1), false)
       and not exists (select 1 from admin_two_factor t where t.admin_id = ${adminId} and t.enabled_at is not null) as blocked`);
  return Boolean(rows[0]?.blocked);
}

export const twoFactorRequiredError = () =>
  new AppError(403, ERROR_CODES.TWO_FACTOR_REQUIRED, 'This site requires two-factor authentication: turn it on at /2fa-settings first');

export async function twoFactorStatus(db: DbOrTx, adminId: number): Promise<TwoFactorStatus> {
  const [row] = await db.select().from(adminTwoFactor).where(eq(adminTwoFactor.adminId, adminId));
  const [left] = await db.select({ n: count() }).from(adminRecoveryCodes).where(and(eq(adminRecoveryCodes.adminId, adminId), isNull(adminRecoveryCodes.usedAt)));
  const settings = await loadSiteSettings(db);
  return {
    enabled: Boolean(row?.enabledAt),
    pending: Boolean(row && !row.enabledAt),
    enabledAt: row?.enabledAt ? row.enabledAt.toISOString() : null,
    recoveryCodesLeft: row?.enabledAt ? Number(left?.n ?? 0) : 0,
    required: settings.requireTwoFactor,
  };
}

// ── Changes by the admin themselves ──

async function assertPassword(admin: AdminRow, password: string): Promise<void> {
  if (!(await verifyPassword(admin.passwordHash, password))) throw badRequest('The password is wrong', { password: 'The password is wrong' });
}

const resourceOf = (a: { role: string }) => (a.role === 'superadmin' ? 'admins' : 'sub-admins');

async function mailChange(ctx: AppContext, tx: DbOrTx, admin: AdminRow, change: string): Promise<void> {
  const settings = await loadSiteSettings(tx);
  await ctx.mailer.enqueueTemplate(tx, { key: 'two_factor_changed', to: admin.email, vars: { name: admin.name, email: admin.email, change, siteName: settings.siteName } });
}

/** Starts (or restarts) enrolment: a fresh secret, inactive until `enable` gets a code of it. */
export async function startSetup(ctx: AppContext, actor: AdminActor, password: string) {
  const admin = actor.admin;
  await assertPassword(admin, password);
  if (await isTwoFactorEnabled(ctx.db, admin.id)) throw conflict('Two-factor authentication is already on: turn it off first to enrol a new device');
  const secret = new Secret({ size: 20 });
  const settings = await loadSiteSettings(ctx.db);
  const otpauthUrl = totpOf(secret.base32, admin.email, settings.siteName).toString();
  const secretEnc = encryptSecret(ctx.config, secret.base32);
  await ctx.db
    .insert(adminTwoFactor)
    .values({ adminId: admin.id, secretEnc })
    .onConflictDoUpdate({ target: adminTwoFactor.adminId, set: { secretEnc, enabledAt: null, lastUsedStep: 0, failedAttempts: 0, lastFailedAt: null, createdAt: new Date() } });
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret: secret.base32, otpauthUrl, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** Confirms enrolment with a first code: 2FA on, 10 recovery codes (shown once), other sessions end. */
export async function enable(ctx: AppContext, actor: AdminActor, sessionId: number, code: string): Promise<string[]> {
  const admin = actor.admin;
  const result = await ctx.db.transaction(async (tx) => {
    const check = await checkCode(tx, ctx.config, admin.id, code, { pending: true, allowRecovery: false });
    if (check.outcome !== 'ok') return { check };
    await tx.update(adminTwoFactor).set({ enabledAt: new Date() }).where(eq(adminTwoFactor.adminId, admin.id));
    const codes = await replaceRecoveryCodes(tx, admin.id);
    const ended = await revokeAdminSessions(tx, admin.id, '2FA turned on', sessionId);
    await writeAudit(tx, actor, { action: 'two_factor_enable', resource: resourceOf(admin), recordId: admin.id, after: { otherSessionsEnded: ended } });
    await mailChange(ctx, tx, admin, 'Two-factor authentication was turned on for your account.');
    return { check, codes };
  });
  if (!result.codes) {
    // No pending enrolment reads as the same wrong-code answer; make it clearer.
    if (result.check.outcome === 'invalid' && !(await hasPending(ctx.db, admin.id))) throw conflict('Start the enrolment first (scan a new QR code)');
    raise(result.check);
  }
  ctx.background(() => ctx.mailer.deliverPending());
  return result.codes!;
}

async function hasPending(db: DbOrTx, adminId: number): Promise<boolean> {
  const [row] = await db.select({ enabledAt: adminTwoFactor.enabledAt }).from(adminTwoFactor).where(eq(adminTwoFactor.adminId, adminId));
  return Boolean(row && !row.enabledAt);
}

/** Turns 2FA off: the password and a current code (or a recovery code). Other sessions end. */
export async function disable(ctx: AppContext, actor: AdminActor, sessionId: number, input: { password: string; code: string }): Promise<void> {
  const admin = actor.admin;
  await assertPassword(admin, input.password);
  if (!(await isTwoFactorEnabled(ctx.db, admin.id))) throw conflict('Two-factor authentication is not on');
  const check = await ctx.db.transaction(async (tx) => {
    const c = await checkCode(tx, ctx.config, admin.id, input.code, { allowRecovery: true });
    if (c.outcome !== 'ok') return c;
    await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, admin.id));
    await tx.delete(adminTwoFactor).where(eq(adminTwoFactor.adminId, admin.id));
    const ended = await revokeAdminSessions(tx, admin.id, '2FA turned off', sessionId);
    await writeAudit(tx, actor, { action: 'two_factor_disable', resource: resourceOf(admin), recordId: admin.id, after: { via: c.via, otherSessionsEnded: ended } });
    await mailChange(ctx, tx, admin, 'Two-factor authentication was turned off for your account.');
    return c;
  });
  raise(check);
  ctx.background(() => ctx.mailer.deliverPending());
}

/** New recovery codes (the old ones stop working): the password and a current code. */
export async function regenerateCodes(ctx: AppContext, actor: AdminActor, input: { password: string; code: string }): Promise<string[]> {
  const admin = actor.admin;
  await assertPassword(admin, input.password);
  if (!(await isTwoFactorEnabled(ctx.db, admin.id))) throw conflict('Two-factor authentication is not on');
  const result = await ctx.db.transaction(async (tx) => {
    const check = await checkCode(tx, ctx.config, admin.id, input.code, { allowRecovery: true });
    if (check.outcome !== 'ok') return { check };
    const codes = await replaceRecoveryCodes(tx, admin.id);
    await writeAudit(tx, actor, { action: 'two_factor_recovery_codes', resource: resourceOf(admin), recordId: admin.id, after: { via: check.via } });
    await mailChange(ctx, tx, admin, 'New recovery codes were made for your account; the old ones no longer work.');
    return { check, codes };
  });
  if (!result.codes) raise(result.check);
  ctx.background(() => ctx.mailer.deliverPending());
  return result.codes!;
}

/** A manager clears a sub-admin's 2FA (lost device): secret and codes gone, sessions end, the admin is told. */
export async function resetTwoFactor(ctx: Pick<AppContext, 'mailer'>, tx: DbOrTx, target: AdminRow): Promise<boolean> {
  const removed = await tx.delete(adminTwoFactor).where(eq(adminTwoFactor.adminId, target.id)).returning({ enabledAt: adminTwoFactor.enabledAt });
  await tx.delete(adminRecoveryCodes).where(eq(adminRecoveryCodes.adminId, target.id));
  await revokeAdminSessions(tx, target.id, '2FA reset by admin');
  const settings = await loadSiteSettings(tx);
  await ctx.mailer.enqueueTemplate(tx, {
    key: 'two_factor_changed',
    to: target.email,
    vars: { name: target.name, email: target.email, change: 'An administrator reset the two-factor authentication of your account; enrol again after signing in.', siteName: settings.siteName },
  });
  return removed.some((r) => r.enabledAt !== null);
}

// ── Sign-in, second step ──

/** The first step's answer for an admin with 2FA on: an opaque single-use challenge, no session. */
export async function createChallenge(tx: DbOrTx, adminId: number, client: { ip: string; userAgent: string }) {
  const token = newToken();
  const expiresAt = new Date(Date.now() + TWO_FACTOR_CHALLENGE_MINUTES * 60_000);
  await tx.insert(twoFactorChallenges).values({ adminId, tokenHash: hashToken(token), expiresAt, ip: client.ip, userAgent: client.userAgent.slice(0, 500) });
  return { twoFactorRequired: true as const, challenge: token, expiresAt: expiresAt.toISOString() };
}

/**
 * Deletes the sign-in challenges whose time is up (used or not): an expired challenge can never
 * be answered, so the row only holds a token hash, an address and a user agent for nothing.
 * Run by the background jobs every few minutes; returns how many rows went.
 */
export async function purgeExpiredChallenges(db: DbOrTx): Promise<number> {
  const gone = await db.delete(twoFactorChallenges).where(lt(twoFactorChallenges.expiresAt, sql`now()`)).returning({ id: twoFactorChallenges.id });
  return gone.length;
}

const EXPIRED_CHALLENGE = 'This sign-in has expired: enter your email and password again';

/** The second step: the challenge and a code (or recovery code) give the session. */
export async function loginTwoFactor(ctx: AppContext, input: { challenge: string; code: string }, client: { ip: string; userAgent: string }) {
  type Out = { outcome: 'expired' } | { outcome: 'check'; check: CodeCheck } | { outcome: 'ok'; mailed: boolean; result: { token: string; expiresAt: string; admin: ReturnType<typeof toAdminDetail> } };
  const where = locateIp(ctx.config.geoipCityDb, client.ip);
  const out: Out = await ctx.db.transaction(async (tx) => {
    const [challenge] = await tx
      .select()
      .from(twoFactorChallenges)
      .where(and(eq(twoFactorChallenges.tokenHash, hashToken(input.challenge)), isNull(twoFactorChallenges.usedAt), gt(twoFactorChallenges.expiresAt, sql`now()`)))
      .for('update');
    if (!challenge) return { outcome: 'expired' };
    const [admin] = await tx.select().from(admins).where(eq(admins.id, challenge.adminId));
    if (admin?.status !== 'active') return { outcome: 'expired' };
    const record = (success: boolean, reason: string | null) =>
      tx.insert(loginHistory).values({ adminId: admin.id, email: admin.email.toLowerCase(), success, reason, ip: client.ip, userAgent: client.userAgent.slice(0, 500), countryCode: where.countryCode, city: where.city });
    const check = await checkCode(tx, ctx.config, admin.id, input.code, { allowRecovery: true });
    if (check.outcome === 'throttled') {
      await record(false, 'throttled');
      return { outcome: 'check', check };
    }
    if (check.outcome === 'invalid') {
      await record(false, 'wrong 2FA code');
      return { outcome: 'check', check };
    }
    await tx.update(twoFactorChallenges).set({ usedAt: new Date() }).where(eq(twoFactorChallenges.id, challenge.id));
    const session = await createSession(tx, ctx.config, { adminId: admin.id, ip: client.ip, userAgent: client.userAgent });
    const [updated] = await tx.update(admins).set({ lastLoginAt: new Date() }).where(eq(admins.id, admin.id)).returning();
    // Same as a one-step sign-in: a country never used before mails the admin (before recording this one).
    const mailed = await mailIfNewCountry(tx, ctx, admin, client, where);
    await record(true, check.via === 'recovery' ? '2FA recovery code' : null);
    return { outcome: 'ok', mailed, result: { token: session.token, expiresAt: session.expiresAt.toISOString(), admin: toAdminDetail(updated ?? admin) } };
  });
  if (out.outcome === 'ok' && out.mailed) ctx.background(() => ctx.mailer.deliverPending());
  if (out.outcome === 'expired') throw new AppError(401, ERROR_CODES.UNAUTHENTICATED, EXPIRED_CHALLENGE, { challenge: EXPIRED_CHALLENGE });
  if (out.outcome === 'check') {
    if (out.check.outcome === 'throttled') throw throttled(out.check.wait);
    throw new AppError(401, ERROR_CODES.UNAUTHENTICATED, INVALID_CODE, { code: INVALID_CODE });
  }
  return out.result;
}
