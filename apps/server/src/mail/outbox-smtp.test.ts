import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.js';
import { mailOutbox } from '../db/schema.js';
import { call, makeSubAdmin, startTestServer, superLogin, type TestServer } from '../../test/helpers.js';
import { backoffMs, createMailer, enqueueMail, type Mailer } from './mailer.js';

/**
 * The outbox against a real SMTP server started here: temporary refusals are retried with
 * exponential backoff, permanent ones and the last attempt end `failed`, an admin re-queues a failed
 * mail, and two mailers on one database never send a mail twice.
 */
interface Received {
  mailId: string;
  to: string[];
  at: number;
}

let smtp: SMTPServer;
let port = 0;
const received: Received[] = [];
/** Per recipient address: how the server answers. */
const behaviour = {
  /** RCPT TO refused with 451 this many more times (temporary). */
  rcpt451: 0,
  /** RCPT TO refused with 550 for addresses starting with `nobody` (permanent). */
  data550: false,
  /** Every RCPT refused with 451. */
  always451: false,
  /** Delay before accepting DATA (a slow server). */
  dataDelayMs: 0,
};
const rcptTimes: number[] = [];

let s: TestServer;
let token: string;
const log = pino({ level: 'silent' });

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, cb) {
      rcptTimes.push(Date.now());
      if (behaviour.always451 || behaviour.rcpt451 > 0) {
        behaviour.rcpt451 = Math.max(0, behaviour.rcpt451 - 1);
        return cb(Object.assign(new Error('Greylisted, try again later'), { responseCode: 451 }));
      }
      if (address.address.startsWith('nobody')) return cb(Object.assign(new Error('No such user here'), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      let data = '';
      stream.on('data', (c: Buffer) => (data += c.toString('utf8')));
      stream.on('end', () => {
        const finish = () => {
          if (behaviour.data550) return cb(Object.assign(new Error('Message rejected as spam'), { responseCode: 550 }));
          const mailId = /X-Pitboss-Mail-Id: (\d+)/i.exec(data)?.[1] ?? '?';
          received.push({ mailId, to: session.envelope.rcptTo.map((r) => r.address), at: Date.now() });
          cb();
        };
        if (behaviour.dataDelayMs) setTimeout(finish, behaviour.dataDelayMs);
        else finish();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  port = (smtp.server.address() as { port: number }).port;
  s = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  token = await superLogin(s);
});
afterAll(async () => {
  await s?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});
beforeEach(() => {
  Object.assign(behaviour, { rcpt451: 0, data550: false, always451: false, dataDelayMs: 0 });
  rcptTimes.length = 0;
});

const smtpUrl = () => `smtp://127.0.0.1:${port}`;
const mailerOn = (db: Database['db'], retry: { maxAttempts: number; baseDelayMs: number }, leaseMs?: number): Mailer =>
  createMailer({ db, smtpUrl: smtpUrl(), from: 'Pitboss <no-reply@pitboss.test>', log, retry: { ...retry, maxDelayMs: 60_000 }, ...(leaseMs ? { leaseMs } : {}) });
const queue = (to: string, subject = 'Hello') =>
  s.database.db.transaction((tx) => enqueueMail(tx, { to, subject, html: '<p>Hello</p>', templateKey: null }));
const rowOf = async (id: number) => (await s.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]!;

/** Runs delivery passes until `done` holds (the job would, every few seconds). */
async function deliverUntil(mailers: Mailer[], done: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error('timed out waiting for delivery');
    await Promise.all(mailers.map((m) => m.deliverPending()));
    await new Promise((r) => setTimeout(r, 15));
  }
}

describe('mail outbox worker over SMTP', () => {
  it('backoff doubles from the base up to the cap', () => {
    const p = { maxAttempts: 8, baseDelayMs: 30_000, maxDelayMs: 3_600_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffMs(p, n))).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000]);
  });

  it('a server that refuses with 451 twice, then accepts: retried with growing waits, sent once', async () => {
    const mailer = mailerOn(s.database.db, { maxAttempts: 5, baseDelayMs: 150 });
    behaviour.rcpt451 = 2;
    const id = await queue('greylisted@pitboss.test');
    await deliverUntil([mailer], async () => (await rowOf(id)).status !== 'pending');
    mailer.close();
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
    expect(received.filter((r) => r.mailId === String(id))).toHaveLength(1);
    // Three RCPT attempts: the second at least 150 ms after the first, the third at least 300 ms after the second.
    expect(rcptTimes).toHaveLength(3);
    expect(rcptTimes[1]! - rcptTimes[0]!).toBeGreaterThanOrEqual(140);
    expect(rcptTimes[2]! - rcptTimes[1]!).toBeGreaterThanOrEqual(290);
  });

  it('a server that always refuses (451) ends failed after the maximum attempts, with the error', async () => {
    const mailer = mailerOn(s.database.db, { maxAttempts: 3, baseDelayMs: 50 });
    behaviour.always451 = true;
    const id = await queue('always-busy@pitboss.test');
    await deliverUntil([mailer], async () => (await rowOf(id)).status !== 'pending');
    mailer.close();
    const row = await rowOf(id);
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(3);
    expect(row.lastError).toMatch(/451/);
    expect(received.some((r) => r.mailId === String(id))).toBe(false);
  });

  it('a permanent refusal (550 on DATA) fails at once without retrying', async () => {
    const mailer = mailerOn(s.database.db, { maxAttempts: 5, baseDelayMs: 50 });
    behaviour.data550 = true;
    const id = await queue('spam-trap@pitboss.test');
    await deliverUntil([mailer], async () => (await rowOf(id)).status !== 'pending');
    mailer.close();
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row.lastError).toMatch(/^Refused for good: .*550/);
  });

  it('retry re-queues a failed mail (edit right on Email Templates), which is then sent; wrong states are 409, no right is 403', async () => {
    const mailer = mailerOn(s.database.db, { maxAttempts: 1, baseDelayMs: 50 });
    const id = await queue('nobody@pitboss.test');
    await deliverUntil([mailer], async () => (await rowOf(id)).status !== 'pending');
    expect((await rowOf(id)).status).toBe('failed');

    const viewer = await makeSubAdmin(s, [{ name: 'Email Templates', canView: true, canEdit: false }], token);
    expect((await call(s, 'POST', `/api/admin/mail-outbox/${id}/retry`, { token: viewer.token })).status).toBe(403);
    expect((await rowOf(id)).status).toBe('failed');

    // The address is fixed on the server's side now: the retry goes through.
    await s.database.db.update(mailOutbox).set({ toAddress: 'somebody@pitboss.test' }).where(eq(mailOutbox.id, id));
    const res = await call(s, 'POST', `/api/admin/mail-outbox/${id}/retry`, { token });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ status: 'pending', attempts: 0, lastError: null });
    await deliverUntil([mailer], async () => (await rowOf(id)).status !== 'pending');
    mailer.close();
    expect((await rowOf(id)).status).toBe('sent');
    expect(received.filter((r) => r.mailId === String(id))).toHaveLength(1);

    const again = await call(s, 'POST', `/api/admin/mail-outbox/${id}/retry`, { token });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/only a failed or held mail can be retried/);
  });

  it('a failed mail whose single-use link was removed cannot be retried (409)', async () => {
    const mailer = mailerOn(s.database.db, { maxAttempts: 1, baseDelayMs: 50 });
    const id = await s.database.db.transaction((tx) =>
      enqueueMail(tx, { to: 'nobody-reset@pitboss.test', subject: 'Reset', html: '<a href="https://x.test/reset?token=abcdef123456">reset</a>', templateKey: 'forgot_password' }),
    );
    await deliverUntil([mailer], async () => (await rowOf(id)).status !== 'pending');
    mailer.close();
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'failed', redacted: true });
    expect(row.html).toContain('token=[redacted]');
    const res = await call(s, 'POST', `/api/admin/mail-outbox/${id}/retry`, { token });
    expect(res.status).toBe(409);
    expect((await rowOf(id)).status).toBe('failed');
  });

  it('two mailers on one database (two instances) never send one mail twice, even with a slow server and short leases', async () => {
    // On PostgreSQL each mailer has its own pool (as two instances would); on PGlite one database is one process's.
    const second = s.driver === 'postgres' ? await openDatabase({ databaseUrl: s.config.databaseUrl }) : null;
    const a = mailerOn(s.database.db, { maxAttempts: 3, baseDelayMs: 50 }, 60);
    const b = mailerOn(second?.db ?? s.database.db, { maxAttempts: 3, baseDelayMs: 50 }, 60);
    behaviour.dataDelayMs = 120;
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) ids.push(await queue(`twice-${i}@pitboss.test`, `Mail ${i}`));
    try {
      await deliverUntil([a, b], async () => {
        const rows = await s.database.db.select({ status: mailOutbox.status }).from(mailOutbox).where(inArray(mailOutbox.id, ids));
        return rows.every((r) => r.status === 'sent');
      }, 30_000);
    } finally {
      a.close();
      b.close();
      await second?.close();
    }
    for (const id of ids) expect(received.filter((r) => r.mailId === String(id)), `mail ${id}`).toHaveLength(1);
  });
});
