import { createHash } from 'node:crypto';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { admins, adminSessionAddresses, adminSessions, type loginHistory } from '../../db/schema.js';
import { locateIp, locationLabel } from '../../lib/geoip.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { describeUserAgent } from '../../lib/user-agent.js';

export type AdminRow = typeof admins.$inferSelect;
export type SessionRow = typeof adminSessions.$inferSelect;

export async function createSession(
  tx: DbOrTx,
  config: Config,
  input: { adminId: number; ip: string; userAgent: string },
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + config.sessionMaxHours * 3600_000);
  const where = locateIp(config.geoipCityDb, input.ip);
  const [session] = await tx.insert(adminSessions).values({
    countryCode: where.countryCode,
    city: where.city,
    adminId: input.adminId,
    tokenHash: hashToken(token),
    expiresAt,
    ip: input.ip,
    userAgent: input.userAgent.slice(0, 500),
  }).returning({ id: adminSessions.id });
  if (input.ip !== '') await tx.insert(adminSessionAddresses).values({ sessionId: session!.id, adminId: input.adminId, ip: input.ip });
  return { token, expiresAt };
}

/**
 * When this instance last recorded each (session, address) pair: a request from a known address
 * writes nothing until that record is a touch interval old, one from a new address writes it
 * before it is answered. So an address a session keeps using stays fresh (the blocked-IP rule's
 * 30 days), however the session's own touches fall. Per app, bounded; another instance records the
 * pair too (the write is an idempotent upsert).
 */
export class SessionAddressCache {
  private readonly seen = new Map<string, number>();
  constructor(private readonly max = 50_000) {}
  /** Whether the pair was recorded within the last `freshMs`. */
  isFresh(sessionId: number, ip: string, freshMs: number, now = Date.now()): boolean {
    const at = this.seen.get(`${sessionId} ${ip}`);
    return at !== undefined && now - at < freshMs;
  }
  recorded(sessionId: number, ip: string, now = Date.now()): void {
    if (this.seen.size >= this.max) this.seen.clear();
    this.seen.set(`${sessionId} ${ip}`, now);
  }
}

/** Records that a session was used from `ip` now (first use inserts it, later ones move its last use). */
async function recordSessionAddress(db: DbOrTx, session: Pick<SessionRow, 'id' | 'adminId'>, ip: string): Promise<void> {
  await db
    .insert(adminSessionAddresses)
    .values({ sessionId: session.id, adminId: session.adminId, ip })
    .onConflictDoUpdate({ target: [adminSessionAddresses.sessionId, adminSessionAddresses.ip], set: { lastSeenAt: sql`now()` } });
}

/** How stale `last_seen_at` may get before a request writes it again. */
export function touchIntervalMs(idleMinutes: number): number {
  return Math.min(60_000, (idleMinutes * 60_000) / 10);
}

/**
 * The session and its admin for a bearer token, or null when the token is
 * unknown, revoked, past its absolute lifetime, idle too long, or its admin is
 * disabled. The admin row is read on every request, so a change of rights
 * takes effect on the next call.
 */
