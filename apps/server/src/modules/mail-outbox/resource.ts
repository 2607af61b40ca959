import { isSuperAdmin, mailOutboxResource } from '@pitboss/contract';
import { mailOutbox } from '../../db/schema.js';
import { redactTokens } from '../../mail/mailer.js';
import { defineResource, isoOrNull } from '../../resources/define.js';

/**
 * The mail outbox, read-only. Without SMTP a mail is held here, so this is where a developer finds
 * a reset link; a link's single-use token is shown to super admins only (anyone else reading a
 * super admin's reset link would take over that account).
 */
export const mailOutboxDef = defineResource({
  spec: mailOutboxResource,
  table: mailOutbox,
  idColumn: mailOutbox.id,
  columns: { createdAt: mailOutbox.createdAt, status: mailOutbox.status, toAddress: mailOutbox.toAddress, templateKey: mailOutbox.templateKey },
  caseInsensitive: ['toAddress'],
  searchColumns: [mailOutbox.toAddress, mailOutbox.subject],
  toRecord: (r) => ({
    _id: String(r.id), toAddress: r.toAddress, subject: r.subject, templateKey: r.templateKey, status: r.status, attempts: r.attempts,
    lastError: r.lastError, text: r.text, createdAt: isoOrNull(r.createdAt), sentAt: isoOrNull(r.sentAt),
  }),
  viewFor: (record, viewer) => (isSuperAdmin(viewer) ? record : { ...record, text: redactTokens(String(record.text)) }),
});
