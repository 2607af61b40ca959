import { firstExceedingGrant, isSuperAdmin, type RestrictionEntry } from '@pitboss/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AdminActor } from '../../context.js';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { admins, passwordResets } from '../../db/schema.js';
import { conflict, forbidden, notFound, uniqueViolation } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { hashPassword } from '../../lib/passwords.js';
import { assertAcceptablePassword } from '../auth/service.js';
import { revokeAdminSessions, type AdminRow } from '../auth/sessions.js';
import type { Mailer } from '../../mail/mailer.js';
import { resetTwoFactor } from '../two-factor/service.js';

/** What the audit log keeps of an admin account: the fields an admin edits, never the password hash. */
function auditView(a: AdminRow) {
  return { name: a.name, email: a.email, status: a.status, restriction: a.restriction };
}

/**
 * A sub-admin may only grant what they hold themselves: with "Sub Admin" edit
 * they can manage others, but never hand out (or keep for a puppet account)
 * rights above their own.
 */
export function assertCanGrant(granter: AdminRow, grants: RestrictionEntry[], purpose: 'grant' | 'manage' = 'grant'): void {
  if (isSuperAdmin(granter)) return;
  const g = firstExceedingGrant(granter, grants);
  if (g) {
    throw forbidden(
      purpose === 'grant'
        ? `You cannot grant "${g.name}" rights you do not hold yourself`
        : `This admin holds "${g.name}" rights you do not have, so only an admin who has them can change this account`,
    );
  }
}

/** Whether `ancestorId` created `adminId`, directly or through admins it created. */
async function isBelow(tx: DbOrTx, adminId: number, ancestorId: number): Promise<boolean> {
  const rows = await queryRows<{ hit: number }>(tx, sql`
    with recursive tree(id) as (
      select id from admins where created_by = ${ancestorId}
      union
      select a.id from admins a join tree t on a.created_by = t.id
    )
    select 1 as hit from tree where id = ${adminId} limit 1`);
  return rows.length > 0;
}

/**
 * Why `actor` may not undo a decision `by` made (a disable, a user's block), or null when they may:
 * a decision is undone only by the admin who made it or an admin above them (who created them,
 * directly or through admins they created); a super admin's only by a super admin.
 */
export async function undoRefusal(tx: DbOrTx, actor: AdminRow, by: AdminRow): Promise<'super admin' | 'another admin' | null> {
  if (isSuperAdmin(actor) || by.id === actor.id) return null;
  if (isSuperAdmin(by)) return 'super admin';
  return (await isBelow(tx, by.id, actor.id)) ? null : 'another admin';
}

/**
 * Whether the actor may change an admin account (profile, rights, status, password, sessions).
 * A super admin may change any. A sub-admin may change only accounts they created (directly or
 * through admins they created) that hold no right they lack. A disable is undone only by the admin
 * who made it or one above them: a super admin's disable locks the account to super admins.
 */
export async function assertCanManage(tx: DbOrTx, actor: AdminRow, target: AdminRow): Promise<void> {
  if (isSuperAdmin(actor)) return;
  if (!(await isBelow(tx, target.id, actor.id))) {
    throw forbidden('You can manage only the admins you created (or that admins you created created)');
  }
  assertCanGrant(actor, target.restriction, 'manage');
  if (target.status === 'disabled') {
    const [by] = target.disabledBy === null ? [] : await tx.select().from(admins).where(eq(admins.id, target.disabledBy)).limit(1);
    // A disable by nobody known is a super admin's.
    const refusal = by === undefined ? 'super admin' : await undoRefusal(tx, actor, by);
    if (refusal) {
      throw forbidden(
        refusal === 'super admin'
          ? 'A super admin disabled this admin: only a super admin can change the account'
          : `${by!.email} disabled this admin: only they or an admin above them can change the account`,
      );
    }
  }
}

const EMAIL_TAKEN = 'This email is already used by another admin';

