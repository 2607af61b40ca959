import { assertTransition } from '../resources/states.js';
import { mailStates, type MailTemplateKey, type MailVars } from '@pitboss/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import pg from 'pg';
import { queryRows, type Db, type DbOrTx } from '../db/client.js';
import { listen, notify } from '../db/notify.js';
import { emailTemplates, mailOutbox } from '../db/schema.js';
import { badRequest } from '../http/errors.js';
import { hasLineBreak, htmlToText, renderTemplate } from './render.js';
import { ADVISORY_LOCKS } from '../lib/locks.js';

/** Transaction advisory lock of the delivery loop: one instance delivers at a time (PostgreSQL). */
export const MAIL_DELIVERY_LOCK = ADVISORY_LOCKS.mailDelivery;
/** Channel the outbox announces new mail on (sent when the queuing transaction commits). */
export const MAIL_CHANNEL = 'mail_outbox';

export interface RetryPolicy {
  /** Attempts in all, the first included; then the mail is `failed`. */
  maxAttempts: number;
  /** Wait before the second attempt; each further one waits twice as long… */
  baseDelayMs: number;
  /** …up to this. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 30_000, maxDelayMs: 60 * 60_000 };

export interface Mailer {
  /** Renders a template and queues the mail in the caller's transaction (see `enqueueTemplate`). */
  enqueueTemplate<K extends MailTemplateKey>(tx: DbOrTx, input: { key: K; to: string; vars: MailVars<K> }): Promise<number | null>;
  /** Delivers the mail that is due (after the transaction committed). Safe to call from several instances. */
  deliverPending(): Promise<void>;
  /** Whether mail leaves this instance (SMTP configured, or a test transport); otherwise it is held. */
  readonly delivers: boolean;
  /** Runs delivery on every new mail as soon as its transaction commits (LISTEN); the `mail_delivery` job (jobs.ts) retries what comes due. Returns a stop function. */
  listen(): () => Promise<void>;
  close(): void;
}

/** Links carry single-use tokens: once a mail has left, the copy kept in the outbox no longer holds them. */
export function redactTokens(text: string): string {
  return text.replace(/([?&;]token=)[A-Za-z0-9_%-]+/g, '$1[redacted]');
}

/** A recipient as one plain address: a line break or control character (a header injection) or anything not an address is refused. */
export function checkAddress(to: string): string {
  const v = to.trim();
  if (hasLineBreak(v) || !/^[^\s@<>",;()\\[\]]+@[^\s@<>",;()\\[\]]+\.[^\s@<>",;()\\[\]]+$/.test(v) || v.length > 254) {
    throw badRequest('Not a single email address', { to: 'One plain email address, on one line' });
  }
  return v;
}

/** A subject as it will be sent: one line, or refused (nothing is folded or trimmed into a header). */
export function checkSubject(subject: string): string {
  if (hasLineBreak(subject)) throw badRequest('The mail subject would span more than one line: refused (header injection)', { subject: 'One line, no line breaks' });
  const v = subject.trim();
  if (!v) throw badRequest('The mail subject is empty', { subject: 'Subject is required' });
  return v;
}

/**
 * Queues a mail in the caller's transaction: the address and subject are checked (one line each),
 * the outbox is told when the transaction commits (NOTIFY), so the mailer sends it at once.
 */
export async function enqueueMail(tx: DbOrTx, input: { to: string; subject: string; html: string; templateKey: string | null }): Promise<number> {
  const [row] = await tx
    .insert(mailOutbox)
    .values({ toAddress: checkAddress(input.to), subject: checkSubject(input.subject), html: input.html, text: htmlToText(input.html), templateKey: input.templateKey })
    .returning({ id: mailOutbox.id });
  await notify(tx, MAIL_CHANNEL, String(row!.id));
  return row!.id;
}

/**
 * Renders template `key` with `vars` (HTML-escaped in the body, plain in the subject, which must stay
 * one line) and queues it in the caller's transaction. An inactive template sends nothing (null): the
 * admins turned that mail off. The variables are typed from the contract's catalogue.
 */
export async function enqueueTemplate<K extends MailTemplateKey>(tx: DbOrTx, input: { key: K; to: string; vars: MailVars<K> }, log?: Pick<FastifyBaseLogger, 'error'>): Promise<number | null> {
  const [tpl] = await tx.select().from(emailTemplates).where(eq(emailTemplates.key, input.key)).limit(1);
  if (tpl?.status !== 'active') {
    if (!tpl) log?.error({ key: input.key }, 'email template missing');
    return null;
  }
  const vars = input.vars as Record<string, string>;
  const html = renderTemplate(tpl.html, vars, 'html', tpl.variables);
  const subject = renderTemplate(tpl.subject, vars, 'text', tpl.variables);
  return enqueueMail(tx, { to: input.to, subject, html, templateKey: tpl.key });
}

/** Whether an SMTP error is final (5xx: RFC 5321 says do not repeat the same request) rather than worth retrying. */
export function isPermanent(err: unknown): boolean {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** Delay before attempt `attempts + 1`: base × 2^(attempts − 1), capped. */
export function backoffMs(policy: RetryPolicy, attempts: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempts - 1));
}

