import { z } from 'zod';
import { endpoint, readAccess, writeAccess } from '../resources/endpoint.js';
import { defineStates, stateValues, stateOptions } from '../resources/states.js';
import { idParam, recordFields, resourceSpec } from '../resources/spec.js';

// ── Support tickets ────────────────────────────────────────────────────────
/**
 * open (waiting for the support team) → answered (an admin replied) → closed; `reopen` brings a
 * closed ticket back. A message from the user reopens an answered or closed ticket; an admin's
 * reply (not an internal note) makes it answered from any state.
 */
export const ticketStates = defineStates({
  noun: 'Ticket',
  states: [
    { value: 'open', label: 'Open', color: 'yellow' },
    { value: 'answered', label: 'Answered', color: 'blue' },
    { value: 'closed', label: 'Closed', color: 'gray' },
  ],
  initial: 'open',
  transitions: {
    close: { from: ['open', 'answered'], to: 'closed' },
    reopen: { from: ['closed'], to: 'open' },
    // Moves no button makes: an admin's reply, a message from the user (platform API).
    reply: { from: ['open', 'answered', 'closed'], to: 'answered' },
    message: { from: ['open', 'answered', 'closed'], to: 'open' },
  },
});
export type TicketStatus = (typeof ticketStates.states)[number]['value'];

export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
const priorityOptions = [
  { value: 'low', label: 'Low' }, { value: 'normal', label: 'Normal' }, { value: 'high', label: 'High' }, { value: 'urgent', label: 'Urgent' },
] as const;

/** Limits of one message and of its attachments. */
export const TICKET_LIMITS = {
  subjectMax: 200,
  /** A message's HTML as sent (it is sanitised on the server). */
  messageMax: 20_000,
  /** Bytes of one attachment. */
  attachmentBytes: 5 * 1024 * 1024,
  /** Attachments on one message (and files in one upload request). */
  attachmentsPerMessage: 5,
  /** Attachments on one ticket in all. */
  attachmentsPerTicket: 50,
} as const;
/** File types an attachment may be, told by their first bytes (never by the name or the declared type). */
export const TICKET_ATTACHMENT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'application/pdf'] as const;

export const ticketRecord = z.object({
  _id: recordFields.id,
  userId: recordFields.id,
  username: z.string(),
  categoryId: recordFields.id.nullable(),
  categoryName: z.string().nullable(),
  subject: z.string(),
  priority: z.enum(TICKET_PRIORITIES),
  status: z.enum(stateValues(ticketStates)),
  assigneeId: recordFields.id.nullable(),
  assigneeName: z.string().nullable(),
  /** Whether anyone is assigned (the list's Assignment filter also offers "Assigned to me"). */
  assignment: z.enum(['unassigned', 'assigned']),
  messageCount: z.number().int(),
  createdAt: recordFields.at,
  lastActivityAt: recordFields.at,
  /** Since when the user has been waiting for an answer (null unless open). */
  waitingSince: recordFields.atOrNull,
  closedAt: recordFields.atOrNull,
}).strict();
export type TicketRecord = z.infer<typeof ticketRecord>;

export const ticketAssignInput = z.object({
  adminId: z.union([recordFields.id, z.null()], { error: 'An admin id, or null to unassign' }),
}).strict();

export const ticketsResource = resourceSpec(ticketRecord, {
  name: 'tickets', label: 'Ticket', plural: 'Support tickets', restriction: 'Support Ticket', pages: { list: '/ticket-list' },
  recordPage: '/support-reply/{id}',
  titleField: 'subject', readOnly: true, keyset: true,
  columns: [
    { key: 'subject', label: 'Subject', type: 'text' },
    { key: 'username', label: 'User', type: 'text' },
    { key: 'categoryName', label: 'Category', type: 'text', hidden: true },
    { key: 'priority', label: 'Priority', type: 'text' },
    { key: 'status', label: 'Status', type: 'status' },
    { key: 'assigneeName', label: 'Assignee', type: 'text' },
    { key: 'waitingSince', label: 'Waiting since', type: 'date', sortable: true },
    { key: 'lastActivityAt', label: 'Last activity', type: 'date', sortable: true },
    { key: 'createdAt', label: 'Created', type: 'date', sortable: true, hidden: true },
    { key: 'messageCount', label: 'Messages', type: 'number', hidden: true },
    { key: 'closedAt', label: 'Closed', type: 'date', hidden: true },
  ],
  filters: [
    // "mine" is the caller: the server reads it from the session (the same link works for every admin).
    { key: 'assignment', label: 'Assignment', type: 'oneOf', options: [{ value: 'mine', label: 'Assigned to me' }, { value: 'unassigned', label: 'Unassigned' }, { value: 'assigned', label: 'Assigned' }] },
    { key: 'status', label: 'Status', type: 'oneOf', options: stateOptions(ticketStates) },
    { key: 'priority', label: 'Priority', type: 'oneOf', options: priorityOptions },
    { key: 'categoryId', label: 'Category', type: 'equals', reference: { resource: 'support-categories', labelKey: 'name' } },
    { key: 'userId', label: 'User', type: 'equals', reference: { resource: 'users', labelKey: 'username' } },
    { key: 'assigneeId', label: 'Assignee', type: 'equals', reference: { resource: 'sub-admins', labelKey: 'name' } },
    { key: 'createdAt', label: 'Created', type: 'dateRange' },
  ],
  search: 'subject',
  defaultSort: '-lastActivityAt',
  deleteMode: 'none',
  states: ticketStates,
  actions: [
    {
      name: 'assign', label: 'Assign', right: 'edit', input: ticketAssignInput,
      fields: [{ key: 'adminId', label: 'Sub-admin (empty: unassign)', type: 'reference', reference: { resource: 'sub-admins', labelKey: 'name' } }],
      bulk: true,
    },
    { name: 'close', label: 'Close', right: 'edit', confirm: 'The user can still write: a new message reopens the ticket.', bulk: true },
    { name: 'reopen', label: 'Reopen', right: 'edit' },
  ],
});

