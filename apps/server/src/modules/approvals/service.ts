import { RESOURCES, type NotificationKind, type RestrictionName } from '@pitboss/contract';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { conflict, forbidden } from '../../http/errors.js';
import { notify } from '../notifications/service.js';
import { admins } from '../sub-admins/table.js';
import { secondApprovals, type SecondApprovalRow } from './table.js';

/** What a two-admin decision is about, and the right both admins must hold. */
export interface ApprovalSubject {
  resource: string;
  recordId: number;
  action: string;
  restriction: RestrictionName;
  right: string;
}

/** Active admins holding a module's named right: every super admin, and sub-admins granted it. */
export const holdsRight = (restriction: RestrictionName, right: string): SQL =>
  sql`(${admins.status} = 'active' and (${admins.role} = 'superadmin' or ${admins.restriction} @> ${JSON.stringify([{ name: restriction, rights: [right] }])}::jsonb))`;

/**
 * Refuses (409, on `field`) to turn on a two-admin control while fewer than two active admins hold
 * its right: the first approval would wait for a second admin who does not exist.
 */
export async function assertTwoApprovers(tx: DbOrTx, restriction: RestrictionName, right: string, field: string): Promise<void> {
  const [row] = await tx.select({ n: count() }).from(admins).where(holdsRight(restriction, right));
  if (Number(row?.n ?? 0) < 2) {
    const message = `Two approvals need two active admins holding ${restriction} › ${right}; there is ${Number(row?.n ?? 0)}`;
    throw conflict(message, { [field]: message });
  }
}

const adminIdOf = (actor: Actor): number => {
  if (actor.kind !== 'admin') throw forbidden('Only an admin can approve');
  return actor.admin.id;
};

/** The open first approval of this record's action, locked; null when none. */
export async function openApproval(tx: DbOrTx, s: Pick<ApprovalSubject, 'resource' | 'recordId' | 'action'>): Promise<SecondApprovalRow | null> {
  const [row] = await tx
    .select()
    .from(secondApprovals)
    .where(and(eq(secondApprovals.resource, s.resource), eq(secondApprovals.recordId, s.recordId), eq(secondApprovals.action, s.action), eq(secondApprovals.status, 'open')))
    .for('update');
  return row ?? null;
}

/**
 * Records a first approval (the caller has moved the record to its waiting state, in the same
 * transaction): audited, and notified to the admins who may view the module.
 */
export async function recordFirstApproval(
  tx: DbOrTx,
  actor: Actor,
  s: ApprovalSubject & { summary: string; link: string; notifyKind: NotificationKind },
): Promise<SecondApprovalRow> {
  const firstAdminId = adminIdOf(actor);
  const [row] = await tx
    .insert(secondApprovals)
    .values({ resource: s.resource, recordId: s.recordId, action: s.action, restriction: s.restriction, right: s.right, summary: s.summary, link: s.link, firstAdminId })
    .returning();
  await notify(tx, {
    kind: s.notifyKind, recordKey: `approval:${row!.id}`, link: '/awaiting-approval',
    title: `Second approval needed: ${s.summary}`,
    body: `${actor.kind === 'admin' ? actor.admin.email : 'An admin'} gave the first approval; another admin holding ${s.restriction} › ${s.right} gives the second.`,
  });
  return row!;
}

/**
 * The second approval of a record waiting for one: refused (403) to the admin who gave the first,
 * whatever their role. Closes the open row as approved.
 */
export async function recordSecondApproval(tx: DbOrTx, actor: Actor, open: SecondApprovalRow): Promise<void> {
  const by = adminIdOf(actor);
  if (by === open.firstAdminId) throw forbidden('You gave the first approval: a second admin must give the other');
  await tx.update(secondApprovals).set({ status: 'approved', decidedBy: by, decidedAt: new Date() }).where(eq(secondApprovals.id, open.id));
}

/** A record waiting for its second approval was rejected (by either admin): its open row closes. */
export async function closeRejected(tx: DbOrTx, actor: Actor, s: Pick<ApprovalSubject, 'resource' | 'recordId' | 'action'>): Promise<void> {
  const open = await openApproval(tx, s);
  if (!open) return;
  await tx.update(secondApprovals).set({ status: 'rejected', decidedBy: actor.kind === 'admin' ? actor.admin.id : null, decidedAt: new Date() }).where(eq(secondApprovals.id, open.id));
}

/** The first approval given to a record's action, latest first (for its page): who and when. */
export async function firstApprovalOf(tx: DbOrTx, resource: string, recordId: number): Promise<{ email: string; at: Date } | null> {
  const [row] = await tx
    .select({ email: admins.email, at: secondApprovals.firstAt })
    .from(secondApprovals)
    .innerJoin(admins, eq(admins.id, secondApprovals.firstAdminId))
    .where(and(eq(secondApprovals.resource, resource), eq(secondApprovals.recordId, recordId)))
    .orderBy(desc(secondApprovals.id))
    .limit(1);
  return row ?? null;
}

/** What a decision's kind is called in the queue ("Withdrawal"). */
export const whatOf = (resource: string): string => RESOURCES[resource]?.label ?? resource;

