import { isCountryCode, userStates } from '@pitboss/contract';
import { isIP } from 'node:net';
import { eq } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { pgError } from '../ledger/errors.js';
import { FieldErrors, requireAddress, requireReason } from '../ledger/input.js';
import { assertBackOffice } from '../ledger/service.js';
import { defineSubject, transition } from '../../resources/transition.js';
import { admins } from '../sub-admins/table.js';
import { undoRefusal } from '../sub-admins/service.js';
import { tradeBots } from '../trade-bots/table.js';
import { users, type UserRow } from './table.js';


export interface CreateUserInput {
  username: string;
  email: string;
  walletAddress?: string | null;
  country?: string | null;
  signupIp?: string;
  emailVerified?: boolean;
}

const USERNAME = /^[A-Za-z0-9_.-]{3,32}$/;
// Deliberately plain: one @, no spaces, a dot in the domain. The mail round trip is the real check.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the audit log keeps of a user. */
export function userAuditView(u: UserRow) {
  return {
    username: u.username, email: u.email, walletAddress: u.walletAddress, status: u.status, blockedReason: u.blockedReason,
    emailVerified: u.emailVerified, house: u.house, country: u.country, signupIp: u.signupIp,
  };
}

const TAKEN: Record<string, [string, string]> = {
  users_username_lower_uq: ['username', 'This username is taken'],
  users_email_lower_uq: ['email', 'This email is already used by another user'],
  users_wallet_uq: ['walletAddress', 'This wallet belongs to another user'],
};

/** A platform user. Username and email are unique whatever their case; the wallet is unique too. */
export async function createUser(tx: DbOrTx, actor: Actor, input: CreateUserInput): Promise<UserRow> {
  const errors = new FieldErrors();
  const username = typeof input.username === 'string' ? input.username.trim() : '';
  if (!USERNAME.test(username)) errors.add('username', '3–32 letters, digits, dots, dashes or underscores');
  const email = typeof input.email === 'string' ? input.email.trim() : '';
  if (email.length > 254 || !EMAIL.test(email)) errors.add('email', 'Enter a valid email address');
  const walletAddress = input.walletAddress ? requireAddress(errors, input.walletAddress, 'walletAddress') : null;
  const country = input.country ? input.country.trim().toUpperCase() : null;
  if (country !== null && !isCountryCode(country)) errors.add('country', 'Enter an ISO 3166 two-letter country code');
  const signupIp = input.signupIp?.trim() ?? '';
  if (signupIp && !isIP(signupIp)) errors.add('signupIp', 'Enter an IP address');
  errors.throwIfAny();
  try {
    const [row] = await tx
      .insert(users)
      .values({ username, email, walletAddress, country, signupIp, emailVerified: input.emailVerified ?? false })
      .returning();
    await writeAudit(tx, actor, { action: 'create', resource: 'users', recordId: row!.id, after: userAuditView(row!) });
    return row!;
  } catch (err) {
    const e = pgError(err);
    const taken = e?.code === '23505' && e.constraint ? TAKEN[e.constraint] : undefined;
    if (taken) throw conflict(taken[1], { [taken[0]]: taken[1] });
    throw err;
  }
}

/** A user's moves (block, unblock): through its declared machine, audited with `userAuditView`. */
export const userSubject = defineSubject({ resource: 'users', table: users, machine: userStates, view: (row) => userAuditView(row) });

/** The user row, locked for the rest of the transaction (state changes check the state they lock). */
export async function lockUser(tx: DbOrTx, id: number): Promise<UserRow> {
  const [row] = Number.isSafeInteger(id) ? await tx.select().from(users).where(eq(users.id, id)).for('update') : [];
  if (!row) throw notFound('User');
  return row;
}

export async function loadUser(tx: DbOrTx, id: number): Promise<UserRow> {
  const [row] = Number.isSafeInteger(id) ? await tx.select().from(users).where(eq(users.id, id)) : [];
  if (!row) throw notFound('User');
  return row;
}

/** Blocks a user (they keep their balances; withdrawals are refused). 409 when already blocked. */
export async function blockUser(tx: DbOrTx, actor: Actor, id: number, input: { reason: string }): Promise<UserRow> {
  assertBackOffice(actor, 'block users');
  const errors = new FieldErrors();
  const reason = requireReason(errors, input.reason, 'reason');
  errors.throwIfAny();
  const { after } = await transition(tx, actor, userSubject, id, 'block', {
    set: { blockedReason: reason, blockedAt: new Date(), blockedBy: actor.kind === 'admin' ? actor.admin.id : null, updatedAt: new Date() },
  });
  return after;
}

/**
 * A block is undone as an admin's disable is (`undoRefusal`): by the admin who made it or an admin
 * above them, a super admin's only by a super admin. A block by no admin (the system) any admin
 * with the right may lift.
 */
async function assertMayUnblock(tx: DbOrTx, actor: Actor, user: UserRow): Promise<void> {
  if (actor.kind !== 'admin' || user.blockedBy === null) return;
  const [by] = await tx.select().from(admins).where(eq(admins.id, user.blockedBy)).limit(1);
  const refusal = by ? await undoRefusal(tx, actor.admin, by) : null;
  if (refusal === 'super admin') throw forbidden('A super admin blocked this user: only a super admin can unblock them');
  if (refusal) throw forbidden(`${by!.email} blocked this user: only they or an admin above them can unblock them`);
}

/** Unblocks a user. 409 when the user is not blocked; 403 when another admin's block is not the actor's to undo. */
export async function unblockUser(tx: DbOrTx, actor: Actor, id: number): Promise<UserRow> {
  assertBackOffice(actor, 'unblock users');
  const { after } = await transition(tx, actor, userSubject, id, 'unblock', {
    check: (before) => assertMayUnblock(tx, actor, before),
    set: { blockedReason: null, blockedAt: null, blockedBy: null, updatedAt: new Date() },
  });
  return after;
}

/**
 * Makes a user a house account (the platform's own, which trade bots trade as) or a customer's
 * again, with a reason, audited. 409 when it already is; a customer again is refused while a trade
 * bot trades as the user (stop and move the bot first).
 */
export async function setHouseAccount(tx: DbOrTx, actor: Actor, id: number, input: { house: boolean; reason: string }): Promise<UserRow> {
  assertBackOffice(actor, 'change house accounts');
  const errors = new FieldErrors();
  const reason = requireReason(errors, input.reason, 'reason');
  errors.throwIfAny();
  const before = await lockUser(tx, id);
  if (before.house === input.house) throw conflict(input.house ? `${before.username} is already a house account` : `${before.username} is already a customer account`);
  if (!input.house) {
    const [bot] = await tx.select({ name: tradeBots.name }).from(tradeBots).where(eq(tradeBots.userId, id)).limit(1);
    if (bot) throw conflict(`Trade bot ${bot.name} trades as ${before.username}: move the bot to another house account first`);
  }
  const [row] = await tx.update(users).set({ house: input.house, updatedAt: new Date() }).where(eq(users.id, id)).returning();
  await writeAudit(tx, actor, { action: input.house ? 'make-house' : 'make-customer', resource: 'users', recordId: id, before: userAuditView(before), after: { ...userAuditView(row!), reason } });
  return row!;
}
