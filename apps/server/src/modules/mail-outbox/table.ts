import { mailStates } from '@pitboss/contract';

import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, ts, } from '../../db/columns.js';
import { statusCheck } from '../../db/states.js';

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    templateKey: text('template_key'),
    /**
     * pending → sent | failed; `held` when no SMTP is configured (it stays, unredacted, for the outbox
     * page); failed | held → pending by an admin's retry (`mailStates` in the contract).
     */
    status: text('status').notNull().$type<'pending' | 'sent' | 'failed' | 'held'>().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    createdAt: createdAt(),
    sentAt: ts('sent_at'),
    /** Its single-use links were replaced by `[redacted]` (sent, or failed for good): sending it again would send dead links. */
    redacted: boolean('redacted').notNull().default(false),
  },
  (t) => [
    index('mail_outbox_status_idx').on(t.status, t.nextAttemptAt),
    statusCheck('mail_outbox_status_ck', t.status, mailStates),
  ],
);
