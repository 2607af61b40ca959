import type { PlatformTicketRecord } from '@pitboss/contract';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { notFound } from '../../http/errors.js';
import { supportCategories } from '../support-categories/table.js';
import { ticketAttachments, ticketMessages, tickets } from './table.js';

/**
 * A ticket as the platform (and so its user) sees it. Internal notes are left out by the query
 * itself (`internal = false`), never filtered afterwards, and no admin is named.
 */
export async function platformTicketView(db: DbOrTx, id: number): Promise<PlatformTicketRecord> {
  const [t] = Number.isSafeInteger(id)
    ? await db.select({ ticket: tickets, category: supportCategories.name }).from(tickets).leftJoin(supportCategories, eq(supportCategories.id, tickets.categoryId)).where(eq(tickets.id, id))
    : [];
  if (!t) throw notFound('Ticket');
  const messages = await db.select().from(ticketMessages).where(and(eq(ticketMessages.ticketId, id), eq(ticketMessages.internal, false))).orderBy(asc(ticketMessages.id));
  const files = await db
    .select({ messageId: ticketAttachments.messageId, filename: ticketAttachments.filename })
    .from(ticketAttachments)
    .innerJoin(ticketMessages, and(eq(ticketMessages.id, ticketAttachments.messageId), eq(ticketMessages.internal, false)))
    .where(and(eq(ticketAttachments.ticketId, id), isNotNull(ticketAttachments.messageId)));
  return {
    _id: String(t.ticket.id), userId: String(t.ticket.userId), categoryId: t.ticket.categoryId === null ? null : String(t.ticket.categoryId), category: t.category ?? null,
    subject: t.ticket.subject, priority: t.ticket.priority, status: t.ticket.status, createdAt: t.ticket.createdAt.toISOString(), lastActivityAt: t.ticket.lastActivityAt.toISOString(),
    messages: messages.map((m) => ({
      _id: String(m.id), author: m.author === 'user' ? 'user' : 'support', body: m.body, attachments: files.filter((f) => f.messageId === m.id).map((f) => f.filename), createdAt: m.createdAt.toISOString(),
    })),
  };
}
