import { isSuperAdmin, NOTIFICATION_KINDS, RESTRICTION_NAMES, type NotificationKind, type NotificationRecord } from '@pitboss/contract';
import { and, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { notify as pgNotify } from '../../db/notify.js';
import { notFound } from '../../http/errors.js';
import type { AdminRow } from '../auth/sessions.js';
import { notificationReads, notifications, type NotificationRow } from './table.js';

/** Channel of new notifications (payload: the notification's id), announced when its transaction commits. */
export const NOTIFICATIONS_CHANNEL = 'pitboss_notifications';
/** Channel of read-state changes (payload: the admin's id): that admin's other tabs update their count. */
export const NOTIFICATION_READS_CHANNEL = 'pitboss_notification_reads';

export interface NotifyInput {
  kind: NotificationKind;
  title: string;
  body: string;
  /** The record's page (`/support-reply/12`). */
  link: string;
  /** The record (`ticket:12`): a kind is notified once per record. */
  recordKey: string;
}

/**
 * Writes a notification in the caller's transaction (so it exists exactly when its cause does) and
 * announces it on commit. A kind already notified for the record writes nothing: returns null.
 */
export async function notify(tx: DbOrTx, input: NotifyInput): Promise<NotificationRow | null> {
  const [row] = await tx
    .insert(notifications)
    .values({ ...input, title: input.title.slice(0, 200), body: input.body.slice(0, 1000), restriction: NOTIFICATION_KINDS[input.kind].restriction })
    .onConflictDoNothing({ target: [notifications.kind, notifications.recordKey] })
    .returning();
  if (row) await pgNotify(tx, NOTIFICATIONS_CHANNEL, String(row.id));
  return row ?? null;
}

/** The restriction names whose notifications this admin receives: those they may view. */
export function visibleRestrictions(admin: Pick<AdminRow, 'role' | 'restriction'>): string[] {
  if (isSuperAdmin(admin)) return [...RESTRICTION_NAMES];
  return admin.restriction.filter((e) => e.canView === true).map((e) => e.name);
}

export const canSee = (admin: Pick<AdminRow, 'role' | 'restriction'>, n: Pick<NotificationRow, 'restriction'>) => visibleRestrictions(admin).includes(n.restriction);

const visibleTo = (admin: AdminRow): SQL => {
  const names = visibleRestrictions(admin);
  return names.length ? inArray(notifications.restriction, names) : sql`false`;
};

export function notificationRecord(n: NotificationRow, read: boolean): NotificationRecord {
  return {
    _id: String(n.id), kind: n.kind, restriction: n.restriction as NotificationRecord['restriction'], title: n.title, body: n.body, link: n.link, read,
    createdAt: n.createdAt.toISOString(),
  };
}

/** Unread notifications this admin may see. */
export async function unreadCount(db: DbOrTx, admin: AdminRow): Promise<number> {
  const names = visibleRestrictions(admin);
  if (names.length === 0) return 0;
  const [row] = await queryRows<{ n: string | number }>(db, sql`
    select count(*) as n from notifications n
    where n.restriction in (${sql.join(names.map((x) => sql`${x}`), sql`, `)})
      and not exists (select 1 from notification_reads r where r.notification_id = n.id and r.admin_id = ${admin.id})`);
  return Number(row?.n ?? 0);
}

export async function listNotifications(db: DbOrTx, admin: AdminRow, q: { unread?: 'true' | 'false' | undefined; before?: string | undefined; limit: number }) {
  const read = sql<boolean>`exists (select 1 from notification_reads r where r.notification_id = ${notifications.id} and r.admin_id = ${admin.id})`;
  const rows = await db
    .select({ n: notifications, read })
    .from(notifications)
    .where(and(visibleTo(admin), q.before ? lt(notifications.id, Number(q.before)) : undefined, q.unread === 'true' ? sql`not ${read}` : undefined))
    .orderBy(desc(notifications.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  return {
    items: page.map((r) => notificationRecord(r.n, Boolean(r.read))),
    unread: await unreadCount(db, admin),
    nextCursor: rows.length > q.limit ? String(page[page.length - 1]!.n.id) : null,
  };
}

/** Marks one notification read for this admin (one they may see; others are a 404, as if absent). */
export async function markRead(tx: DbOrTx, admin: AdminRow, id: number): Promise<void> {
  const [n] = Number.isSafeInteger(id) ? await tx.select().from(notifications).where(eq(notifications.id, id)) : [];
  if (!n || !canSee(admin, n)) throw notFound('Notification');
  await tx.insert(notificationReads).values({ notificationId: id, adminId: admin.id }).onConflictDoNothing();
  await pgNotify(tx, NOTIFICATION_READS_CHANNEL, String(admin.id));
}

/** Marks every notification this admin may see read. */
export async function markAllRead(tx: DbOrTx, admin: AdminRow): Promise<void> {
  const names = visibleRestrictions(admin);
  if (names.length === 0) return;
  await tx.execute(sql`
    insert into notification_reads (notification_id, admin_id)
    select n.id, ${admin.id} from notifications n
    where n.restriction in (${sql.join(names.map((x) => sql`${x}`), sql`, `)})
      and not exists (select 1 from notification_reads r where r.notification_id = n.id and r.admin_id = ${admin.id})
    on conflict do nothing`);
  await pgNotify(tx, NOTIFICATION_READS_CHANNEL, String(admin.id));
}
