import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { adminActor, type AppContext } from '../../context.js';
import { admins, loginHistory, passwordResets } from '../../db/schema.js';
import { AppError, badRequest, throttled } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { dummyPasswordHash, hashPassword, needsRehash, passwordWeakness, verifyPassword } from '../../lib/passwords.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { RESET_TOKEN_MINUTES, ERROR_CODES } from '@pitboss/contract';
import { createSession, revokeAdminSessions, toAdminDetail } from './sessions.js';
import { locateIp } from '../../lib/geoip.js';
import { mailIfNewCountry } from './located.js';
import { loadSiteSettings } from '../site-settings/service.js';
import { createChallenge, isTwoFactorEnabled } from '../two-factor/service.js';

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

const WINDOW_MS = 15 * 60_000;
const PAIR_FREE_FAILURES = 5;
const ACCOUNT_FREE_FAILURES = 20;
const IP_FREE_FAILURES = 20;
const MAX_DELAY_S = 300;
const KNOWN_IP_DAYS = 30;

interface FailureCount {
  n: number;
  last: Date | null;
}

/** Seconds still to wait: after `free` failures, each further one waits 2^(excess) s from the last failure, capped at 5 min. */
function waitFor({ n, last }: FailureCount, free: number): number {
  if (n < free || !last) return 0;
  const delay = Math.min(2 ** (n - free), MAX_DELAY_S);
  return Math.max(0, Math.ceil((new Date(last).getTime() + delay * 1000 - Date.now()) / 1000));
}

/**
 * Growing delay, never a lock an attacker can impose on someone else:
 * - per (account, IP): 5 free failures since that pair's last success;
 * - per account, from anywhere: 20 free failures, except for an IP that has
 *   signed in to this account before (the owner's usual address still gets in);
 * - per IP, over all accounts: 20 free failures (password spraying).
 * Counted from the login history, so every instance sees the same numbers.
 */
async function throttleDelaySeconds(tx: DbOrTx, email: string, ip: string): Promise<number> {
  const since = new Date(Date.now() - WINDOW_MS);
  const rows = await queryRows<{ scope: string; n: string | number; last: Date | string | null }>(tx, sql`
    with recent as (
      select ip, email, success, created_at from login_history
      where created_at > ${since} and (email = ${email} or ip = ${ip})
        and coalesce(reason, '') <> 'throttled'
    ),
    pair_success as (select max(created_at) as at from recent where email = ${email} and ip = ${ip} and success),
    account_success as (select max(created_at) as at from recent where email = ${email} and success)
    select 'pair' as scope, count(*) as n, max(created_at) as last from recent
      where email = ${email} and ip = ${ip} and not success and created_at > coalesce((select at from pair_success), '-infinity')
    union all
    select 'account', count(*), max(created_at) from recent
      where email = ${email} and not success and created_at > coalesce((select at from account_success), '-infinity')
    union all
    select 'ip', count(*), max(created_at) from recent where ip = ${ip} and not success`);
  const get = (scope: string): FailureCount => {
    const r = rows.find((x) => x.scope === scope);
    return { n: Number(r?.n ?? 0), last: r?.last ? new Date(r.last) : null };
  };
  const known = await queryRows<{ ok: boolean }>(tx, sql`
    select exists (select 1 from login_history where email = ${email} and ip = ${ip} and success
                   and created_at > now() - make_interval(days => ${KNOWN_IP_DAYS})) as ok`);
  return Math.max(
    waitFor(get('pair'), PAIR_FREE_FAILURES),
    known[0]?.ok ? 0 : waitFor(get('account'), ACCOUNT_FREE_FAILURES),
    waitFor(get('ip'), IP_FREE_FAILURES),
  );
}

const INVALID_LOGIN = 'Invalid email or password';

type Attempt =
  | { outcome: 'throttled'; wait: number }
  | { outcome: 'invalid' }
  | { outcome: 'ok'; result: { token: string; expiresAt: string; admin: ReturnType<typeof toAdminDetail> }; mailed: boolean }
  | { outcome: 'challenge'; result: Awaited<ReturnType<typeof createChallenge>> };

