import { randomBytes, randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminActor } from '../src/context.js';
import { queryRows, type Db } from '../src/db/client.js';
import { admins, mailOutbox, orders } from '../src/db/schema.js';
import { startJobs, type JobName } from '../src/jobs.js';
import { createMailer } from '../src/mail/mailer.js';
import { coinBySymbol } from '../src/modules/coins/service.js';
import { ORDER_EXPIRY_LOCK } from '../src/modules/orders/expiry.js';
import { TRADE_BOT_LOCK } from '../src/modules/trade-bots/job.js';
import { call, login, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from './helpers.js';
import { openTestMarket } from './market-helpers.js';
import { expectLedgerHealthy, fund, makeUser, newPlatformKey, platformCall, type MoneyFixture } from './money-helpers.js';
import { freshIp, shareOneLimit, startInstances } from './two-instances.js';

/*
 * Two instances of the app on one PostgreSQL database, as a load balancer would run them: a session
 * made on one works on the other (and signing out on one ends it on both), a rate limit counts
 * across both, the background jobs that must run once (GTD expiry, trade bots) run on one instance
 * at a time and mail is delivered once, and when an instance stops — gracefully, or killed while it
 * held a job's lock — the other carries on within one interval.
 *
 * PostgreSQL only: on PGlite one embedded data folder serves one process, so there is no second
 * instance to run (the PGlite run skips this file on purpose).
 */
const onPostgres = !!process.env.TEST_DATABASE_URL;
const KEY = newPlatformKey();
const INTERVAL = 100;
const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

type Instance = 'first' | 'second';
interface Tick {
  instance: Instance;
  job: JobName;
  result: unknown;
  at: number;
}

describe.skipIf(!onPostgres)('two instances on one PostgreSQL database (PostgreSQL only: a PGlite data folder serves one process)', () => {
  let pair: Awaited<ReturnType<typeof startInstances>>;
  let first: TestServer;
  let second: TestServer;
  let f: MoneyFixture;
  let token: string;
  let usdc: number;
  const ticks: Tick[] = [];
  const sent: { instance: Instance; to: string }[] = [];
  const stops: Partial<Record<Instance, () => Promise<void>>> = {};

  /** The jobs of one instance (as main.ts starts them), on its own pool, with its own mailer. */
  function startJobsOf(instance: Instance, db: Db) {
    const transport = {
      sendMail: async (m: { to: string }) => {
        sent.push({ instance, to: String(m.to) });
        return { messageId: randomUUID() };
      },
      close: () => undefined,
    } as unknown as Transporter;
    const mailer = createMailer({ db, smtpUrl: 'smtp://unused.invalid', from: 'ops@pitboss.test', log, transport });
    const intervals = { order_expiry: INTERVAL, trade_bots: INTERVAL, mail_delivery: INTERVAL, two_factor_challenge_purge: INTERVAL, idempotency_key_purge: INTERVAL };
    stops[instance] = startJobs({ db, mailer, log, intervals, onTick: (job, result) => ticks.push({ instance, job, result, at: Date.now() }) });
  }

  const admin = (path: string, body: unknown = {}) => call(first, 'POST', `/api/admin/${path}`, { token, body });
  // Every order of a test expires at one moment (a later command on the market would expire the
  // earlier ones itself as it advances the book's clock: only the job may expire them here).
  const placeGtd = (server: TestServer, userId: number, market: number, expiresAt: number) =>
    platformCall(server, KEY, 'POST', 'orders', {
      body: { userId: String(userId), market: String(market), outcome: 'YES', side: 'buy', price: 10 + Math.floor(Math.random() * 30), quantity: 2, timeInForce: 'GTD', expiresAt: new Date(expiresAt).toISOString() },
    });

  const openMarket = async () => (await openTestMarket(admin, 'KXTI')).id;


  /** Holds a job's advisory lock from a connection of its own, as an instance in the middle of a tick would. */
  async function holdLock(key: number) {
    const c = new pg.Client({ connectionString: first.config.databaseUrl });
    await c.connect();
    c.on('error', () => undefined);
    await c.query('begin');
    await c.query('select pg_advisory_xact_lock($1)', [key]);
    const [{ pid }] = (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows as [{ pid: number }];
    return { client: c, pid };
  }

  const liveOrders = async (ids: number[]) => (await first.database.db.select({ id: orders.id, status: orders.status }).from(orders).where(inArray(orders.id, ids))).filter((o) => o.status !== 'expired');

  beforeAll(async () => {
    pair = await startInstances({ PLATFORM_API_KEY: KEY });
    ({ first, second } = pair);
    const [root] = await first.database.db.select().from(admins).where(eq(admins.email, SUPER_EMAIL));
    const actor = adminActor(root!, '203.0.113.5');
    f = { s: first, db: first.database.db, admin: actor, admin2: actor, platform: { kind: 'platform', ip: '198.51.100.7' }, system: { kind: 'system', job: 'test' } };
    token = await login(first, SUPER_EMAIL, SUPER_PASSWORD);
    usdc = (await coinBySymbol(f.db, 'USDC'))!.id;
  }, 120_000);

  afterAll(async () => {
    await stops.first?.();
    await stops.second?.();
    if (pair) await expectLedgerHealthy(first.database.db);
    await pair?.close();
  });

  it('a session made on one instance works on the other; signing out on the other ends it on both', async () => {
    const t = await login(first, SUPER_EMAIL, SUPER_PASSWORD);
    const profile = await call(second, 'GET', '/api/admin/profile', { token: t });
    expect(profile.status).toBe(200);
    expect(profile.body.result.email).toBe(SUPER_EMAIL);
    expect((await call(second, 'POST', '/api/admin/logout', { token: t })).status).toBe(200);
    expect((await call(first, 'GET', '/api/admin/profile', { token: t })).status).toBe(401);
    expect((await call(second, 'GET', '/api/admin/profile', { token: t })).status).toBe(401);
  });

  it('a rate limit counts the calls of both instances', async () => {
    await shareOneLimit(pair, freshIp());
  });

  it('a locked job runs on one instance at a time: while its lock is held elsewhere neither runs it, then one does, once', async () => {
    startJobsOf('first', first.database.db);
    startJobsOf('second', second.database.db);
    const market = await openMarket();
    const user = await makeUser(f);
    await fund(f, user.id, usdc, 50_000_000n);

    // A third party (an instance mid-tick) holds both locks: neither instance runs those jobs.
    const expiry = await holdLock(ORDER_EXPIRY_LOCK);
    const bots = await holdLock(TRADE_BOT_LOCK);
    try {
      const expiresAt = Date.now() + 4_000; // room for six placements on a busy machine
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) {
        const placed = await placeGtd(i % 2 ? second : first, user.id, market, expiresAt);
        expect(placed.status, JSON.stringify(placed.body)).toBe(200);
        ids.push(Number(placed.body.result._id));
      }
      expect(Date.now(), 'placing the orders took longer than their life').toBeLessThan(expiresAt);
      await sleep(expiresAt - Date.now());
      const heldFrom = Date.now();
      await sleep(1_000);
      const whileHeld = ticks.filter((t) => t.at > heldFrom && (t.job === 'order_expiry' || t.job === 'trade_bots'));
      for (const instance of ['first', 'second'] as const) {
        for (const job of ['order_expiry', 'trade_bots'] as const) {
          const mine = whileHeld.filter((t) => t.instance === instance && t.job === job);
          expect(mine.length, `${instance} ${job} ticked while the lock was held`).toBeGreaterThan(2);
          expect(mine.every((t) => t.result === null), `${instance} ${job} ran while another held its lock`).toBe(true);
        }
      }
      expect(await liveOrders(ids), 'past their time, not yet expired: the job is held').toHaveLength(6);

      // Released: one instance expires them, each once (the counts of every tick add up to 6).
      const released = Date.now();
      await expiry.client.query('commit');
      await bots.client.query('commit');
      await until('the orders to expire', async () => (await liveOrders(ids)).length === 0, 5_000);
      await sleep(3 * INTERVAL);
      const expired = ticks.filter((t) => t.job === 'order_expiry' && t.at >= released && typeof t.result === 'number').reduce((n, t) => n + (t.result as number), 0);
      expect(expired).toBe(6);
      expect(ticks.some((t) => t.job === 'trade_bots' && t.at >= released && t.result !== null)).toBe(true);
    } finally {
      await expiry.client.end();
      await bots.client.end();
    }
  });

  it('mail is delivered once across both instances', async () => {
    const to = Array.from({ length: 8 }, (_, i) => `reader${i}-${randomBytes(2).toString('hex')}@pitboss.test`);
    await first.database.db.transaction(async (tx) => {
      for (const address of to) await first.mailer.enqueueTemplate(tx, { key: 'forgot_password', to: address, vars: { name: 'Reader', email: address, link: 'http://pitboss.test/reset?token=x', expiresInMinutes: '30', siteName: 'Pitboss' } });
    });
    await until('the mail to leave', async () => {
      const rows = await first.database.db.select({ status: mailOutbox.status }).from(mailOutbox).where(inArray(mailOutbox.toAddress, to));
      return rows.length === to.length && rows.every((r) => r.status === 'sent');
    }, 10_000);
    for (const address of to) expect(sent.filter((m) => m.to === address), address).toHaveLength(1);
  });

  it('an instance killed while holding a job lock: its connection ends, its lock goes with it, the other runs the job', async () => {
    const market = await openMarket();
    const user = await makeUser(f);
    await fund(f, user.id, usdc, 50_000_000n);
    const held = await holdLock(ORDER_EXPIRY_LOCK);
    try {
      const placed = await placeGtd(second, user.id, market, Date.now() + 1_500);
      expect(placed.status).toBe(200);
      await sleep(2_000);
      expect(await liveOrders([Number(placed.body.result._id)])).toHaveLength(1);
      // What SIGKILL of that instance does on the database's side: its backend ends, mid-transaction.
      await queryRows(first.database.db, sql`select pg_terminate_backend(${held.pid})`);
      const took = await until('the order to expire after the kill', async () => (await liveOrders([Number(placed.body.result._id)])).length === 0, 5_000);
      expect(took, "picked up within a few intervals").toBeLessThan(3_000);
    } finally {
      await held.client.end().catch(() => undefined);
    }
  });

  it('the second instance stopped gracefully: the first alone runs every job within its interval', async () => {
    await stops.second?.();
    delete stops.second;
    await pair.closeSecond();
    const stoppedAt = Date.now();
    const market = await openMarket();
    const user = await makeUser(f);
    await fund(f, user.id, usdc, 50_000_000n);
    const placed = await placeGtd(first, user.id, market, Date.now() + 1_000);
    expect(placed.status).toBe(200);
    const to = `after-stop-${randomBytes(2).toString('hex')}@pitboss.test`;
    await first.database.db.transaction((tx) => first.mailer.enqueueTemplate(tx, { key: 'forgot_password', to, vars: { name: 'Reader', email: to, link: 'http://pitboss.test/reset?token=x', expiresInMinutes: '30', siteName: 'Pitboss' } }));
    await until('the order to expire on the first instance', async () => (await liveOrders([Number(placed.body.result._id)])).length === 0, 5_000);
    await until('the mail to leave from the first instance', () => sent.some((m) => m.to === to), 3_000);
    expect(sent.find((m) => m.to === to)?.instance).toBe('first');
    const after = ticks.filter((t) => t.at > stoppedAt + INTERVAL);
    expect(after.every((t) => t.instance === 'first')).toBe(true);
    expect(after.filter((t) => t.job === 'order_expiry').some((t) => typeof t.result === 'number' && t.result > 0)).toBe(true);
  });
});