/** One delivery loop per database per process (PGlite is one process's anyway; PostgreSQL adds the advisory lock across processes). */
const loops = new WeakMap<object, { running: Promise<void> | null; again: boolean }>();

export function createMailer(opts: {
  db: Db;
  smtpUrl: string | undefined;
  from: string;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  transport?: Transporter;
  retry?: Partial<RetryPolicy>;
  /** How long a claimed mail is left to its sender before another try may take it (longer than any SMTP exchange). */
  leaseMs?: number;
}): Mailer {
  const transport: Transporter | null =
    opts.transport ?? (opts.smtpUrl ? nodemailer.createTransport({ url: opts.smtpUrl, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 } as Parameters<typeof nodemailer.createTransport>[0]) : null);
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...opts.retry };
  const leaseMs = opts.leaseMs ?? 5 * 60_000;
  const client = (opts.db as unknown as { $client: object }).$client;
  const onPostgres = client instanceof pg.Pool;
  let loop = loops.get(client);
  if (!loop) {
    loop = { running: null, again: false };
    loops.set(client, loop);
  }
  const state = loop;
  const redacted = (row: { html: string; text: string }) => {
    const html = redactTokens(row.html);
    const text = redactTokens(row.text);
    return { html, text, redacted: html !== row.html || text !== row.text };
  };

  async function deliverDue(): Promise<void> {
    const db = opts.db;
    for (;;) {
      // Claim one due message with a lease (SKIP LOCKED: a claim never waits on another's); the
      // SMTP exchange happens outside any transaction, the outcome is written after it.
      const claimed = await queryRows<{ id: string | number }>(db, sql`
        update mail_outbox set next_attempt_at = now() + ${`${leaseMs} milliseconds`}::interval, attempts = attempts + 1
        where id = (select id from mail_outbox where status = 'pending' and next_attempt_at <= now()
                    order by next_attempt_at, id limit 1 for update skip locked)
        returning id`);
      const id = claimed[0]?.id;
      if (id === undefined) return;
      const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, Number(id)));
      if (!row) continue;
      if (!transport) {
        // Without SMTP the mail is held in the outbox (its page shows it); the log never carries a body or a token.
        assertTransition(mailStates, 'hold', row.status);
        opts.log.info({ mailId: row.id, template: row.templateKey }, 'mail held in the outbox: no SMTP_URL configured');
        await db.update(mailOutbox).set({ status: 'held' }).where(eq(mailOutbox.id, row.id));
        continue;
      }
      try {
        await transport.sendMail({ from: opts.from, to: row.toAddress, subject: row.subject, html: row.html, text: row.text, headers: { 'X-Pitboss-Mail-Id': String(row.id) } });
        await db.update(mailOutbox).set({ status: 'sent', sentAt: new Date(), lastError: null, ...redacted(row) }).where(eq(mailOutbox.id, row.id));
      } catch (err) {
        const permanent = isPermanent(err);
        const final = permanent || row.attempts >= policy.maxAttempts;
        const message = String((err as Error).message).slice(0, 500);
        await db
          .update(mailOutbox)
          .set({
            lastError: permanent ? `Refused for good: ${message}` : message,
            status: final ? 'failed' : 'pending',
            ...(final ? redacted(row) : {}),
            nextAttemptAt: new Date(Date.now() + (final ? 0 : backoffMs(policy, row.attempts))),
          })
          .where(eq(mailOutbox.id, row.id));
        opts.log.warn({ mailId: row.id, attempts: row.attempts, final, err: message }, final ? 'mail delivery failed for good' : 'mail delivery failed: will retry');
      }
    }
  }

  /** One pass; on PostgreSQL only while holding the delivery lock (another instance holding it delivers instead). */
  async function deliverOnce(): Promise<void> {
    if (!onPostgres) return deliverDue();
    // The lock lives in a transaction on its own connection for the whole pass (and goes with it if
    // the connection drops); claims and outcomes are written through the pool, each committed at once.
    await opts.db.transaction(async (tx) => {
      const [lock] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${MAIL_DELIVERY_LOCK}) as ok`);
      if (!lock?.ok) return;
      await deliverDue();
    });
  }

  function deliverPending(): Promise<void> {
    if (state.running) {
      // Mail queued while a pass runs: one more pass after it.
      state.again = true;
      return state.running;
    }
    state.running = (async () => {
      do {
        state.again = false;
        await deliverOnce();
      } while (state.again);
    })()
      .catch((err) => opts.log.error({ err }, 'mail outbox loop failed'))
      .finally(() => {
        state.running = null;
      });
    return state.running;
  }

  return {
    delivers: transport !== null,
    enqueueTemplate: (tx, input) => enqueueTemplate(tx, input, opts.log),
    deliverPending,
    listen() {
      const listener = listen(opts.db, MAIL_CHANNEL, {
        onNotify: () => void deliverPending(),
        onResync: () => void deliverPending(),
        onError: (err) => opts.log.warn({ err: err.message }, 'mail outbox listener failed'),
      });
      void deliverPending();
      return async () => {
        await listener.close();
        await state.running;
      };
    },
    close() {
      transport?.close();
    },
  };
}

