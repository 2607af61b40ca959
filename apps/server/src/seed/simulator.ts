import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Logger } from 'pino';
import { systemActor, type Actor } from '../context.js';
import { queryRows, type Db, type Tx } from '../db/client.js';
import { users } from '../db/schema.js';
import { AppError } from '../http/errors.js';
import { confirmDeposit, failDeposit, recordDeposit } from '../modules/deposits/service.js';
import { failFiatPayment, recordFiatPayment, succeedFiatPayment } from '../modules/fiat-payments/service.js';
import { createUser } from '../modules/users/service.js';
import { cancelOrder, placeOrder, SETTLEMENT_COIN } from '../modules/orders/service.js';
import { approveWithdrawal, completeWithdrawal, failWithdrawal, rejectWithdrawal, requestWithdrawal } from '../modules/withdrawals/service.js';
import { depositAmount, makeIp, makePerson, packPrice, providerReference, Random, REASONS, topUpQuote, type CoinSymbol } from './money.js';
import { demoOrder, holdingOf } from './trading.js';
import { ADVISORY_LOCKS } from '../lib/locks.js';

/*
 * The demo simulator keeps a demo back-office alive while it runs: every few seconds (randomised)
 * the platform reports something, through the same services the API calls, one small database
 * transaction per event:
 *
 * - a signup (createUser, by the platform);
 * - a deposit seen on chain (recordDeposit), confirmed or failed a few ticks later by the system
 *   actor `demo-simulator`;
 * - a withdrawal request by a player with funds (requestWithdrawal): while fewer than
 *   `reviewQueue` wait, about half are left `requested` for a person to review; the others are
 *   approved (or now and then rejected) and then sent (or failed) by `demo-simulator`;
 * - now and then a card payment (a coin top-up or a booster pack), settled a tick or two later;
 * - most often an order on an open market from a player with USDC (demoOrder), sometimes cancelled later.
 *
 * A refused call (insufficient balance, a record someone changed in the meantime…) is skipped and
 * logged at debug level; anything else is logged as a warning. Nothing stops the server.
 *
 * One instance runs it: on PostgreSQL the simulator holds a session advisory lock on a pooled
 * connection (`pg_try_advisory_lock`), and the other instances stand by, trying again every 30 s
 * (one takes over when the runner stops). PGlite is one process's database: it just runs.
 */

export const SIMULATOR_ACTOR = systemActor('demo-simulator');
const PLATFORM: Actor = { kind: 'platform', ip: '203.0.113.10' };
/** Session advisory lock key of the running simulator (all keys: lib/locks.ts). */
export const SIMULATOR_LOCK = ADVISORY_LOCKS.simulator;

export type SimEventKind = 'signup' | 'deposit' | 'withdrawal' | 'payment' | 'order';

export interface SimulatorOptions {
  db: Db;
  log: Pick<Logger, 'info' | 'warn' | 'debug'>;
  /** Pause between events: random between these (default 2–8 s). */
  minDelayMs?: number;
  maxDelayMs?: number;
  /** Seed of the simulator's randomness (default: from the clock); tests fix it. */
  seed?: number;
  /** Withdrawals are left for a person to review while fewer than this many wait (default 25). */
  reviewQueue?: number;
  /** PostgreSQL: how often a standby instance tries to take the lock (default 30 s). */
  lockRetryMs?: number;
}

export interface TickReport {
  /** The new event of this tick. */
  event: SimEventKind;
  /** What happened, in words (`deposit 812 recorded`, `deposit 790 confirmed`…). */
  done: string[];
  /** Refused by a service (a business rule), skipped. */
  skipped: string[];
  /** Unexpected errors (logged as warnings). */
  errors: string[];
}

export interface Simulator {
  /** One step now: the follow-ups that are due, then one new event (of `kind`, or a random one). */
  tick(kind?: SimEventKind): Promise<TickReport>;
  /** Runs ticks on a randomised timer (after taking the single-instance lock on PostgreSQL). */
  start(): void;
  /** Stops the timer, waits for the tick in flight, releases the lock. */
  stop(): Promise<void>;
}

/** `DEMO_SIMULATOR=off` (or false, 0, no) turns the simulator off; anything else leaves it on. */
export function simulatorEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !['off', 'false', '0', 'no'].includes((env.DEMO_SIMULATOR ?? '').trim().toLowerCase());
}

/** Starts the simulator; the returned function stops it (await it before closing the database). */
export function startSimulator(opts: SimulatorOptions): () => Promise<void> {
  const sim = createSimulator(opts);
  sim.start();
  return () => sim.stop();
}

interface FollowUp {
  due: number;
  what: string;
  run: (tx: Tx) => Promise<string>;
}

