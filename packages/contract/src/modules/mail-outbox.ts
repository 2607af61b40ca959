import { z } from 'zod';
import { recordFields, resourceSpec } from '../resources/spec.js';
import { defineStates, stateValues, stateOptions } from '../resources/states.js';
import { MAIL_TEMPLATES } from './email-templates.js';

/** The mail templates by name (the outbox's Template filter and column). */
const TEMPLATE_OPTIONS = Object.entries(MAIL_TEMPLATES).map(([value, t]) => ({ value, label: t.name }));

/**
 * A mail's life in the outbox: queued (`pending`) until the delivery job sends it; a temporary SMTP
 * refusal (4xx, a lost connection) waits with exponential backoff and tries again, up to the maximum
 * number of attempts; a permanent refusal (5xx) or the last attempt makes it `failed`. Without SMTP
 * configured it is `held`. An admin re-queues a failed or held mail (`retry`). Other modules read
 * `failed` as "this mail did not go out" (the failed-mail notification).
 */
export const mailStates = defineStates({
  noun: 'Mail',
  states: [
    { value: 'pending', label: 'Queued', color: 'blue' },
    { value: 'sent', label: 'Sent', color: 'green' },
    { value: 'failed', label: 'Failed', color: 'red' },
    { value: 'held', label: 'Held (no SMTP)', color: 'gray' },
  ],
  initial: 'pending',
  transitions: {
    send: { from: ['pending'], to: 'sent' },
    fail: { from: ['pending'], to: 'failed' },
    hold: { from: ['pending'], to: 'held' },
    retry: { from: ['failed', 'held'], to: 'pending' },
  },
  done: { send: 'sent', fail: 'marked failed', hold: 'held', retry: 'retried' },
});

/** Every mail the product sends passes through the outbox; without SMTP it is held there. */
export const MAIL_STATUS_OPTIONS = stateOptions(mailStates);

export const mailRecord = z.object({
  _id: recordFields.id, toAddress: z.string(), subject: z.string(), templateKey: z.string().nullable(), status: z.enum(stateValues(mailStates)),
  attempts: z.number().int(), lastError: z.string().nullable(), nextAttemptAt: recordFields.atOrNull, text: z.string(), createdAt: recordFields.at, sentAt: recordFields.atOrNull,
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
    { key: 'templateKey', label: 'Template', type: 'text' },
    { key: 'status', label: 'Status', type: 'status' },
    { key: 'attempts', label: 'Attempts', type: 'number', hidden: true },
    { key: 'lastError', label: 'Last error', type: 'text', hidden: true },
    { key: 'nextAttemptAt', label: 'Next attempt', type: 'date', hidden: true },
    { key: 'sentAt', label: 'Sent', type: 'date', hidden: true },
    // Links holding a single-use token are shown to super admins only; everyone else sees them redacted.
    { key: 'text', label: 'Text', type: 'longtext', hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: MAIL_STATUS_OPTIONS },
    { key: 'toAddress', label: 'To', type: 'equals' },
    { key: 'templateKey', label: 'Template', type: 'equals', options: TEMPLATE_OPTIONS },
    { key: 'createdAt', label: 'Queued', type: 'dateRange' },
  ],
  search: 'recipient or subject',
  defaultSort: '-createdAt',
  deleteMode: 'none',
  states: mailStates,
  actions: [
    {
      name: 'retry',
      label: 'Retry',
      right: 'edit',
      confirm: 'The mail goes back to the queue and is sent again from its first attempt.',
      bulk: true,
    },
  ],
});