// ── The conversation (`/support-reply/{id}`, restriction Support Reply) ────

export const ticketAttachmentRecord = z.object({
  _id: recordFields.id,
  filename: z.string(),
  contentType: z.enum(TICKET_ATTACHMENT_TYPES),
  size: z.number().int(),
  /** Uploaded but not yet sent with a message (only its uploader sees it, to attach it). */
  pending: z.boolean(),
  createdAt: recordFields.at,
}).strict();
export type TicketAttachmentRecord = z.infer<typeof ticketAttachmentRecord>;

export const ticketMessageRecord = z.object({
  _id: recordFields.id,
  author: z.enum(['user', 'admin']),
  /** The user's name or the admin's. */
  authorName: z.string(),
  /** Sanitised HTML. */
  body: z.string(),
  /** An internal note: admins only, never shown to the user nor mailed. */
  internal: z.boolean(),
  attachments: z.array(ticketAttachmentRecord),
  createdAt: recordFields.at,
}).strict();
export type TicketMessageRecord = z.infer<typeof ticketMessageRecord>;

export const ticketConversation = z.object({
  ticket: ticketRecord,
  user: z.object({ _id: recordFields.id, username: z.string(), email: z.string(), status: z.string() }).strict(),
  messages: z.array(ticketMessageRecord),
  /** Files this admin uploaded to the ticket and has not sent yet. */
  pendingAttachments: z.array(ticketAttachmentRecord),
  /** The user's other tickets, newest first (at most 20). */
  otherTickets: z.array(ticketRecord.pick({ _id: true, subject: true, status: true, priority: true, lastActivityAt: true })),
  /** The user's balances per coin, as text (`12.5 USDC`). */
  balances: z.array(z.object({ coin: z.string(), available: z.string(), held: z.string() }).strict()),
  /** Who a ticket may be assigned to: active sub-admins who may view tickets. */
  assignees: z.array(z.object({ _id: recordFields.id, name: z.string(), email: z.string() }).strict()),
}).strict();
export type TicketConversation = z.infer<typeof ticketConversation>;

export const ticketReplyBody = z.object({
  /** Rich text (HTML), sanitised on the server. */
  body: z.string({ error: 'Write a message' }).max(TICKET_LIMITS.messageMax, 'Too long'),
  /** An internal note instead of a reply: no mail, no change of status, never shown to the user. */
  internal: z.boolean().default(false),
  /** Files uploaded with `POST …/attachments` for this ticket and not sent yet. */
  attachmentIds: z.array(recordFields.id).max(TICKET_LIMITS.attachmentsPerMessage, `At most ${TICKET_LIMITS.attachmentsPerMessage} files per message`).default([]),
}).strict();
export type TicketReplyBody = z.infer<typeof ticketReplyBody>;

export const ticketAttachmentParams = z.object({ id: idParam.shape.id, attachmentId: idParam.shape.id }).strict();

export const ticketEndpoints = {
  ticketConversation: endpoint('GET /api/admin/support-reply/:id', {
    access: readAccess('Support Reply'),
    summary: 'A ticket\'s conversation (internal notes included), the user\'s other tickets and balances',
    params: idParam,
    result: ticketConversation,
  }),
  ticketReply: endpoint('POST /api/admin/support-reply/:id/messages', {
    access: writeAccess('Support Reply'),
    summary: 'A reply (mailed to the user; the ticket becomes answered) or an internal note (admins only)',
    params: idParam,
    body: ticketReplyBody,
    result: ticketMessageRecord,
  }),
  ticketUpload: endpoint('POST /api/admin/support-reply/:id/attachments', {
    access: writeAccess('Support Reply'),
    summary: 'Uploads files (multipart/form-data, field `file`) to attach to the next message: PNG, JPEG, WebP, GIF or PDF, told by their bytes',
    params: idParam,
    upload: 'file',
    result: z.array(ticketAttachmentRecord),
  }),
  ticketDownload: endpoint('GET /api/admin/support-reply/:id/attachments/:attachmentId', {
    access: readAccess('Support Reply'),
    summary: 'An attachment, as a download (Content-Disposition: attachment, nosniff)',
    params: ticketAttachmentParams,
    file: 'attachment',
  }),
};
