import { formatUnits, type ReconciliationStatus, type ReconciliationTrigger } from '@pitboss/contract';
import { and, desc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import { textArray } from '../../db/bulk.js';
import { queryRows, type Db, type DbOrTx } from '../../db/client.js';
import { badRequest, notFound } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { coins, type CoinRow } from '../coins/table.js';
import { notify } from '../notifications/service.js';
import { custodyReports, reconciliations, type CustodyReportRow, type ReconciliationRow } from './table.js';

/**
 * Reconciliation (docs/money-controls.md, "Reconciliation"). Per coin, at an instant T:
 *
 * - ledger custody L(T): minus the `hot_wallet` account's balance, the coins custody should hold;
 * - records R(T): deposits confirmed by T minus amounts of withdrawals completed by T (a
 *   withdrawal's fee stays in custody as income);
 * - in flight F(T): deposits seen on chain by T and not confirmed (nor failed) by T: in custody,
 *   not yet credited;
 * - custody C: the platform's report for T.
 *
 * C − L is explained by F; L − R by records whose ledger transaction falls on the other side of T
 * (listed). What is left is a mismatch. The ledger's balances at T are its balances now minus the
 * postings of transactions after T, read through `ledger_transactions_created_idx`: a check costs
 * the transactions since T, not the whole ledger.
 */

export interface Figures {
  ledgerCustody: bigint;
  recordsNet: bigint;
  inFlight: bigint;
  usersAvailable: bigint;
  usersHeld: bigint;
  house: bigint;
  fees: bigint;
  collateral: bigint;
}

export interface Check extends Figures {
  coinId: number;
  asOf: Date;
  custody: bigint | null;
  custodyReportId: number | null;
  difference: bigint | null;
  unexplained: bigint | null;
  ledgerVsRecords: bigint;
  status: ReconciliationStatus;
  explanation: string[];
}

/** The classes the ledger's balances are summed by. */
type BalanceClass = 'available' | 'held' | 'house' | 'hot_wallet' | 'fees_income' | 'market_collateral' | 'other';

const CLASS_OF = sql`case when a.owner_kind = 'user' then (case when u.house then 'house' else a.bucket end)
  when a.platform_code in ('hot_wallet', 'fees_income', 'market_collateral') then a.platform_code else 'other' end`;

const big = (v: unknown): bigint => (v === null || v === undefined ? 0n : BigInt(String(v)));

/** The ledger's balances by class at each instant (sorted ascending, distinct), for one coin. */
async function balancesAt(db: DbOrTx, coinId: number, ats: Date[]): Promise<Map<BalanceClass, bigint>[]> {
  const now = new Map<BalanceClass, bigint>();
  for (const r of await queryRows<{ cls: BalanceClass; total: string }>(db, sql`
      select ${CLASS_OF} as cls, sum(a.balance)::text as total from ledger_accounts a left join users u on u.id = a.user_id
      where a.coin_id = ${coinId} group by 1`)) now.set(r.cls, big(r.total));
  // What moved in each interval (T_i, T_i+1], the last one open-ended: balance(T_k) = now − Σ_{i ≥ k}.
  const moved = await queryRows<{ i: number; cls: BalanceClass; total: string }>(db, sql`
    with pts as (select at, (i - 1)::int as i from unnest(${textArray(ats.map((d) => d.toISOString()))}::timestamptz[]) with ordinality as p(at, i)),
      ivs as (select i, at as lo, lead(at) over (order by at) as hi from pts)
    select ivs.i, ${CLASS_OF} as cls, sum(p.amount)::text as total
    from ivs join ledger_transactions t on t.created_at > ivs.lo and (ivs.hi is null or t.created_at <= ivs.hi)
      join ledger_postings p on p.transaction_id = t.id and p.coin_id = ${coinId}
      join ledger_accounts a on a.id = p.account_id
      left join users u on u.id = a.user_id
    group by 1, 2`);
  const byInterval = ats.map(() => new Map<BalanceClass, bigint>());
  for (const r of moved) byInterval[Number(r.i)]!.set(r.cls, big(r.total));
  const out: Map<BalanceClass, bigint>[] = new Array(ats.length);
  const running = new Map(now);
  for (let k = ats.length - 1; k >= 0; k--) {
    for (const [cls, v] of byInterval[k]!) running.set(cls, (running.get(cls) ?? 0n) - v);
    out[k] = new Map(running);
  }
  return out;
}

interface RecordFigures {
  recordsNet: bigint;
  inFlight: bigint;
  explanation: string[];
  /** The records whose ledger entry is on the other side of T: their effect on L − R. */
  timing: bigint;
}

const EXPLAIN_MAX = 50;

/** Deposits minus withdrawals by T, deposits in flight at T, and the records that straddle T. */
async function recordsAt(db: DbOrTx, coin: CoinRow, at: Date): Promise<RecordFigures> {
  const t = at.toISOString();
  const amount = (v: bigint) => `${formatUnits(v, coin.decimals)} ${coin.symbol}`;
  const [sums] = await queryRows<{ dep_all: string; dep_after: string; wd_all: string; wd_after: string }>(db, sql`
    select (select coalesce(sum(amount), 0) from deposits where coin_id = ${coin.id} and status = 'confirmed')::text as dep_all,
      (select coalesce(sum(amount), 0) from deposits where coin_id = ${coin.id} and status = 'confirmed' and confirmed_at > ${t}::timestamptz)::text as dep_after,
      (select coalesce(sum(amount), 0) from withdrawals where coin_id = ${coin.id} and status = 'completed')::text as wd_all,
      (select coalesce(sum(amount), 0) from withdrawals where coin_id = ${coin.id} and status = 'completed' and processed_at > ${t}::timestamptz)::text as wd_after`);
  const recordsNet = big(sums?.dep_all) - big(sums?.dep_after) - (big(sums?.wd_all) - big(sums?.wd_after));
  // Seen on chain by T, neither confirmed nor failed by T.
  const flying = await queryRows<{ id: number; amount: string; username: string; created_at: string; status: string }>(db, sql`
    select d.id, d.amount::text as amount, u.username, to_char(d.created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as created_at, d.status
    from deposits d join users u on u.id = d.user_id
    where d.coin_id = ${coin.id} and d.created_at <= ${t}::timestamptz
      and (d.status = 'pending' or (d.status = 'confirmed' and d.confirmed_at > ${t}::timestamptz) or (d.status = 'failed' and d.reviewed_at > ${t}::timestamptz))
    order by d.id`);
  const explanation: string[] = [];
  let inFlight = 0n;
  for (const d of flying) {
    inFlight += big(d.amount);
    if (explanation.length < EXPLAIN_MAX) {
      explanation.push(`Deposit #${d.id}: ${amount(big(d.amount))} from ${d.username}, seen on chain ${d.created_at} UTC, not confirmed then (now ${d.status})`);
    }
  }
  // Records whose time and ledger transaction's time are on either side of T (a day before or after).
  const straddling = await queryRows<{ kind: string; id: number; amount: string; sign: number }>(db, sql`
    select 'Deposit' as kind, d.id, d.amount::text as amount, case when d.confirmed_at <= ${t}::timestamptz then -1 else 1 end as sign
    from deposits d join ledger_transactions x on x.cause = 'deposit' and x.ref_type = 'deposit' and x.ref_id = d.id
    where d.coin_id = ${coin.id} and d.status = 'confirmed' and d.confirmed_at between ${t}::timestamptz - interval '1 day' and ${t}::timestamptz + interval '1 day'
      and (d.confirmed_at <= ${t}::timestamptz) <> (x.created_at <= ${t}::timestamptz)
    union all
    select 'Withdrawal', w.id, w.amount::text, case when w.processed_at <= ${t}::timestamptz then 1 else -1 end
    from withdrawals w join ledger_transactions x on x.cause = 'withdrawal_complete' and x.ref_type = 'withdrawal' and x.ref_id = w.id
    where w.coin_id = ${coin.id} and w.status = 'completed' and w.processed_at between ${t}::timestamptz - interval '1 day' and ${t}::timestamptz + interval '1 day'
      and (w.processed_at <= ${t}::timestamptz) <> (x.created_at <= ${t}::timestamptz)
    order by 1, 2`);
  let timing = 0n;
  for (const s of straddling) {
    timing += BigInt(s.sign) * big(s.amount);
    if (explanation.length < EXPLAIN_MAX) explanation.push(`${s.kind} #${s.id}: ${amount(big(s.amount))}, its record and its ledger entry are on either side of this instant`);
  }
  return { recordsNet, inFlight, explanation, timing };
}

/** Checks one coin at each instant, against the custody report given for it (or none). */
export async function checkCoin(db: DbOrTx, coin: CoinRow, points: { at: Date; report: CustodyReportRow | null }[]): Promise<Check[]> {
  if (points.length === 0) return [];
  const ats = [...new Set(points.map((p) => p.at.getTime()))].sort((a, b) => a - b).map((n) => new Date(n));
  const balances = await balancesAt(db, coin.id, ats);
  const byTime = new Map(ats.map((d, i) => [d.getTime(), balances[i]!]));
  const amount = (v: bigint) => `${formatUnits(v, coin.decimals)} ${coin.symbol}`;
  const out: Check[] = [];
  for (const p of points) {
    const b = byTime.get(p.at.getTime())!;
    const get = (c: BalanceClass) => b.get(c) ?? 0n;
    const rec = await recordsAt(db, coin, p.at);
    const ledgerCustody = -get('hot_wallet');
    const ledgerVsRecords = ledgerCustody - rec.recordsNet;
    const explanation = [...rec.explanation];
    const recordsLeft = ledgerVsRecords - rec.timing;
    if (recordsLeft !== 0n) explanation.unshift(`Ledger and records differ by ${amount(recordsLeft)} that no record explains`);
    const custody = p.report?.amount ?? null;
    const difference = custody === null ? null : custody - ledgerCustody;
    const unexplained = difference === null ? null : difference - rec.inFlight;
    if (unexplained !== null && unexplained !== 0n) explanation.unshift(`Custody differs from the ledger by ${amount(unexplained)} that no record explains`);
    let status: ReconciliationStatus;
    if (recordsLeft !== 0n || (unexplained !== null && unexplained !== 0n)) status = 'mismatch';
    else if (custody === null) status = 'no_report';
    else if (difference !== 0n || ledgerVsRecords !== 0n) status = 'explained';
    else status = 'matched';
    out.push({
      coinId: coin.id, asOf: p.at, custody, custodyReportId: p.report?.id ?? null, difference, unexplained, ledgerVsRecords, status, explanation,
      ledgerCustody, recordsNet: rec.recordsNet, inFlight: rec.inFlight,
      usersAvailable: get('available'), usersHeld: get('held'), house: get('house'), fees: get('fees_income'), collateral: get('market_collateral'),
    });
  }
  return out;
}

/** The coin's last custody report at or before T (and at or after `since` when given). */
export async function lastReport(db: DbOrTx, coinId: number, at: Date, since?: Date): Promise<CustodyReportRow | null> {
  const [row] = await db.select().from(custodyReports)
    .where(and(eq(custodyReports.coinId, coinId), lte(custodyReports.asOf, at), since ? gte(custodyReports.asOf, since) : undefined))
    .orderBy(desc(custodyReports.asOf), desc(custodyReports.id)).limit(1);
  return row ?? null;
}

async function loadCoin(db: DbOrTx, coinId: number): Promise<CoinRow> {
  const [coin] = Number.isSafeInteger(coinId) ? await db.select().from(coins).where(eq(coins.id, coinId)) : [];
  if (!coin) throw notFound('Coin');
  return coin;
}

/** Stores a check, and notifies a mismatch once per custody report (or per check without one). */
async function store(tx: DbOrTx, coin: CoinRow, check: Check, trigger: ReconciliationTrigger, adminId: number | null): Promise<ReconciliationRow | null> {
  const [row] = await tx.insert(reconciliations).values({
    coinId: check.coinId, asOf: check.asOf, trigger, status: check.status, custodyReportId: trigger === 'custody_report' ? check.custodyReportId : null,
    custody: check.custody, ledgerCustody: check.ledgerCustody, recordsNet: check.recordsNet, inFlight: check.inFlight, difference: check.difference,
    unexplained: check.unexplained, ledgerVsRecords: check.ledgerVsRecords, usersAvailable: check.usersAvailable, usersHeld: check.usersHeld,
    house: check.house, fees: check.fees, collateral: check.collateral, explanation: check.explanation.join('\n'), adminId,
  }).onConflictDoNothing().returning();
  if (row && row.status === 'mismatch') {
    const amount = (v: bigint) => `${formatUnits(v, coin.decimals)} ${coin.symbol}`;
    const what = row.unexplained !== null && row.unexplained !== 0n ? `custody differs from the ledger by ${amount(row.unexplained)}` : `ledger and records differ by ${amount(row.ledgerVsRecords)}`;
    await notify(tx, {
      kind: 'reconciliation_mismatch',
      title: `Reconciliation mismatch: ${coin.symbol}`,
      body: `At ${row.asOf.toISOString()}, ${what} that no record explains.`,
      link: `/reconciliation/${row.id}`,
      recordKey: check.custodyReportId !== null ? `custody_report:${check.custodyReportId}` : `reconciliation:${row.id}`,
    });
  }
  return row ?? null;
}

/** A custody balance reported by the platform: stored, and reconciled at its instant at once. */
export async function reportCustody(tx: DbOrTx, input: { coin: CoinRow; amount: bigint; asOf: Date }): Promise<{ report: CustodyReportRow; check: ReconciliationRow }> {
  if (input.asOf.getTime() > Date.now() + 5 * 60_000) throw badRequest('The instant is in the future', { asOf: 'At most 5 minutes ahead of this server’s clock' });
  const [report] = await tx.insert(custodyReports).values({ coinId: input.coin.id, amount: input.amount, asOf: input.asOf }).returning();
  const [check] = await checkCoin(tx, input.coin, [{ at: input.asOf, report: report! }]);
  const row = await store(tx, input.coin, check!, 'custody_report', null);
  return { report: report!, check: row! };
}

/** "Reconcile now": one coin at this instant, against its latest custody report. */
export async function reconcileNow(tx: DbOrTx, actor: Actor, coinId: number): Promise<ReconciliationRow> {
  const coin = await loadCoin(tx, coinId);
  const at = new Date();
  const report = await lastReport(tx, coin.id, at);
  // The latest report is compared at its own instant: the ledger then, not now.
  const [check] = await checkCoin(tx, coin, [{ at: report ? report.asOf : at, report }]);
  const row = (await store(tx, coin, check!, 'on_demand', actor.kind === 'admin' ? actor.admin.id : null))!;
  await writeAudit(tx, actor, { action: 'create', resource: 'reconciliations', recordId: row.id, after: { coin: coin.symbol, status: row.status, asOf: row.asOf.toISOString() } });
  return row;
}

/** The instant a day is checked at: its last custody report, or its end (capped at now). */
export async function dayPoints(db: DbOrTx, coinId: number, days: { start: Date; end: Date }[]): Promise<{ at: Date; report: CustodyReportRow | null }[]> {
  const now = new Date();
  const out: { at: Date; report: CustodyReportRow | null }[] = [];
  for (const d of days) {
    const last = new Date(Math.min(d.end.getTime() - 1, now.getTime()));
    const [report] = await db.select().from(custodyReports)
      .where(and(eq(custodyReports.coinId, coinId), gte(custodyReports.asOf, d.start), lt(custodyReports.asOf, d.end)))
      .orderBy(desc(custodyReports.asOf), desc(custodyReports.id)).limit(1);
    out.push(report ? { at: report.asOf, report } : { at: last, report: null });
  }
  return out;
}

/**
 * The daily check (job): each active coin at the end of yesterday (UTC days), against that day's
 * last custody report, stored once per coin and day and notified on a mismatch.
 */
export async function runDailyReconciliation(db: Db, now = new Date()): Promise<{ checked: number }> {
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const start = new Date(end.getTime() - 86_400_000);
  let checked = 0;
  for (const coin of await db.select().from(coins).where(and(eq(coins.status, 'active'), lt(coins.createdAt, end)))) {
    const [exists] = await db.select({ id: reconciliations.id }).from(reconciliations)
      .where(and(eq(reconciliations.coinId, coin.id), eq(reconciliations.trigger, 'daily'), gte(reconciliations.asOf, start), lt(reconciliations.asOf, end))).limit(1);
    if (exists) continue;
    // One transaction per coin: the check, its row and its notification together.
    const stored = await db.transaction(async (tx) => {
      const [point] = await dayPoints(tx, coin.id, [{ start, end }]);
      const [check] = await checkCoin(tx, coin, [point!]);
      return store(tx, coin, check!, 'daily', null);
    });
    if (stored) checked++;
  }
  return { checked };
}
