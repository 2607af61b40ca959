import { ticketsResource, type TicketRecord } from '@pitboss/contract';
import { eq, getTableColumns, isNotNull, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { defineResource, isoOrNull, type Row } from '../../resources/define.js';
import { admins } from '../sub-admins/table.js';
import { supportCategories } from '../support-categories/table.js';
import { users } from '../users/table.js';
import { assignableAdmin, assignTicket, closeTicket, reopenTicket } from './service.js';
import { tickets } from './table.js';

const assignee = alias(admins, 'assignee');

/** The ticket joined with its user, category and assignee, as lists and the conversation read it. */
export const ticketSelect = (db: DbOrTx) =>
  db
    .select({ ...getTableColumns(tickets), username: users.username, categoryName: supportCategories.name, assigneeName: assignee.name })
    .from(tickets)
    .innerJoin(users, eq(users.id, tickets.userId))
    .leftJoin(supportCategories, eq(supportCategories.id, tickets.categoryId))
    .leftJoin(assignee, eq(assignee.id, tickets.assigneeId));

export function ticketToRecord(r: Row): TicketRecord {
  return {
    _id: String(r.id), userId: String(r.userId), username: String(r.username), categoryId: r.categoryId == null ? null : String(r.categoryId),
    categoryName: (r.categoryName as string | null) ?? null, subject: String(r.subject), priority: r.priority as TicketRecord['priority'],
    status: r.status as TicketRecord['status'], assigneeId: r.assigneeId == null ? null : String(r.assigneeId), assigneeName: (r.assigneeName as string | null) ?? null,
    assignment: r.assigneeId == null ? 'unassigned' : 'assigned', messageCount: Number(r.messageCount), createdAt: isoOrNull(r.createdAt)!,
    lastActivityAt: isoOrNull(r.lastActivityAt)!, waitingSince: isoOrNull(r.waitingSince), closedAt: isoOrNull(r.closedAt),
  };
}

export const ticketsDef = defineResource({
  spec: ticketsResource,
  table: tickets,
  idColumn: tickets.id,
  columns: {
    createdAt: tickets.createdAt, lastActivityAt: tickets.lastActivityAt, waitingSince: tickets.waitingSince, status: tickets.status, priority: tickets.priority,
    categoryId: tickets.categoryId, userId: tickets.userId, assigneeId: tickets.assigneeId,
  },
  // "Assigned to me" is the caller (from the session); a system caller has no "me".
  filterWhere: {
    assignment: (v, actor) =>
      v === 'mine' ? (actor ? eq(tickets.assigneeId, actor.admin.id) : sql`false`) : v === 'unassigned' ? isNull(tickets.assigneeId) : isNotNull(tickets.assigneeId),
  },
  // The assign action's picker offers, and the action takes, only those who may take tickets.
  accepts: { 'assign.adminId': assignableAdmin },
  nullable: ['waitingSince'],
  searchColumns: [tickets.subject],
  // Inner join on a NOT NULL foreign key, left joins on primary keys: one row per ticket.
  joinsKeepRows: true,
  select: ticketSelect,
  toRecord: ticketToRecord,
  actions: {
    assign: async (tx, actor, record, input) => {
      const adminId = input.adminId == null || input.adminId === '' ? null : Number(input.adminId);
      const row = await assignTicket(tx, actor, { ticketId: Number(record._id), adminId });
      return row.assigneeId ? 'Ticket assigned' : 'Ticket unassigned';
    },
    close: async (tx, actor, record) => {
      await closeTicket(tx, actor, { ticketId: Number(record._id) });
      return 'Ticket closed';
    },
    reopen: async (tx, actor, record) => {
      await reopenTicket(tx, actor, { ticketId: Number(record._id) });
      return 'Ticket reopened';
    },
  },
});