export async function login(ctx: AppContext, input: { email: string; password: string }, client: ClientInfo) {
  const [admin] = await ctx.db.select().from(admins).where(eq(sql`lower(${admins.email})`, input.email)).limit(1);
  const where = locateIp(ctx.config.geoipCityDb, client.ip);
  const attempt: Attempt = await ctx.db.transaction(async (tx) => {
    // Attempts on one account, and from one IP, run one at a time: parallel
    // guesses see each other's failures instead of all reading the same count.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`login:email:${input.email}`}, 0))`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`login:ip:${client.ip}`}, 0))`);
    const record = (success: boolean, reason: string | null) =>
      tx.insert(loginHistory).values({ adminId: admin?.id ?? null, email: input.email, success, reason, ip: client.ip, userAgent: client.userAgent.slice(0, 500), countryCode: where.countryCode, city: where.city });
    const wait = await throttleDelaySeconds(tx, input.email, client.ip);
    if (wait > 0) {
      await record(false, 'throttled');
      return { outcome: 'throttled', wait };
    }
    // The hasher runs whether or not the email is known: same answer, same time.
    const valid = await verifyPassword(admin?.passwordHash ?? (await dummyPasswordHash()), input.password);
    if (!admin || !valid || admin.status !== 'active') {
      await record(false, !admin ? 'unknown email' : !valid ? 'wrong password' : 'disabled');
      return { outcome: 'invalid' };
    }
    const rehash = needsRehash(admin.passwordHash) ? await hashPassword(input.password) : null;
    // 2FA on: no session yet, only a short-lived challenge for the second step (which records the sign-in).
    if (await isTwoFactorEnabled(tx, admin.id)) {
      if (rehash) await tx.update(admins).set({ passwordHash: rehash }).where(eq(admins.id, admin.id));
      return { outcome: 'challenge', result: await createChallenge(tx, admin.id, client) };
    }
    const session = await createSession(tx, ctx.config, { adminId: admin.id, ip: client.ip, userAgent: client.userAgent });
    const set: Partial<typeof admins.$inferInsert> = { lastLoginAt: new Date() };
    if (rehash) set.passwordHash = rehash;
    const [updated] = await tx.update(admins).set(set).where(eq(admins.id, admin.id)).returning();
    const mailed = await mailIfNewCountry(tx, ctx, admin, client, where);
    await record(true, null);
    return { outcome: 'ok', mailed, result: { token: session.token, expiresAt: session.expiresAt.toISOString(), admin: toAdminDetail(updated ?? admin) } };
  });
  if (attempt.outcome === 'ok' && attempt.mailed) ctx.background(() => ctx.mailer.deliverPending());
  if (attempt.outcome === 'throttled') throw throttled(attempt.wait);
  if (attempt.outcome === 'invalid') throw new AppError(401, ERROR_CODES.UNAUTHENTICATED, INVALID_LOGIN);
  return attempt.result;
}

export const FORGOT_MESSAGE = 'If this email belongs to an admin, a link to reset the password has been sent.';

export async function requestPasswordReset(ctx: AppContext, email: string, client: ClientInfo): Promise<void> {
  const [admin] = await ctx.db.select().from(admins).where(eq(sql`lower(${admins.email})`, email)).limit(1);
  if (admin?.status !== 'active') return;
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
  await ctx.mailer.deliverPending();
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

/** Refuses a guessable password; `context` is what an attacker knows of the account (name, email). */
export function assertAcceptablePassword(password: string, field: string, context: string[] = []): void {
  const weakness = passwordWeakness(password, context);
  if (weakness) throw badRequest(`This password is too easy to guess: ${weakness.charAt(0).toLowerCase()}${weakness.slice(1)}`, { [field]: weakness });
}

export async function resetPassword(ctx: AppContext, input: { token: string; password: string }, client: ClientInfo): Promise<void> {
  // The cheap lookup comes first: an unknown token costs no password hashing.
  const found = await findUsableReset(ctx, input.token);
  const [owner] = found ? await ctx.db.select().from(admins).where(eq(admins.id, found.adminId)) : [];
  if (!found || !owner || owner.status !== 'active') throw badRequest(INVALID_TOKEN, { token: INVALID_TOKEN });
  assertAcceptablePassword(input.password, 'password', [owner.name, owner.email]);
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
    await writeAudit(tx, adminActor(owner, client.ip), { action: 'password_reset', resource: owner.role === 'superadmin' ? 'admins' : 'sub-admins', recordId: reset.adminId });
  });
}