export function createSimulator(opts: SimulatorOptions): Simulator {
  const { db, log } = opts;
  const minDelay = Math.max(1, opts.minDelayMs ?? 2_000);
  const maxDelay = Math.max(minDelay, opts.maxDelayMs ?? 8_000);
  const reviewQueue = opts.reviewQueue ?? 25;
  const r = new Random(opts.seed ?? Date.now() % 4_294_967_296);
  const taken = { usernames: new Set<string>(), emails: new Set<string>() };
  const client = (db as unknown as { $client?: unknown }).$client;
  const pool = client instanceof pg.Pool ? client : null;

  let ticks = 0;
  let followUps: FollowUp[] = [];
  let chain: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> | null = null;
  let stopped = false;
  let lockClient: pg.PoolClient | null = null;
  let nextLockAttempt = 0;
  let standingBy = false;

  const later = (minTicks: number, maxTicks: number, what: string, run: FollowUp['run']) => {
    followUps.push({ due: ticks + r.int(minTicks, maxTicks), what, run });
  };

  /** Runs one step in its own transaction, sorting the outcome into the report. */
  const attempt = async (report: TickReport, what: string, step: (tx: Tx) => Promise<string | null>) => {
    try {
      const done = await db.transaction(step);
      if (done) report.done.push(done);
      else report.skipped.push(`${what}: nothing to do`);
    } catch (err) {
      if (err instanceof AppError && err.status < 500) {
        report.skipped.push(`${what}: ${err.message}`);
        log.debug({ what, reason: err.message }, 'demo simulator: skipped');
      } else {
        const message = err instanceof Error ? err.message : String(err);
        report.errors.push(`${what}: ${message}`);
        log.warn({ what, err: message }, 'demo simulator: step failed');
      }
    }
  };

  const coinsBySymbol = async (tx: Tx) => {
    const rows = await queryRows<{ id: number | string; symbol: string; min: string; fee: string }>(
      tx,
      sql`select id, symbol, min_withdrawal::text as min, withdrawal_fee::text as fee from coins where status = 'active' and symbol in ('SOL', 'USDC')`,
    );
    return new Map(rows.map((c) => [c.symbol as CoinSymbol, { id: Number(c.id), min: BigInt(c.min), fee: BigInt(c.fee) }]));
  };

  /** A random active player: half the time one of the newest 300 (new players are the busy ones). */
  const somePlayer = async (tx: Tx) => {
    const [n] = await queryRows<{ n: number | string }>(tx, sql`select count(*) as n from users where status = 'active'`);
    const total = Number(n?.n ?? 0);
    if (!total) return null;
    const offset = Math.floor(r.next() * (r.chance(0.5) ? Math.min(total, 300) : total));
    const [row] = await queryRows<{ id: number | string; wallet_address: string | null; country: string | null }>(
      tx,
      sql`select id, wallet_address, country from users where status = 'active' order by id desc offset ${offset} limit 1`,
    );
    return row ? { id: Number(row.id), wallet: row.wallet_address, country: row.country } : null;
  };

  const signup = (report: TickReport) =>
    attempt(report, 'signup', async (tx) => {
      // Names the database already has (the seed's players) are drawn again, a few times at most.
      let person = makePerson(r, taken);
      for (let i = 0; i < 5; i++) {
        const [clash] = await queryRows(tx, sql`select 1 from users where lower(username) = lower(${person.username}) or lower(email) = lower(${person.email}) limit 1`);
        if (!clash) break;
        person = makePerson(r, taken);
      }
      const user = await createUser(tx, PLATFORM, {
        ...person, walletAddress: r.chance(0.85) ? r.address() : null, signupIp: makeIp(r), emailVerified: r.chance(0.3),
      });
      await tx.update(users).set({ lastLoginAt: new Date() }).where(sql`${users.id} = ${user.id}`);
      return `user ${user.id} (${user.username}) signed up`;
    });

  const deposit = (report: TickReport) =>
    attempt(report, 'deposit', async (tx) => {
      const player = await somePlayer(tx);
      const coins = await coinsBySymbol(tx);
      const symbol: CoinSymbol = r.chance(0.6) ? 'USDC' : 'SOL';
      const coin = coins.get(symbol);
      if (!player || !coin) return null;
      const d = await recordDeposit(tx, PLATFORM, {
        userId: player.id, coin: coin.id, amount: depositAmount(r, symbol, r.chance(0.05) ? r.between(3, 10) : 1), txSignature: r.signature(),
        fromAddress: player.wallet && r.chance(0.7) ? player.wallet : r.address(),
      });
      if (r.chance(0.93)) later(2, 8, `confirm deposit ${d.id}`, async (t) => `deposit ${(await confirmDeposit(t, SIMULATOR_ACTOR, d.id)).id} confirmed`);
      else later(2, 8, `fail deposit ${d.id}`, async (t) => `deposit ${(await failDeposit(t, SIMULATOR_ACTOR, d.id, r.pick(REASONS.depositFailed))).id} failed`);
      return `deposit ${d.id} seen (${symbol})`;
    });

  const withdrawal = (report: TickReport) =>
    attempt(report, 'withdrawal', async (tx) => {
      const funded = sql`from ledger_accounts a join users u on u.id = a.user_id join coins c on c.id = a.coin_id
        where a.owner_kind = 'user' and a.bucket = 'available' and u.status = 'active' and c.status = 'active' and c.withdraw_enabled
          and c.symbol in ('SOL', 'USDC') and a.balance >= c.min_withdrawal + c.withdrawal_fee`;
      const [n] = await queryRows<{ n: number | string }>(tx, sql`select count(*) as n ${funded}`);
      const total = Number(n?.n ?? 0);
      if (!total) return null;
      const [row] = await queryRows<{ user_id: number | string; coin_id: number | string; symbol: string; balance: string; min: string; fee: string; wallet: string | null }>(
        tx,
        sql`select a.user_id, a.coin_id, c.symbol, a.balance::text as balance, c.min_withdrawal::text as min, c.withdrawal_fee::text as fee, u.wallet_address as wallet
          ${funded} order by a.id offset ${Math.floor(r.next() * total)} limit 1`,
      );
      if (!row) return null;
      const min = BigInt(row.min);
      const free = BigInt(row.balance) - BigInt(row.fee);
      const step = 1_000_000n; // 0.001 SOL, 1 USDC
      const share = r.chance(0.15) ? 1000n : BigInt(r.int(150, 800));
      let amount = share === 1000n ? free : ((free * share) / 1000n / step) * step;
      if (amount < min) amount = min;
      const w = await requestWithdrawal(tx, PLATFORM, {
        userId: Number(row.user_id), coin: Number(row.coin_id), amount, toAddress: row.wallet && r.chance(0.75) ? row.wallet : r.address(),
      });
      const [waiting] = await queryRows<{ n: number | string }>(tx, sql`select count(*) as n from withdrawals where status = 'requested'`);
      const send = () =>
        later(1, 4, `send withdrawal ${w.id}`, async (t) =>
          r.chance(0.95)
            ? `withdrawal ${(await completeWithdrawal(t, SIMULATOR_ACTOR, w.id, { txSignature: r.signature() })).id} completed`
            : `withdrawal ${(await failWithdrawal(t, SIMULATOR_ACTOR, w.id, r.pick(REASONS.withdrawalFailed))).id} failed`,
        );
      if (w.status === 'approved') send();
      else if (Number(waiting?.n ?? 0) >= reviewQueue || r.chance(0.5)) {
        if (r.chance(0.94)) {
          later(2, 6, `approve withdrawal ${w.id}`, async (t) => {
            await approveWithdrawal(t, SIMULATOR_ACTOR, w.id);
            send();
            return `withdrawal ${w.id} approved`;
          });
        } else {
          later(2, 6, `reject withdrawal ${w.id}`, async (t) => `withdrawal ${(await rejectWithdrawal(t, SIMULATOR_ACTOR, w.id, r.pick(REASONS.withdrawalRejected))).id} rejected`);
        }
      }
      return `withdrawal ${w.id} requested (${row.symbol}${w.status === 'requested' ? '' : `, ${w.status}`})`;
    });

  const payment = (report: TickReport) =>
    attempt(report, 'payment', async (tx) => {
      const player = await somePlayer(tx);
      if (!player) return null;
      const topUp = r.chance(0.6);
      const symbol: CoinSymbol = r.chance(0.75) ? 'USDC' : 'SOL';
      const coin = topUp ? (await coinsBySymbol(tx)).get(symbol) : undefined;
      if (topUp && !coin) return null;
      const provider = topUp ? r.pick(['moonpay', 'stripe']) : r.pick(['stripe', 'stripe', 'paypal']);
      const price = coin ? topUpQuote(r, symbol, player.country, Date.now()) : { ...packPrice(r, player.country), coinAmount: null };
      const p = await recordFiatPayment(tx, PLATFORM, {
        userId: player.id, provider, providerReference: providerReference(r, provider), amount: price.amount, currency: price.currency,
        purpose: topUp ? 'coin_topup' : 'pack_purchase', coin: coin?.id ?? null, coinAmount: price.coinAmount,
      });
      if (r.chance(0.88)) later(1, 3, `settle payment ${p.id}`, async (t) => `payment ${(await succeedFiatPayment(t, SIMULATOR_ACTOR, p.id)).id} succeeded`);
      else later(1, 3, `settle payment ${p.id}`, async (t) => `payment ${(await failFiatPayment(t, SIMULATOR_ACTOR, p.id, { reason: r.pick(REASONS.paymentFailed) })).id} failed`);
      return `payment ${p.id} recorded (${topUp ? `${symbol} top-up` : 'pack'})`;
    });

  /** A player with USDC places an order on an open market (through the order service), and now and then cancels one later. */
  const order = (report: TickReport) =>
    attempt(report, 'order', async (tx) => {
      const [m] = await queryRows<{ id: number | string; last_price: number | null }>(tx, sql`select id, last_price from markets where status = 'open' order by random() limit 1`);
      const [u] = await queryRows<{ user_id: number | string }>(tx, sql`
        select a.user_id from ledger_accounts a join coins c on c.id = a.coin_id join users u on u.id = a.user_id
        where a.owner_kind = 'user' and a.bucket = 'available' and c.symbol = ${SETTLEMENT_COIN} and a.balance >= 50 * power(10, c.decimals)::bigint and u.status = 'active'
        order by random() limit 1`);
      if (!m || !u) return null;
      const market = { id: Number(m.id), lastPrice: m.last_price === null ? null : Number(m.last_price) };
      const userId = Number(u.user_id);
      const res = await placeOrder(tx, PLATFORM, demoOrder(r, market, userId, await holdingOf(tx, userId, market.id)));
      const o = res.order;
      if ((o.status === 'open' || o.status === 'partially_filled') && r.chance(0.3)) {
        later(3, 15, `cancel order ${o.id}`, async (t) => `order ${(await cancelOrder(t, PLATFORM, { orderId: o.id })).id} cancelled`);
      }
      return `order ${o.id} ${o.side} ${o.outcome} ${o.quantity}@${o.price} on market ${market.id}: ${o.status}${res.trades ? `, ${res.trades} trade(s)` : ''}`;
    });

  const EVENTS: Record<SimEventKind, (report: TickReport) => Promise<void>> = { signup, deposit, withdrawal, payment, order };
  const WEIGHTS: [SimEventKind, number][] = [['signup', 15], ['deposit', 20], ['withdrawal', 15], ['payment', 10], ['order', 40]];

  const runTick = async (kind?: SimEventKind): Promise<TickReport> => {
    ticks++;
    const event = kind ?? r.weighted(WEIGHTS);
    const report: TickReport = { event, done: [], skipped: [], errors: [] };
    const due = followUps.filter((f) => f.due <= ticks);
    followUps = followUps.filter((f) => f.due > ticks);
    for (const f of due) await attempt(report, f.what, f.run);
    await EVENTS[event](report);
    // A signup comes with a friend now and then.
    if (event === 'signup' && r.chance(0.3)) await signup(report);
    if (report.done.length) log.debug({ done: report.done }, 'demo simulator');
    return report;
  };
  const tick = (kind?: SimEventKind): Promise<TickReport> => {
    const next = chain.then(() => runTick(kind));
    chain = next.catch(() => undefined);
    return next;
  };

  /** True when this instance may run: always on PGlite; holding the advisory lock on PostgreSQL. */
  const mayRun = async (): Promise<boolean> => {
    if (!pool || lockClient) return true;
    if (Date.now() < nextLockAttempt) return false;
    nextLockAttempt = Date.now() + (opts.lockRetryMs ?? 30_000);
    const c = await pool.connect();
    let got = false;
    try {
      got = (await c.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [SIMULATOR_LOCK])).rows[0]?.ok === true;
    } catch (err) {
      c.release(err as Error);
      throw err;
    }
    if (!got) {
      c.release();
      if (!standingBy) log.info('demo simulator: another instance runs it; this one stands by');
      standingBy = true;
      return false;
    }
    // The lock lives as long as this session: if the connection breaks, let it go and try again later.
    c.on('error', (err) => {
      if (lockClient !== c) return;
      lockClient = null;
      c.release(err);
      log.warn({ err: err.message }, 'demo simulator: lost its database session; will try to take over again');
    });
    lockClient = c;
    standingBy = false;
    log.info('demo simulator: this instance runs it');
    return true;
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      inFlight = (async () => {
        try {
          if (!stopped && (await mayRun()) && !stopped) await tick();
        } catch (err) {
          log.warn({ err: err instanceof Error ? err.message : String(err) }, 'demo simulator: tick failed');
        } finally {
          inFlight = null;
          schedule();
        }
      })();
    }, r.int(minDelay, maxDelay));
    timer.unref();
  };

  return {
    tick,
    start() {
      if (timer || stopped) return;
      log.info(`demo simulator started: a platform event every ${minDelay / 1000}–${maxDelay / 1000} s (DEMO_SIMULATOR=off turns it off)`);
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await inFlight;
      await chain;
      const c = lockClient;
      lockClient = null;
      if (c) {
        await c.query('select pg_advisory_unlock($1)', [SIMULATOR_LOCK]).catch(() => undefined);
        c.release();
      }
    },
  };
}