export async function createSubAdmin(
  tx: DbOrTx,
  actor: AdminActor,
  input: { name: string; email: string; password: string; restriction: RestrictionEntry[]; status: 'active' | 'disabled' },
) {
  assertCanGrant(actor.admin, input.restriction);
  assertAcceptablePassword(input.password, 'password', [input.name, input.email]);
  const passwordHash = await hashPassword(input.password);
  try {
    // The role is never taken from input: this path only ever makes sub-admins.
    const [row] = await tx
      .insert(admins)
      .values({
        name: input.name, email: input.email, passwordHash, role: 'subadmin', restriction: input.restriction, status: input.status,
        createdBy: actor.admin.id, disabledBy: input.status === 'disabled' ? actor.admin.id : null,
      })
      .returning();
    await writeAudit(tx, actor, { action: 'create', resource: 'sub-admins', recordId: row!.id, after: auditView(row!) });
    return row!.id;
  } catch (err) {
    if (uniqueViolation(err)) throw conflict(EMAIL_TAKEN, { email: EMAIL_TAKEN });
    throw err;
  }
}

export async function loadSubAdmin(tx: DbOrTx, id: number): Promise<AdminRow> {
  const [row] = await tx.select().from(admins).where(and(eq(admins.id, id), eq(admins.role, 'subadmin'))).limit(1);
  if (!row) throw notFound('Sub-admin');
  return row;
}


export async function updateSubAdmin(
  tx: DbOrTx,
  actor: AdminActor,
  id: number,
  patch: { name?: string | undefined; email?: string | undefined; restriction?: RestrictionEntry[] | undefined; status?: 'active' | 'disabled' | undefined },
) {
  if (id === actor.admin.id && (patch.restriction !== undefined || patch.status !== undefined)) {
    throw forbidden('You cannot change your own rights or status');
  }
  const before = await loadSubAdmin(tx, id);
  if (patch.restriction) assertCanGrant(actor.admin, patch.restriction);
  await assertCanManage(tx, actor.admin, before);
  const set: Partial<typeof admins.$inferInsert> = { updatedAt: new Date() };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.email !== undefined) set.email = patch.email;
  if (patch.restriction !== undefined) set.restriction = patch.restriction;
  if (patch.status !== undefined && patch.status !== before.status) {
    set.status = patch.status;
    set.disabledBy = patch.status === 'disabled' ? actor.admin.id : null;
  }
  let row: AdminRow;
  try {
    [row] = (await tx.update(admins).set(set).where(eq(admins.id, id)).returning()) as [AdminRow];
  } catch (err) {
    if (uniqueViolation(err)) throw conflict(EMAIL_TAKEN, { email: EMAIL_TAKEN });
    throw err;
  }
  // Rights are read on every request, so a new restriction applies at once; disabling ends the sessions.
  if (patch.status === 'disabled' && before.status !== 'disabled') {
    await revokeAdminSessions(tx, id, 'disabled');
    await tx.update(passwordResets).set({ usedAt: new Date() }).where(and(eq(passwordResets.adminId, id), isNull(passwordResets.usedAt)));
  }
  await writeAudit(tx, actor, { action: 'update', resource: 'sub-admins', recordId: id, before: auditView(before), after: auditView(row) });
}

/** Sets a sub-admin's password (checked for strength) and ends their sessions. */
export async function setSubAdminPassword(tx: DbOrTx, actor: AdminActor, id: number, password: string): Promise<number> {
  const target = await loadSubAdmin(tx, id);
  await assertCanManage(tx, actor.admin, target);
  assertAcceptablePassword(password, 'password', [target.name, target.email]);
  const passwordHash = await hashPassword(password);
  await tx.update(admins).set({ passwordHash, passwordChangedAt: new Date(), updatedAt: new Date() }).where(eq(admins.id, target.id));
  return revokeAdminSessions(tx, target.id, 'password set by admin');
}

/** Ends every session of a sub-admin the actor may manage. */
export async function endSubAdminSessions(tx: DbOrTx, actor: AdminActor, id: number): Promise<number> {
  const target = await loadSubAdmin(tx, id);
  await assertCanManage(tx, actor.admin, target);
  return revokeAdminSessions(tx, target.id, 'ended by admin');
}

/** Clears a sub-admin's 2FA (lost device) for an admin who may manage them; their sessions end and they get a mail. */
export async function resetSubAdminTwoFactor(tx: DbOrTx, mailer: Mailer, actor: AdminActor, id: number): Promise<boolean> {
  const target = await loadSubAdmin(tx, id);
  await assertCanManage(tx, actor.admin, target);
  return resetTwoFactor({ mailer }, tx, target);
}
