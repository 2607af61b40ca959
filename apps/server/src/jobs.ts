import type { Db } from './db/client.js';
import { intervalJob } from './lib/interval-job.js';
import type { Mailer } from './mail/mailer.js';
import { runNotificationConditions } from './modules/notifications/job.js';
import { runDailyReconciliation } from './modules/reconciliation/service.js';
import { sweepExpiredOrders } from './modules/orders/expiry.js';
import { purgeExpiredIdempotencyKeys } from './modules/platform/idempotency.js';
import { runTradeBots } from './modules/trade-bots/job.js';
import { runRewardGrants } from './modules/reward-cards/service.js';
import { purgeExpiredChallenges } from './modules/two-factor/service.js';
import { purgeOrphanUploads } from './modules/uploads/purge.js';
import type { ImageStore } from './modules/uploads/storage.js';

/**
 * The background jobs every instance runs. Several instances on one PostgreSQL database share them
 * without a leader: each tick of a job that must run on one instance at a time (GTD expiry, trade
 * bots) takes a transaction advisory lock with `pg_try_advisory_xact_lock` and returns null when
 * another instance holds it, so at any moment at most one instance is inside it; mail delivery and the
 * condition notifications take an advisory lock too (mail also claims each message with a 60 s
 * lease, SKIP LOCKED); the purges (expired 2FA
 * challenges, expired Idempotency-Keys) are idempotent deletes, and the purge of orphaned uploads
 * takes its advisory lock too. Nothing is held between ticks, so when an instance stops (gracefully, or killed: its
 * connection closes and PostgreSQL drops its locks) the others simply get the lock on their next
 * tick: the hand-over takes at most one interval.
 */
export const JOB_INTERVALS = {
  order_expiry: 1_000,
  trade_bots: 1_000,
  // Mail also goes out as soon as its transaction commits (LISTEN on the outbox): this is the retry and resync beat.
  mail_delivery: 5_000,
  notifications: 30_000,
  reward_grants: 30_000,
  // Yesterday's check per coin (UTC days), once: the first tick after midnight does it.
  reconciliation: 10 * 60_000,
  two_factor_challenge_purge: 10 * 60_000,
  idempotency_key_purge: 60 * 60_000,
  orphan_upload_purge: 60 * 60_000,
} as const;

export type JobName = keyof typeof JOB_INTERVALS;

export interface JobsOptions {
  db: Db;
  mailer: Mailer;
  log: { warn: (o: object, m: string) => void };
  /** A ticket left unanswered this long is notified (minutes; TICKET_WAITING_ALERT_MINUTES). */
  ticketWaitingAlertMinutes?: number;
  /** Where uploaded images are (the orphan purge; none: that job does nothing). */
  images?: ImageStore;
  /** Shorter intervals (tests). */
  intervals?: Partial<Record<JobName, number>>;
  /** Each finished tick: the job's result (null: another instance held the job's lock). */
  onTick?: (job: JobName, result: unknown) => void;
}

/** Starts every background job; the returned function stops them and waits for the ticks in flight. */
export function startJobs(opts: JobsOptions): () => Promise<void> {
  const ticks: Record<JobName, () => Promise<unknown>> = {
    order_expiry: () => sweepExpiredOrders(opts.db),
    trade_bots: () => runTradeBots(opts.db),
    mail_delivery: () => opts.mailer.deliverPending(),
    reward_grants: async () => {
      const report = await runRewardGrants(opts.db);
      for (const f of report?.failed ?? []) opts.log.warn({ rewardCardId: f.rewardCardId, err: f.error }, 'reward card could not be granted');
      return report;
    },
    notifications: () => runNotificationConditions(opts.db, { waitingMinutes: opts.ticketWaitingAlertMinutes ?? 240 }),
    reconciliation: () => runDailyReconciliation(opts.db),
    two_factor_challenge_purge: () => purgeExpiredChallenges(opts.db),
    idempotency_key_purge: () => purgeExpiredIdempotencyKeys(opts.db),
    orphan_upload_purge: async () => (opts.images ? purgeOrphanUploads(opts.db, opts.images) : null),
  };
  const stops = (Object.keys(ticks) as JobName[]).map((name) =>
    intervalJob(ticks[name], {
      name,
      intervalMs: opts.intervals?.[name] ?? JOB_INTERVALS[name],
      onError: (err) => opts.log.warn({ err: err.message, job: name }, `${name.replaceAll('_', ' ')} failed`),
      ...(opts.onTick ? { onResult: (out: unknown) => opts.onTick?.(name, out) } : {}),
    }),
  );
  const stopListening = opts.mailer.listen();
  return async () => {
    await stopListening();
    await Promise.all(stops.map((stop) => stop()));
  };
}
