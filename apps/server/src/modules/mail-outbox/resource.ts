import { isSuperAdmin, mailOutboxResource, mailStates } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import { mailOutbox } from '../../db/schema.js';
import { notify } from '../../db/notify.js';
import { conflict } from '../../http/errors.js';
import { MAIL_CHANNEL, redactTokens } from '../../mail/mailer.js';
import { assertTransition } from '../../resources/states.js';
import { iso, defineResource, isoOrNull } from '../../resources/define.js';

/**
 * The mail outbox. Without SMTP a mail is held here, so this is where a developer finds a reset
 * link; a link's single-use token is shown to super admins only (anyone else reading a super
 * admin's reset link would take over that account). A failed or held mail can be re-queued.
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
    lastError: r.lastError, nextAttemptAt: r.status === 'pending' ? isoOrNull(r.nextAttemptAt) : null, text: r.text, createdAt: iso(r.createdAt), sentAt: isoOrNull(r.sentAt),
  }),
  viewFor: (record, viewer) => (isSuperAdmin(viewer) ? record : { ...record, text: redactTokens(String(record.text)) }),
  actions: {
    /**
     * Back to the queue from its first attempt. Refused for a mail whose single-use links were
     * removed when it failed (it would send dead links: the user asks for a new one), and for a
     * held mail while this instance has no SMTP to send it with (it would only be held again).
     */
    retry: async (tx, _actor, record, _input, ctx) => {
      const id = Number(record._id);
      const [row] = await tx.select().from(mailOutbox).where(eq(mailOutbox.id, id));
      assertTransition(mailStates, 'retry', row!.status);
      if (row!.redacted) throw conflict('This mail held a single-use link that was removed when it failed: it cannot be sent again. Ask for a new one (e.g. forgot password again).');
      if (!ctx.mailer.delivers) throw conflict('No SMTP_URL is configured: the mail would only be held again. Configure SMTP, then retry.');
      await tx.update(mailOutbox).set({ status: 'pending', attempts: 0, nextAttemptAt: new Date(), lastError: null }).where(eq(mailOutbox.id, id));
      await notify(tx, MAIL_CHANNEL, String(id));
      return 'Mail queued again';
    },
  },
});