export async function authenticateToken(
  db: Db,
  config: Config,
  token: string,
  client: { ip: string; addresses: SessionAddressCache },
): Promise<{ admin: AdminRow; session: SessionRow } | null> {
  if (token.length < 20 || token.length > 200) return null;
  const rows = await db
    .select({ session: adminSessions, admin: admins })
    .from(adminSessions)
    .innerJoin(admins, eq(admins.id, adminSessions.adminId))
    .where(and(eq(adminSessions.tokenHash, hashToken(token)), isNull(adminSessions.revokedAt), gt(adminSessions.expiresAt, sql`now()`)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const now = Date.now();
  if (now - row.session.lastSeenAt.getTime() > config.sessionIdleMinutes * 60_000) {
    await db.update(adminSessions).set({ revokedAt: new Date(), revokeReason: 'idle' }).where(eq(adminSessions.id, row.session.id));
    return null;
  }
  if (row.admin.status !== 'active') return null;
  // Touch at most every tenth of the idle timeout (and at most once a minute): a session in use
  // never looks idle by more than that, and busy admins cost one write a minute, not one a request.
  const touchMs = touchIntervalMs(config.sessionIdleMinutes);
  if (now - row.session.lastSeenAt.getTime() > touchMs) await db.update(adminSessions).set({ lastSeenAt: new Date() }).where(eq(adminSessions.id, row.session.id));
  // Every address the session is used from, at once (the blocked-IP rule reads them), and its last use
  // as often as the session's own (per address).
  if (client.ip !== '' && !client.addresses.isFresh(row.session.id, client.ip, touchMs, now)) {
    await recordSessionAddress(db, row.session, client.ip);
    client.addresses.recorded(row.session.id, client.ip, now);
  }
  return row;
}

/**
 * The admin of a session that is still valid (not revoked, not past its lifetime, not idle too
 * long, its admin active), read afresh, or null. Unlike `authenticateToken` it does not count as
 * use: a long-lived stream re-checks its session with it without keeping the session alive.
 */
export async function liveSessionAdmin(db: Db, config: Config, sessionId: number): Promise<AdminRow | null> {
  const [row] = await db
    .select({ session: adminSessions, admin: admins })
    .from(adminSessions)
    .innerJoin(admins, eq(admins.id, adminSessions.adminId))
    .where(and(eq(adminSessions.id, sessionId), isNull(adminSessions.revokedAt), gt(adminSessions.expiresAt, sql`now()`)))
    .limit(1);
  if (row?.admin.status !== 'active') return null;
  if (Date.now() - row.session.lastSeenAt.getTime() > config.sessionIdleMinutes * 60_000) return null;
  return row.admin;
}

export async function revokeSession(tx: DbOrTx, sessionId: number, reason: string): Promise<void> {
  await tx.update(adminSessions).set({ revokedAt: new Date(), revokeReason: reason }).where(and(eq(adminSessions.id, sessionId), isNull(adminSessions.revokedAt)));
}

/** Ends every live session of an admin, optionally keeping one (the caller's). Returns how many ended. */
export async function revokeAdminSessions(tx: DbOrTx, adminId: number, reason: string, exceptSessionId?: number): Promise<number> {
  const conds = [eq(adminSessions.adminId, adminId), isNull(adminSessions.revokedAt)];
  if (exceptSessionId !== undefined) conds.push(ne(adminSessions.id, exceptSessionId));
  const res = await tx.update(adminSessions).set({ revokedAt: new Date(), revokeReason: reason }).where(and(...conds)).returning({ id: adminSessions.id });
  return res.length;
}

/** A short fingerprint of an admin's rights (role, restriction): what the rights header carries. */
export function rightsFingerprint(a: Pick<AdminRow, 'role' | 'restriction'>): string {
  return createHash('sha256').update(JSON.stringify([a.role, a.role === 'superadmin' ? [] : a.restriction])).digest('base64url').slice(0, 16);
}

export function toAdminDetail(a: AdminRow) {
  return {
    _id: String(a.id),
    name: a.name,
    email: a.email,
    role: a.role,
    restriction: a.role === 'superadmin' ? [] : a.restriction,
    status: a.status,
    lastLoginAt: a.lastLoginAt ? a.lastLoginAt.toISOString() : null,
  };
}

/** A sign-in attempt as the API shows it (own history and sub-admins' history alike). */
export function toLoginHistoryItem(r: typeof loginHistory.$inferSelect) {
  return {
    _id: String(r.id),
    adminId: r.adminId === null ? null : String(r.adminId),
    email: r.email,
    success: r.success,
    reason: r.reason,
    ip: r.ip,
    location: locationLabel(r.ip, r.countryCode, r.city),
    countryCode: r.countryCode,
    device: describeUserAgent(r.userAgent),
    userAgent: r.userAgent,
    createdAt: r.createdAt.toISOString(),
  };
}

/** The live sessions of an admin (not revoked, not past their lifetime, not idle too long), newest first. */
export async function listLiveSessions(tx: DbOrTx, config: Config, adminId: number, currentSessionId: number | null) {
  const rows = await tx
    .select()
    .from(adminSessions)
    .where(
      and(
        eq(adminSessions.adminId, adminId),
        isNull(adminSessions.revokedAt),
        gt(adminSessions.expiresAt, sql`now()`),
        gt(adminSessions.lastSeenAt, new Date(Date.now() - config.sessionIdleMinutes * 60_000)),
      ),
    )
    .orderBy(desc(adminSessions.lastSeenAt), desc(adminSessions.id));
  return rows.map((r) => ({
    _id: String(r.id),
    current: r.id === currentSessionId,
    device: describeUserAgent(r.userAgent),
    userAgent: r.userAgent,
    ip: r.ip,
    location: locationLabel(r.ip, r.countryCode, r.city),
    startedAt: r.createdAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
  }));
}

/** Ends one live session of an admin; false when it is not theirs or already over. */
export async function revokeAdminSession(tx: DbOrTx, adminId: number, sessionId: number, reason: string): Promise<boolean> {
  const res = await tx
    .update(adminSessions)
    .set({ revokedAt: new Date(), revokeReason: reason })
    .where(and(eq(adminSessions.id, sessionId), eq(adminSessions.adminId, adminId), isNull(adminSessions.revokedAt)))
    .returning({ id: adminSessions.id });
  return res.length > 0;
}
