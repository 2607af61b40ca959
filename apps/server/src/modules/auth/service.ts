import { and, count, desc, eq, gt, isNull, max, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { admins, loginHistory, passwordResets } from '../../db/schema.js';
import { AppError, badRequest, throttled } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { dummyPasswordHash, hashPassword, isCommonPassword, needsRehash, verifyPassword } from '../../lib/passwords.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { RESET_TOKEN_MINUTES, ERROR_CODES } from '@pitboss/contract';
import { createSession, revokeAdminSessions, toAdminDetail } from './sessions.js';
import { loadSiteSettings } from '../site-settings/routes.js';

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

const WINDOW_MS = 15 * 60_000;
const ACCOUNT_FREE_FAILURES = 5;
const IP_FREE_FAILURES = 20;
const MAX_DELAY_S = 300;

/**
 * Growing delay, never a lock: after N free failures in the window, each
 * further attempt must wait 2^(excess−1) s (capped at 5 min) after the last
 * failure. Counted per account and per IP from the login history, so every
 * instance sees the same count.
 */
async function throttleDelaySeconds(ctx: AppContext, email: string, ip: string): Promise<number> {
  const since = new Date(Date.now() - WINDOW_MS);
  const failureFilter = and(eq(loginHistory.success, false), gt(loginHistory.createdAt, since), sql`coalesce(${loginHistory.reason}, '') <> 'throttled'`);
  const lastSuccess = ctx.db
    .select({ at: max(loginHistory.createdAt) })
    .from(loginHistory)
    .where(and(eq(loginHistory.email, email), eq(loginHistory.success, true)));
  const [byEmail] = await ctx.db
    .select({ n: count(), last: max(loginHistory.createdAt) })
    .from(loginHistory)
    .where(and(eq(loginHistory.email, email), failureFilter, sql`${loginHistory.createdAt} > coalesce((${lastSuccess}), '-infinity'::timestamptz)`));
  const [byIp] = await ctx.db.select({ n: count(), last: max(loginHistory.createdAt) }).from(loginHistory).where(and(eq(loginHistory.ip, ip), failureFilter));
  const wait = (n: number, free: number, last: Date | null) => {
    if (n < free || !last) return 0;
    const delay = Math.min(2 ** (n - free), MAX_DELAY_S);
    const left = Math.ceil((new Date(last).getTime() + delay * 1000 - Date.now()) / 1000);
    return Math.max(0, left);
  };
  return Math.max(wait(Number(byEmail?.n ?? 0), ACCOUNT_FREE_FAILURES, byEmail?.last ?? null), wait(Number(byIp?.n ?? 0), IP_FREE_FAILURES, byIp?.last ?? null));
}

const INVALID_LOGIN = 'Invalid email or password';

export async function login(ctx: AppContext, input: { email: string; password: string }, client: ClientInfo) {
  const record = (success: boolean, reason: string | null, adminId: number | null) =>
    ctx.db.insert(loginHistory).values({ adminId, email: input.email, success, reason, ip: client.ip, userAgent: client.userAgent.slice(0, 500) });

  const wait = await throttleDelaySeconds(ctx, input.email, client.ip);
  if (wait > 0) {
    await record(false, 'throttled', null);
    throw throttled(wait);
  }
  const [admin] = await ctx.db.select().from(admins).where(eq(sql`lower(${admins.email})`, input.email)).limit(1);
  // The hasher runs whether or not the email is known: same answer, same time.
  const valid = await verifyPassword(admin?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!admin || !valid) {
    await record(false, admin ? 'wrong password' : 'unknown email', admin?.id ?? null);
    throw new AppError(401, ERROR_CODES.UNAUTHENTICATED, INVALID_LOGIN);
  }
  if (admin.status !== 'active') {
    await record(false, 'disabled', admin.id);
    throw new AppError(401, ERROR_CODES.UNAUTHENTICATED, INVALID_LOGIN);
  }
  const rehash = needsRehash(admin.passwordHash) ? await hashPassword(input.password) : null;
  return ctx.db.transaction(async (tx) => {
    const session = await createSession(tx, ctx.config, { adminId: admin.id, ip: client.ip, userAgent: client.userAgent });
    const set: Partial<typeof admins.$inferInsert> = { lastLoginAt: new Date() };
    if (rehash) set.passwordHash = rehash;
    const [updated] = await tx.update(admins).set(set).where(eq(admins.id, admin.id)).returning();
    await tx.insert(loginHistory).values({ adminId: admin.id, email: input.email, success: true, ip: client.ip, userAgent: client.userAgent.slice(0, 500) });
    return { token: session.token, expiresAt: session.expiresAt.toISOString(), admin: toAdminDetail(updated ?? admin) };
  });
}

export const FORGOT_MESSAGE = 'If this email belongs to an admin, a link to reset the password has been sent.';

export async function requestPasswordReset(ctx: AppContext, email: string, client: ClientInfo): Promise<void> {
  const [admin] = await ctx.db.select().from(admins).where(eq(sql`lower(${admins.email})`, email)).limit(1);
  if (!admin || admin.status !== 'active') {
    await dummyPasswordHash();
    return;
  }
  // At most one mail a minute per admin: the reset form can't be turned into a mail cannon.
  const [recent] = await ctx.db
    .select({ n: count() })
    .from(passwordResets)
    .where(and(eq(passwordResets.adminId, admin.id), gt(passwordResets.createdAt, new Date(Date.now() - 60_000))));
  if (Number(recent?.n ?? 0) > 0) return;
  const token = newToken();
  const link = `${ctx.config.publicUrl}/verification/forgotPassword?token=${encodeURIComponent(token)}`;
  await ctx.db.transaction(async (tx) => {
    await tx.insert(passwordResets).values({
      adminId: admin.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + RESET_TOKEN_MINUTES * 60_000),
      ip: client.ip,
    });
    await ctx.mailer.enqueueTemplate(tx, {
      key: 'forgot_password',
      to: admin.email,
      vars: { name: admin.name, email: admin.email, link, expiresInMinutes: String(RESET_TOKEN_MINUTES), siteName: (await loadSiteSettings(tx)).siteName },
    });
  });
  if (!ctx.config.smtpUrl) ctx.log.info(`Password reset link for ${admin.email}: ${link}`);
  void ctx.mailer.deliverPending();
}

