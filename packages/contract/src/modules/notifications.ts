import { z } from 'zod';
import { ACCOUNT_ACCESS, endpoint, readAccess } from '../resources/endpoint.js';
import { idParam, recordFields } from '../resources/spec.js';
import { RESTRICTION_NAMES } from '../restrictions.js';

// ── Notifications (the bell, `/notification`) ──────────────────────────────
/**
 * What an admin is told about, each with the restriction name an admin must be able to view to
 * receive it. Event kinds are written with their cause (same transaction); condition kinds by the
 * notifications job, once per record.
 */
export const NOTIFICATION_KINDS = {
  ticket_new: { label: 'New support ticket', restriction: 'Support Ticket' },
  ticket_waiting: { label: 'Ticket waiting for an answer', restriction: 'Support Ticket' },
  withdrawal_review: { label: 'Withdrawal awaiting review', restriction: 'Withdraw' },
  withdrawal_second_approval: { label: 'Withdrawal awaiting a second approval', restriction: 'Withdraw' },
  adjustment_second_approval: { label: 'Balance adjustment awaiting a second approval', restriction: 'Users' },
  resolution_second_approval: { label: 'Market resolution awaiting confirmation', restriction: 'Markets' },
  market_unresolved: { label: 'Market closed and unresolved', restriction: 'Markets' },
  large_deposit: { label: 'Large deposit', restriction: 'Deposit' },
  reconciliation_mismatch: { label: 'Reconciliation mismatch', restriction: 'Reconciliation' },
  mail_failed: { label: 'Mail could not be sent', restriction: 'Email Templates' },
} as const;
export type NotificationKind = keyof typeof NOTIFICATION_KINDS;
export const NOTIFICATION_KIND_VALUES = Object.keys(NOTIFICATION_KINDS) as [NotificationKind, ...NotificationKind[]];

export const notificationRecord = z.object({
  _id: recordFields.id,
  kind: z.enum(NOTIFICATION_KIND_VALUES),
  /** The restriction name needed to see it (and the record it links to). */
  restriction: z.enum(RESTRICTION_NAMES),
  title: z.string(),
  body: z.string(),
  /** The page of the record (`/support-reply/12`). */
  link: z.string(),
  read: z.boolean(),
  createdAt: recordFields.at,
}).strict();
export type NotificationRecord = z.infer<typeof notificationRecord>;

export const notificationListQuery = z.object({
  /** `true`: unread only. */
  unread: z.enum(['true', 'false']).optional(),
  /** Older than this notification (the previous page's `nextCursor`). */
  before: recordFields.id.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(30),
}).strict();

export const notificationList = z.object({
  items: z.array(notificationRecord),
  /** Unread notifications this admin may see, in all. */
  unread: z.number().int(),
  nextCursor: recordFields.id.nullable(),
}).strict();

export const notificationCount = z.object({ unread: z.number().int() }).strict();

/** The stream's events: name → the JSON its `data` carries. */
export const NOTIFICATION_EVENTS = {
  /** First event of every connection, and whenever the count changes (read elsewhere, a new one). */
  count: notificationCount,
  /** A notification this admin may see was just written. */
  notification: z.object({ item: notificationRecord, unread: z.number().int() }),
  /** The server ends the stream: the session ended or the right was withdrawn (`status` as an API call would answer), or the server stops. */
  end: z.object({ reason: z.string(), status: z.number().int() }),
} as const;
export type NotificationEventName = keyof typeof NOTIFICATION_EVENTS;

export const notificationEndpoints = {
  notificationList: endpoint('GET /api/admin/notifications', {
    access: readAccess('Notification'),
    summary: 'My notifications, newest first: those of the modules I may view, with my read state',
    query: notificationListQuery,
    result: notificationList,
  }),
  notificationStream: endpoint('GET /api/admin/notifications/stream', {
    access: readAccess('Notification'),
    summary: 'Server-sent events: my unread count and each new notification I may see (text/event-stream; send the session token in the Authorization header)',
    stream: 'event-stream',
  }),
  // Read state is the admin's own (like their sessions): any signed-in admin may mark what they can see.
  notificationMarkRead: endpoint('POST /api/admin/notifications/:id/read', {
    access: ACCOUNT_ACCESS,
    summary: 'Marks one of my notifications read',
    params: idParam,
    result: notificationCount,
  }),
  notificationMarkAllRead: endpoint('POST /api/admin/notifications/read-all', {
    access: ACCOUNT_ACCESS,
    summary: 'Marks every notification I may see read',
    result: notificationCount,
  }),
};
