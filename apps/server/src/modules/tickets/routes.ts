import multipart from '@fastify/multipart';
import { ERROR_CODES, TICKET_LIMITS, ticketEndpoints as ep, type TicketAttachmentRecord, type TicketConversation, type TicketMessageRecord } from '@pitboss/contract';
import { and, asc, desc, eq, inArray, ne } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { ok } from '../../http/envelope.js';
import { AppError, badRequest, notFound } from '../../http/errors.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { unitsText } from '../ledger/format.js';
import { balancesOf } from '../ledger/service.js';
import { admins } from '../sub-admins/table.js';
import { users } from '../users/table.js';
import { readStoredFile } from './files.js';
import { ticketSelect, ticketToRecord } from './resource.js';
import { assignableAdmins, replyToTicket, storeAttachments } from './service.js';
import { ticketAttachments, ticketMessages, tickets, type TicketAttachmentRow, type TicketMessageRow } from './table.js';

const attachmentRecord = (a: TicketAttachmentRow): TicketAttachmentRecord => ({
  _id: String(a.id), filename: a.filename, contentType: a.contentType, size: a.size, pending: a.messageId === null, createdAt: a.createdAt.toISOString(),
});

function messageRecord(m: TicketMessageRow, names: { user: string; admins: Map<number, string> }, files: TicketAttachmentRow[]): TicketMessageRecord {
  return {
    _id: String(m.id), author: m.author, authorName: m.author === 'user' ? names.user : (names.admins.get(m.adminId!) ?? 'An admin'), body: m.body, internal: m.internal,
    attachments: files.filter((f) => f.messageId === m.id).map(attachmentRecord), createdAt: m.createdAt.toISOString(),
  };
}

/**
 * The conversation page's API (`/support-reply/{id}`, restriction Support Reply): the thread with
 * internal notes, replies and notes, uploads and downloads of attachments. Multipart is parsed
 * only in this plugin's scope: no other route takes multipart bodies.
 */
export function ticketRoutes(app: App, ctx: AppContext): void {
  route(app, ep.ticketConversation, async (req) => {
    const id = Number(req.params.id);
    const [row] = await ticketSelect(ctx.db).where(eq(tickets.id, id));
    if (!row) throw notFound('Ticket');
    const ticket = ticketToRecord(row);
    const [user] = await ctx.db.select().from(users).where(eq(users.id, row.userId));
    const messages = await ctx.db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, id)).orderBy(asc(ticketMessages.id));
    const files = await ctx.db.select().from(ticketAttachments).where(eq(ticketAttachments.ticketId, id)).orderBy(asc(ticketAttachments.id));
    const adminIds = [...new Set(messages.flatMap((m) => (m.adminId ? [m.adminId] : [])))];
    const adminNames = new Map(adminIds.length ? (await ctx.db.select({ id: admins.id, name: admins.name }).from(admins).where(inArray(admins.id, adminIds))).map((a) => [a.id, a.name]) : []);
    const others = await ticketSelect(ctx.db).where(and(eq(tickets.userId, row.userId), ne(tickets.id, id))).orderBy(desc(tickets.id)).limit(20);
    const balances = await balancesOf(ctx.db, row.userId);
    const result: TicketConversation = {
      ticket,
      user: { _id: String(user!.id), username: user!.username, email: user!.email, status: user!.status },
      messages: messages.map((m) => messageRecord(m, { user: user!.username, admins: adminNames }, files)),
      pendingAttachments: files.filter((f) => f.messageId === null && f.uploadedBy === req.admin!.id).map(attachmentRecord),
      otherTickets: others.map(ticketToRecord).map(({ _id, subject, status, priority, lastActivityAt }) => ({ _id, subject, status, priority, lastActivityAt })),
      balances: balances.map((b) => ({ coin: b.symbol, available: unitsText(b.available, b.decimals, b.symbol)!, held: unitsText(b.held, b.decimals, b.symbol)! })),
      assignees: (await assignableAdmins(ctx.db)).map((a) => ({ _id: String(a.id), name: a.name, email: a.email })),
    };
    return ok(result);
  });

  route(app, ep.ticketReply, async (req) => {
    const { message, ticket } = await ctx.db.transaction((tx) =>
      replyToTicket(tx, req.actor(), ctx, { ticketId: Number(req.params.id), body: req.body.body, internal: req.body.internal, attachmentIds: req.body.attachmentIds.map(Number) }),
    );
    if (!message.internal) ctx.background(() => ctx.mailer.deliverPending());
    const files = await ctx.db.select().from(ticketAttachments).where(eq(ticketAttachments.messageId, message.id));
    const record = messageRecord(message, { user: '', admins: new Map([[req.admin!.id, req.admin!.name]]) }, files);
    return ok(record, message.internal ? 'Internal note added' : `Reply sent; the ticket is ${ticket.status}`);
  });

  route(app, ep.ticketDownload, async (req, reply) => {
    const [file] = await ctx.db
      .select()
      .from(ticketAttachments)
      .where(and(eq(ticketAttachments.id, Number(req.params.attachmentId)), eq(ticketAttachments.ticketId, Number(req.params.id))));
    // A file not sent yet is its uploader's alone.
    if (!file || (file.messageId === null && file.uploadedBy !== req.admin!.id)) throw notFound('Attachment');
    const bytes = await readStoredFile(ctx.config.dataDir, file.storedName).catch(() => {
      throw notFound('Attachment file');
    });
    const ascii = file.filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
    return reply
      .header('content-type', file.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'no-store')
      .send(bytes);
  });

  // Uploads: multipart only here (an encapsulated plugin), with the limits of TICKET_LIMITS.
  app.register(async (scoped) => {
    await scoped.register(multipart, {
      limits: { fileSize: TICKET_LIMITS.attachmentBytes, files: TICKET_LIMITS.attachmentsPerMessage, fields: 0, parts: TICKET_LIMITS.attachmentsPerMessage, headerPairs: 100 },
    });
    route(scoped as unknown as App, ep.ticketUpload, async (req) => {
      if (!req.isMultipart()) throw badRequest('Send the files as multipart/form-data (field "file")', { file: 'No file' });
      const ticketId = Number(req.params.id);
      const [ticket] = await ctx.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.id, ticketId));
      if (!ticket) throw notFound('Ticket');
      const received: { filename: string; bytes: Buffer }[] = [];
      try {
        for await (const part of req.files()) {
          const bytes = await part.toBuffer();
          received.push({ filename: part.filename, bytes });
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, ERROR_CODES.VALIDATION, `A file is too large (at most ${TICKET_LIMITS.attachmentBytes / 1024 / 1024} MB)`, { file: 'Too large' });
        if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') throw badRequest(`At most ${TICKET_LIMITS.attachmentsPerMessage} files at once`, { file: 'Too many files' });
        if (code === 'FST_FIELDS_LIMIT') throw badRequest('Only files are taken here', { file: 'Unexpected field' });
        if (err instanceof AppError) throw err;
        throw badRequest('The upload could not be read', { file: 'Invalid multipart body' });
      }
      if (received.length === 0) throw badRequest('No file was sent', { file: 'Choose a file' });
      const rows = await ctx.db.transaction((tx) => storeAttachments(tx, req.actor(), ctx.config.dataDir, { ticketId, files: received }));
      return ok(rows.map(attachmentRecord), rows.length === 1 ? 'File uploaded' : `${rows.length} files uploaded`);
    });
  });
}
