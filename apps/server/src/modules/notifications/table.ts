import { NOTIFICATION_KIND_VALUES, type NotificationKind } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, ref, ts } from '../../db/columns.js';
import { admins } from '../sub-admins/table.js';

const list = (xs: readonly string[]) => sql.raw(xs.map((x) => `'${x}'`).join(','));

/**
 * Something admins are told about. `restriction` is the restriction name an admin must be able to
 * view to receive it; `record_key` (`ticket:12`) makes each kind once per record.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    kind: text('kind').notNull().$type<NotificationKind>(),
    restriction: text('restriction').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link').notNull(),
    recordKey: text('record_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notifications_kind_record_uq').on(t.kind, t.recordKey),
    index('notifications_restriction_idx').on(t.restriction, t.id),
    check('notifications_kind_ck', sql`${t.kind} in (${list(NOTIFICATION_KIND_VALUES)})`),
  ],
);
export type NotificationRow = typeof notifications.$inferSelect;

/** One admin has read one notification. */
export const notificationReads = pgTable(
  'notification_reads',
  {
    notificationId: ref('notification_id').notNull().references(() => notifications.id, { onDelete: 'cascade' }),
    adminId: ref('admin_id').notNull().references(() => admins.id, { onDelete: 'cascade' }),
    readAt: ts('read_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.adminId, t.notificationId] })],
);
