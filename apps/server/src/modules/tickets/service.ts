import { TICKET_LIMITS, ticketStates, type TicketPriority } from '@pitboss/contract';
import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Actor, AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { sanitizeRichText } from '../../lib/sanitize.js';
import { htmlToText } from '../../mail/render.js';
import { defineSubject, recordView, transition } from '../../resources/transition.js';
import { notify } from '../notifications/service.js';
import { loadSiteSettings } from '../site-settings/service.js';
import { admins } from '../sub-admins/table.js';
import { supportCategories } from '../support-categories/table.js';
import { users } from '../users/table.js';
import { cleanAttachment, cleanFilename, removeFile, storeFile, type AttachmentType } from './files.js';
import { ticketAttachments, ticketMessages, tickets, type TicketAttachmentRow, type TicketMessageRow, type TicketRow } from './table.js';

export const ticketAuditView = (t: TicketRow) => ({
  userId: t.userId, categoryId: t.categoryId, subject: t.subject, priority: t.priority, status: t.status, assigneeId: t.assigneeId,
});

/** A message's HTML, sanitised like FAQ answers; refused (400 on `field`) when nothing is left. */
function cleanMessage(html: string, field: string, allowEmpty = false): string {
  const clean = sanitizeRichText(html);
  if (!allowEmpty && !htmlToText(clean).trim()) throw badRequest('The message is empty', { [field]: 'The message is empty once unsafe content is removed' });
  if (clean.length > TICKET_LIMITS.messageMax * 2) throw badRequest('The message is too long', { [field]: 'Too long' });
  return clean;
}

/** Plain text typed by a user becomes paragraphs; HTML is kept (and sanitised). */
const userHtml = (message: string) =>
  /<[a-z][\s\S]*>/i.test(message) ? message : message.split(/\n{2,}/).map((p) => `<p>${p.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '<br>')}</p>`).join('');

/** A ticket's moves by a message (the user's, an admin's reply): audited with `ticketAuditView`. */
const ticketSubject = defineSubject({ resource: 'tickets', table: tickets, machine: ticketStates, view: (row) => ticketAuditView(row) });
/** A ticket's moves by the admin's actions (close, reopen): audited with the ticket's record, as the list shows it. */
const ticketRecordSubject = defineSubject({ resource: 'tickets', table: tickets, machine: ticketStates, view: recordView(async () => (await import('./resource.js')).ticketsDef) });

async function lockTicket(tx: DbOrTx, id: number): Promise<TicketRow> {
  const [row] = Number.isSafeInteger(id) ? await tx.select().from(tickets).where(eq(tickets.id, id)).for('update') : [];
  if (!row) throw notFound('Ticket');
  return row;
}

export interface CreateTicketInput {
  userId: number;
  categoryId?: number | null;
  subject: string;
  message: string;
  priority?: TicketPriority;
}

/**
 * A user opens a ticket (through the platform API, or the demo): the ticket, open and waiting, its
 * first message, the audit entry and the "new ticket" notification, in the caller's transaction.
 */
export async function createTicket(tx: DbOrTx, actor: Actor, input: CreateTicketInput): Promise<TicketRow> {
  const [user] = Number.isSafeInteger(input.userId) ? await tx.select({ id: users.id, username: users.username }).from(users).where(eq(users.id, input.userId)) : [];
  if (!user) throw badRequest('No such user', { userId: 'No such user' });
  let categoryName: string | null = null;
  if (input.categoryId !== undefined && input.categoryId !== null) {
    const [c] = Number.isSafeInteger(input.categoryId) ? await tx.select().from(supportCategories).where(eq(supportCategories.id, input.categoryId)) : [];
    if (!c || c.archivedAt || c.status !== 'active') throw badRequest('No such support category', { categoryId: 'No active support category with this id' });
    categoryName = c.name;
  }
  const body = cleanMessage(userHtml(input.message), 'message');
  const now = new Date();
  const [ticket] = await tx
    .insert(tickets)
    .values({
      userId: user.id, categoryId: input.categoryId ?? null, subject: input.subject.replace(/[\r\n]+/g, ' ').trim(), priority: input.priority ?? 'normal',
      status: ticketStates.initial, messageCount: 1, lastActivityAt: now, waitingSince: now, createdAt: now, updatedAt: now,
    })
    .returning();
  await tx.insert(ticketMessages).values({ ticketId: ticket!.id, author: 'user', body, createdAt: now });
  await writeAudit(tx, actor, { action: 'create', resource: 'tickets', recordId: ticket!.id, after: ticketAuditView(ticket!) });
  await notify(tx, {
    kind: 'ticket_new', recordKey: `ticket:${ticket!.id}`, link: `/support-reply/${ticket!.id}`,
    title: `New ticket from ${user.username}`, body: `${ticket!.subject}${categoryName ? ` (${categoryName})` : ''}, priority ${ticket!.priority}`,
  });
  return ticket!;
}

