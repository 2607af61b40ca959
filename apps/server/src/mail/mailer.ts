import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { queryRows, type Db, type DbOrTx } from '../db/client.js';
import { emailTemplates, mailOutbox } from '../db/schema.js';
import { htmlToText, renderTemplate, singleLine } from './render.js';

export interface Mailer {
  /** Renders a template and queues the mail in the caller's transaction. */
  enqueueTemplate(tx: DbOrTx, input: { key: string; to: string; vars: Record<string, string> }): Promise<number | null>;
  /** Delivers queued mail (after the transaction committed). Safe to call from several instances. */
  deliverPending(): Promise<void>;
  close(): void;
}

const MAX_ATTEMPTS = 5;

/** Links carry single-use tokens: once a mail has left, the copy kept in the outbox no longer holds them. */
export function redactTokens(text: string): string {
  return text.replace(/([?&]token=)[A-Za-z0-9_%-]+/g, '$1[redacted]');
}

export function createMailer(opts: { db: Db; smtpUrl: string | undefined; from: string; log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>; transport?: Transporter }): Mailer {
  const transport: Transporter | null = opts.transport ?? (opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null);
  const redacted = (row: { html: string; text: string }) => ({ html: redactTokens(row.html), text: redactTokens(row.text) });
  let running: Promise<void> | null = null;

  async function deliverOnce(): Promise<void> {
    for (;;) {
      // Claim one due message with a 60 s lease (SKIP LOCKED lets several instances share the
      // outbox); the SMTP exchange happens outside any transaction.
      const claimed = await queryRows<{ id: string | number }>(opts.db, sql`
        update mail_outbox set next_attempt_at = now() + interval '60 seconds', attempts = attempts + 1
        where id = (select id from mail_outbox where status = 'pending' and next_attempt_at <= now()
                    order by id limit 1 for update skip locked)
        returning id`);
      const id = claimed[0]?.id;
      if (id === undefined) return;
      const [row] = await opts.db.select().from(mailOutbox).where(eq(mailOutbox.id, Number(id)));
      if (!row) continue;
      if (!transport) {
        // Without SMTP the mail is held in the outbox (its page shows it); the log never carries a body or a token.
        opts.log.info({ mailId: row.id, template: row.templateKey }, 'mail held in the outbox: no SMTP_URL configured');
        await opts.db.update(mailOutbox).set({ status: 'held' }).where(eq(mailOutbox.id, row.id));
        continue;
      }
      try {
        await transport.sendMail({ from: opts.from, to: row.toAddress, subject: row.subject, html: row.html, text: row.text });
        await opts.db.update(mailOutbox).set({ status: 'sent', sentAt: new Date(), lastError: null, ...redacted(row) }).where(eq(mailOutbox.id, row.id));
      } catch (err) {
        await opts.db
          .update(mailOutbox)
          .set({
            lastError: String((err as Error).message).slice(0, 500),
            status: row.attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
            ...(row.attempts >= MAX_ATTEMPTS ? redacted(row) : {}),
            nextAttemptAt: new Date(Date.now() + 2 ** row.attempts * 1000),
          })
          .where(eq(mailOutbox.id, row.id));
        opts.log.warn({ mailId: row.id, err: (err as Error).message }, 'mail delivery failed');
      }
    }
  }

  return {
    async enqueueTemplate(tx, input) {
      const [tpl] = await tx.select().from(emailTemplates).where(eq(emailTemplates.key, input.key)).limit(1);
      if (tpl?.status !== 'active') {
        opts.log.error({ key: input.key }, 'email template missing or inactive');
        return null;
      }
      const html = renderTemplate(tpl.html, input.vars, 'html');
      const [row] = await tx
        .insert(mailOutbox)
        .values({
          toAddress: singleLine(input.to),
          subject: singleLine(renderTemplate(tpl.subject, input.vars, 'text')),
          html,
          text: htmlToText(html),
          templateKey: tpl.key,
        })
        .returning({ id: mailOutbox.id });
      return row?.id ?? null;
    },
    deliverPending() {
      // One delivery loop at a time in this process; callers may await it.
      running ??= deliverOnce()
        .catch((err) => opts.log.error({ err }, 'mail outbox loop failed'))
        .finally(() => {
          running = null;
        });
      return running;
    },
    close() {
      transport?.close();
    },
  };
}
