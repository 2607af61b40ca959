import { z } from 'zod';
import { recordFields, resourceSpec } from '../resources/spec.js';

/** Every mail the product sends passes through the outbox; without SMTP it is held there. */
export const MAIL_STATUS_OPTIONS = [
  { value: 'pending', label: 'Queued' },
  { value: 'sent', label: 'Sent' },
  { value: 'failed', label: 'Failed' },
  { value: 'held', label: 'Held (no SMTP)' },
] as const;

export const mailRecord = z.object({
  _id: recordFields.id, toAddress: z.string(), subject: z.string(), templateKey: z.string().nullable(), status: z.enum(['pending', 'sent', 'failed', 'held']),
  attempts: z.number().int(), lastError: z.string().nullable(), text: z.string(), createdAt: recordFields.at, sentAt: recordFields.atOrNull,
}).strict();

export const mailOutboxResource = resourceSpec(mailRecord, {
  name: 'mail-outbox',
  label: 'Mail',
  plural: 'Mail outbox',
  restriction: 'Email Templates',
  pages: { list: '/mail-outbox' },
  titleField: 'subject',
  readOnly: true,
  keyset: true,
  columns: [
    { key: 'createdAt', label: 'Queued', type: 'date', sortable: true },
    { key: 'toAddress', label: 'To', type: 'text' },
    { key: 'subject', label: 'Subject', type: 'text' },
    { key: 'templateKey', label: 'Template', type: 'code' },
    { key: 'status', label: 'Status', type: 'status' },
    { key: 'attempts', label: 'Attempts', type: 'number', hidden: true },
    { key: 'lastError', label: 'Last error', type: 'text', hidden: true },
    { key: 'sentAt', label: 'Sent', type: 'date', hidden: true },
    // Links holding a single-use token are shown to super admins only; everyone else sees them redacted.
    { key: 'text', label: 'Text', type: 'longtext', hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: MAIL_STATUS_OPTIONS },
    { key: 'toAddress', label: 'To', type: 'equals' },
    { key: 'templateKey', label: 'Template', type: 'equals' },
    { key: 'createdAt', label: 'Queued', type: 'dateRange' },
  ],
  search: 'recipient or subject',
  defaultSort: '-createdAt',
  deleteMode: 'none',
});