/**
 * The ticket's user writes again: the message is added and the ticket is open (an answered or
 * closed ticket opens again; an open one keeps waiting since its first unanswered message).
 * A user who is not the ticket's gets a 404, as for a ticket that does not exist.
 */
export async function addUserMessage(tx: DbOrTx, actor: Actor, input: { ticketId: number; userId: number; message: string }): Promise<TicketRow> {
  const now = new Date();
  const { after } = await transition(tx, actor, ticketSubject, input.ticketId, 'message', {
    check: async (before) => {
      if (before.userId !== input.userId) throw notFound('Ticket');
      const body = cleanMessage(userHtml(input.message), 'message');
      await tx.insert(ticketMessages).values({ ticketId: before.id, author: 'user', body, createdAt: now });
    },
    set: (before) => ({ waitingSince: before.waitingSince ?? now, closedAt: null, lastActivityAt: now, updatedAt: now, messageCount: sql`${tickets.messageCount} + 1` }),
  });
  return after;
}

export interface ReplyInput {
  ticketId: number;
  body: string;
  internal: boolean;
  attachmentIds: number[];
}

/**
 * An admin writes on a ticket. A reply is mailed to the user (template `ticket_reply`, queued in
 * this transaction) and makes the ticket answered; an internal note changes no state, is never
 * mailed and never reaches the platform API. Files uploaded beforehand by this admin for this
 * ticket (and not sent yet) are attached.
 */
export async function replyToTicket(tx: DbOrTx, actor: Actor, ctx: Pick<AppContext, 'mailer'>, input: ReplyInput): Promise<{ ticket: TicketRow; message: TicketMessageRow }> {
  if (actor.kind !== 'admin') throw forbidden('Only an admin replies to a ticket');
  const before = await lockTicket(tx, input.ticketId);
  const ids = [...new Set(input.attachmentIds)];
  if (ids.length > TICKET_LIMITS.attachmentsPerMessage) throw badRequest(`At most ${TICKET_LIMITS.attachmentsPerMessage} files per message`, { attachmentIds: 'Too many files' });
  const files = ids.length
    ? await tx.select().from(ticketAttachments).where(and(inArray(ticketAttachments.id, ids), eq(ticketAttachments.ticketId, before.id), eq(ticketAttachments.uploadedBy, actor.admin.id), isNull(ticketAttachments.messageId))).for('update')
    : [];
  if (files.length !== ids.length) throw badRequest('A file is not one you uploaded to this ticket, or it was sent already', { attachmentIds: 'Upload the files to this ticket first' });
  const body = cleanMessage(input.body, 'body', files.length > 0);
  const now = new Date();
  const [message] = await tx.insert(ticketMessages).values({ ticketId: before.id, author: 'admin', adminId: actor.admin.id, body, internal: input.internal, createdAt: now }).returning();
  if (ids.length) await tx.update(ticketAttachments).set({ messageId: message!.id }).where(inArray(ticketAttachments.id, ids));
  let row: TicketRow;
  if (input.internal) {
    [row] = (await tx.update(tickets).set({ updatedAt: now, messageCount: sql`${tickets.messageCount} + 1` }).where(eq(tickets.id, before.id)).returning()) as [TicketRow];
    await writeAudit(tx, actor, { action: 'note', resource: 'tickets', recordId: before.id, after: { messageId: message!.id, attachments: ids.length } });
  } else {
    ({ after: row } = await transition(tx, actor, ticketSubject, before.id, 'reply', {
      set: { waitingSince: null, closedAt: null, lastActivityAt: now, updatedAt: now, messageCount: sql`${tickets.messageCount} + 1` },
      audit: { extra: { messageId: message!.id } },
    }));
    const [user] = await tx.select({ email: users.email, username: users.username }).from(users).where(eq(users.id, before.userId));
    const settings = await loadSiteSettings(tx);
    const names = files.map((f) => f.filename);
    await ctx.mailer.enqueueTemplate(tx, {
      key: 'ticket_reply', to: user!.email,
      vars: {
        username: user!.username, subject: before.subject, ticketId: String(before.id), adminName: actor.admin.name, siteName: settings.siteName,
        message: htmlToText(body) + (names.length ? `\n\nAttached in your account: ${names.join(', ')}` : ''),
      },
    });
  }
  return { ticket: row, message: message! };
}

/**
 * Who may be assigned a ticket: an active sub-admin who may view tickets (a restriction entry for
 * Support Ticket with canView, as `accessFor` reads it; names are unique in a restriction list).
 * The assign action's check and its picker's choices (`ticketsDef.accepts`) are this condition.
 */
export const assignableAdmin: SQL = sql`(${admins.status} = 'active' and ${admins.role} = 'subadmin' and ${admins.restriction} @> ${JSON.stringify([{ name: 'Support Ticket', canView: true }])}::jsonb)`;