const INVALID_TOKEN = 'This reset link is invalid or has expired. Ask for a new one.';

async function findUsableReset(ctx: AppContext, token: string) {
  const [row] = await ctx.db
    .select()
    .from(passwordResets)
    .where(and(eq(passwordResets.tokenHash, hashToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)))
    .limit(1);
  return row ?? null;
}

export async function checkResetToken(ctx: AppContext, token: string): Promise<void> {
  if (!(await findUsableReset(ctx, token))) throw badRequest(INVALID_TOKEN, { token: INVALID_TOKEN });
}

export function assertAcceptablePassword(password: string, field: string): void {
  if (isCommonPassword(password)) throw badRequest('This password is too common', { [field]: 'This password is too common, choose another one' });
}

export async function resetPassword(ctx: AppContext, input: { token: string; password: string }, client: ClientInfo): Promise<void> {
  assertAcceptablePassword(input.password, 'password');
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction(async (tx) => {
    // Claim the token atomically: a second use (or a concurrent one) finds nothing.
    const [reset] = await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.tokenHash, hashToken(input.token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)))
      .returning();
    if (!reset) throw badRequest(INVALID_TOKEN, { token: INVALID_TOKEN });
    await tx.update(admins).set({ passwordHash, passwordChangedAt: new Date(), updatedAt: new Date() }).where(eq(admins.id, reset.adminId));
    // Other outstanding reset links die with this one.
    await tx.update(passwordResets).set({ usedAt: new Date() }).where(and(eq(passwordResets.adminId, reset.adminId), isNull(passwordResets.usedAt)));
    await revokeAdminSessions(tx, reset.adminId, 'password reset');
    const [admin] = await tx.select().from(admins).where(eq(admins.id, reset.adminId));
    await writeAudit(tx, { adminId: reset.adminId, email: admin?.email ?? '', ip: client.ip }, { action: 'password_reset', resource: 'admins', recordId: reset.adminId });
  });
}

export async function lastLogins(ctx: AppContext, adminId: number, limit: number) {
  return ctx.db.select().from(loginHistory).where(eq(loginHistory.adminId, adminId)).orderBy(desc(loginHistory.createdAt)).limit(limit);
}
