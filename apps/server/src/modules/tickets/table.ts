import { TICKET_ATTACHMENT_TYPES, TICKET_PRIORITIES, ticketStates, type TicketPriority, type TicketStatus } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, ref, ts, updatedAt } from '../../db/columns.js';
import { statusCheck } from '../../db/states.js';
import { admins } from '../sub-admins/table.js';
import { supportCategories } from '../support-categories/table.js';
import { users } from '../users/table.js';

const list = (xs: readonly string[]) => sql.raw(xs.map((x) => `'${x}'`).join(','));

/**
 * A support ticket: a user's question and its conversation. `waiting_since` is set while the
 * ticket waits for the support team (open) and cleared by a reply or closing; the list's "waiting
 * longest" sort and the waiting notification read it.
 */
export const tickets = pgTable(
  'tickets',
  {
    id: id(),
    userId: ref('user_id').notNull().references(() => users.id),
    categoryId: ref('category_id').references(() => supportCategories.id),
    subject: text('subject').notNull(),
    priority: text('priority').notNull().$type<TicketPriority>().default('normal'),
    status: text('status').notNull().$type<TicketStatus>().default('open'),
    assigneeId: ref('assignee_id').references(() => admins.id),
    messageCount: integer('message_count').notNull().default(0),
    lastActivityAt: ts('last_activity_at').notNull().defaultNow(),
    waitingSince: ts('waiting_since'),
    closedAt: ts('closed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('tickets_last_activity_idx').on(t.lastActivityAt, t.id),
    index('tickets_created_idx').on(t.createdAt, t.id),
    index('tickets_waiting_idx').on(t.waitingSince, t.id).where(sql`${t.waitingSince} is not null`),
    index('tickets_user_idx').on(t.userId, t.createdAt),
    index('tickets_assignee_idx').on(t.assigneeId, t.lastActivityAt),
    index('tickets_status_idx').on(t.status, t.lastActivityAt),
    statusCheck('tickets_status_ck', t.status, ticketStates),
    check('tickets_priority_ck', sql`${t.priority} in (${list(TICKET_PRIORITIES)})`),
    check('tickets_waiting_ck', sql`(${t.status} = 'open') = (${t.waitingSince} is not null)`),
    check('tickets_closed_ck', sql`(${t.status} = 'closed') = (${t.closedAt} is not null)`),
  ],
);
export type TicketRow = typeof tickets.$inferSelect;

/** One message of a ticket: from its user, or from an admin (a reply, or an internal note only admins see). */
export const ticketMessages = pgTable(
  'ticket_messages',
  {
    id: id(),
    ticketId: ref('ticket_id').notNull().references(() => tickets.id),
    author: text('author').notNull().$type<'user' | 'admin'>(),
    adminId: ref('admin_id').references(() => admins.id),
    /** Sanitised HTML. */
    body: text('body').notNull(),
    internal: boolean('internal').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('ticket_messages_ticket_idx').on(t.ticketId, t.id),
    check('ticket_messages_author_ck', sql`(${t.author} = 'admin') = (${t.adminId} is not null) and ${t.author} in ('user','admin')`),
    check('ticket_messages_internal_ck', sql`not ${t.internal} or ${t.author} = 'admin'`),
  ],
);
export type TicketMessageRow = typeof ticketMessages.$inferSelect;

/**
 * A file an admin attached: uploaded first (message_id null, only its uploader sees it), then sent
 * with a message. Stored under DATA_DIR/uploads/tickets/ by a server-generated name; the type is the
 * one its bytes showed.
 */
export const ticketAttachments = pgTable(
  'ticket_attachments',
  {
    id: id(),
    ticketId: ref('ticket_id').notNull().references(() => tickets.id),
    messageId: ref('message_id').references(() => ticketMessages.id),
    uploadedBy: ref('uploaded_by').notNull().references(() => admins.id),
    /** The name it was uploaded with, cleaned (shown and offered as the download's name). */
    filename: text('filename').notNull(),
    /** The server-generated file name under the uploads folder. */
    storedName: text('stored_name').notNull().unique(),
    contentType: text('content_type').notNull().$type<(typeof TICKET_ATTACHMENT_TYPES)[number]>(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ticket_attachments_ticket_idx').on(t.ticketId, t.id),
    index('ticket_attachments_message_idx').on(t.messageId),
    check('ticket_attachments_type_ck', sql`${t.contentType} in (${list(TICKET_ATTACHMENT_TYPES)})`),
  ],
);
export type TicketAttachmentRow = typeof ticketAttachments.$inferSelect;
