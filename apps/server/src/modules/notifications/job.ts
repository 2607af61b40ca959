import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db, type DbOrTx } from '../../db/client.js';
import { notify as pgNotify } from '../../db/notify.js';
import { NOTIFICATIONS_CHANNEL } from './service.js';
import { ADVISORY_LOCKS } from '../../lib/locks.js';

/** Transaction advisory lock of one run of the notifications job: one instance looks at a time. */
export const NOTIFICATIONS_LOCK = ADVISORY_LOCKS.notifications;
/** At most this many new notifications of one kind per run (a backlog is worked off run by run). */
const PER_KIND = 200;

export interface ConditionReport {
  ticketWaiting: number;
  withdrawalReview: number;
  marketUnresolved: number;
  mailFailed: number;
}

/** Inserts the rows a SELECT gives (kind, restriction, title, body, link, record_key), each once; announces each new one on commit. */
async function insertNew(tx: DbOrTx, select: ReturnType<typeof sql>): Promise<number> {
  const rows = await queryRows<{ id: string | number }>(tx, sql`
    insert into notifications (kind, restriction, title, body, link, record_key)
    select * from (${select}) c
    on conflict (kind, record_key) do nothing
    returning id`);
  for (const r of rows) await pgNotify(tx, NOTIFICATIONS_CHANNEL, String(r.id));
  return rows.length;
}

/**
 * How long from `since` to `now`, as the notification says it: whole units, rounded down ("45 minutes",
 * "10 hours", "2 days"). Not a clock time: the text is stored once for every admin, each reading it in
 * their own zone (the notification's own time is shown in it); not the alert's threshold either (a
 * ticket found after two days of downtime has waited two days, not "over 1 hour").
 */
export function waitedFor(since: SQL, now: SQL): SQL<string> {
  return sql<string>`(select case
    when w.s >= 172800 then floor(w.s / 86400)::int || ' days' when w.s >= 86400 then '1 day'
    when w.s >= 7200 then floor(w.s / 3600)::int || ' hours' when w.s >= 3600 then '1 hour'
    when w.s >= 120 then floor(w.s / 60)::int || ' minutes' else '1 minute' end
    from (select extract(epoch from (${now}) - (${since})) as s) w)`;
}

/**
 * One run of the condition notifications, in one transaction under `pg_try_advisory_xact_lock`
 * (as the trade-bot job): a ticket open and unanswered for `waitingMinutes` (once per wait: the key
 * holds when it started waiting), a withdrawal awaiting review, a market closed and not resolved, a
 * mail that failed for good. Each condition is notified once per record (the unique key
 * `(kind, record_key)`). Returns null when another instance holds the lock.
 */
export async function runNotificationConditions(db: Db, opts: { waitingMinutes: number }, now = new Date()): Promise<ConditionReport | null> {
  return db.transaction(async (tx) => {
    const [lock] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${NOTIFICATIONS_LOCK}) as ok`);
    if (!lock?.ok) return null;
    const ticketWaiting = await insertNew(tx, sql`
      select 'ticket_waiting', 'Support Ticket', 'Ticket waiting: ' || left(t.subject, 150),
             u.username || ' has waited over ' || ${waitedFor(sql`t.waiting_since`, sql`${now}::timestamptz`)} || ' for an answer (priority ' || t.priority || ')',
             '/support-reply/' || t.id, 'ticket:' || t.id || ':' || (extract(epoch from t.waiting_since) * 1000)::bigint
      from tickets t join users u on u.id = t.user_id
      where t.waiting_since is not null and t.waiting_since <= ${now}::timestamptz - make_interval(mins => ${opts.waitingMinutes}::int)
        and not exists (select 1 from notifications n where n.kind = 'ticket_waiting' and n.record_key = 'ticket:' || t.id || ':' || (extract(epoch from t.waiting_since) * 1000)::bigint)
      order by t.waiting_since limit ${PER_KIND}`);
    const withdrawalReview = await insertNew(tx, sql`
      select 'withdrawal_review', 'Withdraw', 'Withdrawal awaiting review from ' || u.username,
             trim_scale(w.amount::numeric / power(10, c.decimals)::numeric)::text || ' ' || c.symbol || ' to ' || w.to_address,
             '/withdraw?status=requested&userId=' || w.user_id, 'withdrawal:' || w.id
      from withdrawals w join users u on u.id = w.user_id join coins c on c.id = w.coin_id
      where w.status = 'requested' and not exists (select 1 from notifications n where n.kind = 'withdrawal_review' and n.record_key = 'withdrawal:' || w.id)
      order by w.id limit ${PER_KIND}`);
    const marketUnresolved = await insertNew(tx, sql`
      select 'market_unresolved', 'Markets', 'Market closed, not resolved: ' || m.ticker, left(m.title, 300), '/event-resolution/' || m.event_id, 'market:' || m.id
      from markets m
      where m.status = 'closed' and m.closes_at <= ${now}::timestamptz
        and not exists (select 1 from notifications n where n.kind = 'market_unresolved' and n.record_key = 'market:' || m.id)
      order by m.closes_at, m.id limit ${PER_KIND}`);
    const mailFailed = await insertNew(tx, sql`
      select 'mail_failed', 'Email Templates', 'Mail failed: ' || left(o.subject, 150), 'To ' || o.to_address || ': ' || coalesce(left(o.last_error, 300), 'delivery failed'),
             '/mail-outbox', 'mail:' || o.id
      from mail_outbox o
      where o.status = 'failed' and not exists (select 1 from notifications n where n.kind = 'mail_failed' and n.record_key = 'mail:' || o.id)
      order by o.id limit ${PER_KIND}`);
    return { ticketWaiting, withdrawalReview, marketUnresolved, mailFailed };
  });
}