export async function assignableAdmins(tx: DbOrTx) {
  return tx.select({ id: admins.id, name: admins.name, email: admins.email }).from(admins).where(assignableAdmin).orderBy(admins.name, admins.id);
}

/** Assigns the ticket to a sub-admin who may view tickets, or unassigns it (null). Any state. */
export async function assignTicket(tx: DbOrTx, _actor: Actor, input: { ticketId: number; adminId: number | null }): Promise<TicketRow> {
  const before = await lockTicket(tx, input.ticketId);
  if (input.adminId !== null) {
    const ok = (await tx.select({ id: admins.id }).from(admins).where(and(eq(admins.id, input.adminId), assignableAdmin))).length > 0;
    if (!ok) throw badRequest('This admin cannot take tickets', { adminId: 'Choose an active sub-admin who may view support tickets' });
  }
  const [row] = await tx.update(tickets).set({ assigneeId: input.adminId, updatedAt: new Date() }).where(eq(tickets.id, before.id)).returning();
  return row!;
}

/** Closes an open or answered ticket. */
export async function closeTicket(tx: DbOrTx, actor: Actor, input: { ticketId: number }): Promise<TicketRow> {
  const now = new Date();
  const { after } = await transition(tx, actor, ticketRecordSubject, input.ticketId, 'close', { set: { closedAt: now, waitingSince: null, lastActivityAt: now, updatedAt: now } });
  return after;
}

/** Opens a closed ticket again: it waits for an answer from now. */
export async function reopenTicket(tx: DbOrTx, actor: Actor, input: { ticketId: number }): Promise<TicketRow> {
  const now = new Date();
  const { after } = await transition(tx, actor, ticketRecordSubject, input.ticketId, 'reopen', { set: { closedAt: null, waitingSince: now, lastActivityAt: now, updatedAt: now } });
  return after;
}

/**
 * Files an admin uploads to a ticket, to send with their next message: each one's type told by its
 * bytes, an image re-encoded without metadata, a PDF checked whole (`cleanAttachment`; refused with
 * a 400 otherwise), stored under DATA_DIR/uploads/tickets/ by a generated name, recorded with the name it came with (cleaned) and audited. Limits: TICKET_LIMITS (per message
 * pending, per ticket). A file written for a transaction that then fails is removed.
 */
export async function storeAttachments(tx: DbOrTx, actor: Actor, dataDir: string, input: { ticketId: number; files: { filename: string; bytes: Buffer }[] }): Promise<TicketAttachmentRow[]> {
  if (actor.kind !== 'admin') throw forbidden('Only an admin attaches files');
  for (const f of input.files) if (f.bytes.length > TICKET_LIMITS.attachmentBytes) throw badRequest('A file is too large', { file: 'Too large' });
  // Checked and re-encoded before the ticket's row is locked: an image's decoding holds no lock.
  const checked: { filename: string; type: AttachmentType; bytes: Buffer }[] = [];
  for (const f of input.files) checked.push(await cleanAttachment(f));
  const ticket = await lockTicket(tx, input.ticketId);
  const count = (await tx.select({ id: ticketAttachments.id }).from(ticketAttachments).where(eq(ticketAttachments.ticketId, ticket.id))).length;
  if (count + checked.length > TICKET_LIMITS.attachmentsPerTicket) throw badRequest(`A ticket holds at most ${TICKET_LIMITS.attachmentsPerTicket} files`, { file: 'Too many files on this ticket' });
  const pending = await tx.select({ id: ticketAttachments.id }).from(ticketAttachments).where(and(eq(ticketAttachments.ticketId, ticket.id), eq(ticketAttachments.uploadedBy, actor.admin.id), isNull(ticketAttachments.messageId)));
  if (pending.length + checked.length > TICKET_LIMITS.attachmentsPerMessage) throw badRequest(`At most ${TICKET_LIMITS.attachmentsPerMessage} files per message: send some first`, { file: 'Too many files' });
  const stored: string[] = [];
  try {
    const out: TicketAttachmentRow[] = [];
    for (const f of checked) {
      const s = await storeFile(dataDir, f.bytes, f.type);
      stored.push(s.storedName);
      const [row] = await tx
        .insert(ticketAttachments)
        .values({ ticketId: ticket.id, uploadedBy: actor.admin.id, filename: cleanFilename(f.filename, f.type), storedName: s.storedName, contentType: f.type, size: f.bytes.length, sha256: s.sha256 })
        .returning();
      out.push(row!);
    }
    await writeAudit(tx, actor, { action: 'upload', resource: 'tickets', recordId: ticket.id, after: { files: out.map((r) => ({ id: r.id, filename: r.filename, contentType: r.contentType, size: r.size, sha256: r.sha256 })) } });
    return out;
  } catch (err) {
    for (const name of stored) await removeFile(dataDir, name);
    throw err;
  }
}
