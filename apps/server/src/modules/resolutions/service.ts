import { settleEventIfDone } from '../events/service.js';
import { marketResolveInput, marketStates, type MarketResult } from '@pitboss/contract';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { assertTransition } from '../../resources/states.js';
import { unitsText } from '../ledger/format.js';
import { postCreditsFrom } from '../ledger/service.js';
import { ledgerAccounts } from '../ledger/table.js';
import { marketAuditView } from '../markets/service.js';
import { markets, type MarketRow } from '../markets/table.js';
import { LIVE_ORDER_STATUSES, orders } from '../orders/table.js';
import { settlementCoin } from '../orders/service.js';
import { resolutions, type ResolutionRow } from './table.js';

/*
 * Resolution and settlement of a closed market (README, "Resolution and settlement"), in the
 * caller's ONE database transaction:
 *
 * 1. the market row is locked FOR UPDATE and the state machine checked (closed → resolved for YES
 *    or NO, closed → voided for VOID): a second resolution waits for the first, then gets 409;
 * 2. the market's collateral is read from the ledger: every posting on `market_collateral` made by
 *    the market's transactions (its orders' fills, its own closing and expiry commands); it must be
 *    100¢ per YES/NO pair the positions hold;
 * 3. each open position's payout: YES or NO pays 100¢ per winning share, the losing side 0; VOID
 *    pays each position its cost (the shares' average cost, fees aside), and when holders' costs do
 *    not add up to the collateral (shares changed hands at other prices, so sellers kept a gain or a
 *    loss) the collateral is shared in proportion to the costs, to the minor unit, largest
 *    remainders first: the total is the collateral either way. ONE ledger transaction (cause
 *    `settlement`, ref the market): `market_collateral` −total, each holder's available +their
 *    payouts summed per user (`postCreditsFrom`: a fixed handful of set-based statements);
 * 4. the positions close in one UPDATE (payout on `settlement`, realised P&L += payout − cost,
 *    quantity and cost 0, status closed), which must count the positions read in 2 and pay what
 *    step 3 posted;
 * 5. the market's collateral, read in 2, plus what the settlement's transaction moved on it, must be
 *    exactly zero, else everything rolls back;
 * 6. the market becomes resolved or voided (result, resolved at; open interest 0), the resolution
 *    row is written (unique per market) and the audit entry.
 */

const COLLATERAL = 'market_collateral';

/** What the market's own transactions put into (and took out of) `market_collateral`, in minor units of `coinId`. */
export async function marketCollateral(tx: DbOrTx, marketId: number, coinId: number): Promise<bigint> {
  const [account] = await tx
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.platformCode, COLLATERAL), eq(ledgerAccounts.coinId, coinId)));
  if (!account) return 0n;
  const [row] = await queryRows<{ total: string }>(tx, sql`
    with txns as (
      select t.id from ledger_transactions t where t.ref_type = 'market' and t.ref_id = ${marketId}::bigint
      union all
      select t.id from orders o join ledger_transactions t on t.ref_type = 'order' and t.ref_id = o.id where o.market_id = ${marketId}::bigint)
    select coalesce(sum(p.amount), 0)::text as total from txns join ledger_postings p on p.transaction_id = txns.id and p.account_id = ${account.id}::bigint`);
  return BigInt(row!.total);
}

export interface Settlement {
  market: MarketRow;
  resolution: ResolutionRow;
  /** What was paid, as text (`12.5 USDC`). */
  paidText: string;
}

/** The market's open positions (the partial index `positions_market_open_idx`). */
const openPositionsOf = (marketId: number) => sql`market_id = ${marketId}::bigint and status = 'open'`;

/** VOID: the payout of each open position, as `(id, user_id, payout)` rows (minor units). */
function voidPayouts(marketId: number, collateral: bigint) {
  // Costs, scaled to the collateral when they do not add up to it (largest remainders, then id order).
  return sql`with held as (select id, user_id, cost from positions where ${openPositionsOf(marketId)}),
      tot as (select coalesce(sum(cost), 0)::numeric as s from held),
      base as (select h.id, h.user_id,
          case when tot.s = 0 then 0 else floor(${collateral.toString()}::numeric * h.cost / tot.s) end as b,
          case when tot.s = 0 then 0 else mod(${collateral.toString()}::numeric * h.cost, tot.s) end as r
        from held h, tot),
      spare as (select ${collateral.toString()}::numeric - coalesce(sum(b), 0) as n from base),
      ranked as (select id, user_id, b, row_number() over (order by r desc, id) as rn from base)
    select ranked.id, ranked.user_id, (ranked.b + case when ranked.rn <= spare.n then 1 else 0 end)::bigint as payout from ranked, spare`;
}

/**
 * The settlement's two set-based statements: `credits`, each holder's total payout (a SELECT of
 * `(user_id, amount > 0)`, one row per user, for the ledger, which reads it three times), and
 * `close`, the UPDATE that closes every open position with its payout, answering how many it closed
 * and what they were paid. YES and NO read the open positions through their index each time; VOID's
 * pro-rata payouts and their sums per holder are computed once, into temporary tables dropped at
 * commit.
 */
async function settlementQueries(tx: DbOrTx, marketId: number, result: MarketResult, collateral: bigint, perShare: bigint, now: Date) {
  const per = sql`${perShare.toString()}::bigint`;
  const closeSet = (payout: SQL) => sql`settlement = ${payout}, realized_pnl = p.realized_pnl + ${payout} - p.cost, cost = 0, quantity = 0, status = 'closed', updated_at = ${now}`;
  if (result !== 'VOID') {
    const payout = sql`case when p.outcome = ${result} then p.quantity * ${per} else 0 end`;
    return {
      credits: sql`select user_id, sum(quantity) * ${per} from positions where ${openPositionsOf(marketId)} and outcome = ${result} group by user_id`,
      close: sql`with c as (update positions p set ${closeSet(payout)} where ${openPositionsOf(marketId)} returning p.settlement)
        select count(*) as n, coalesce(sum(settlement), 0)::text as paid from c`,
    };
  }
  await queryRows(tx, sql`drop table if exists pitboss_void_payouts, pitboss_void_credits`);
  await queryRows(tx, sql`create temp table pitboss_void_payouts on commit drop as ${voidPayouts(marketId, collateral)}`);
  await queryRows(tx, sql`create temp table pitboss_void_credits on commit drop as
    select user_id, sum(payout)::bigint as amount from pitboss_void_payouts group by user_id having sum(payout) > 0`);
  await queryRows(tx, sql`analyze pitboss_void_payouts, pitboss_void_credits`);
  return {
    credits: sql`select user_id, amount from pitboss_void_credits`,
    close: sql`with c as (update positions p set ${closeSet(sql`v.payout`)} from pitboss_void_payouts v where p.id = v.id returning p.settlement)
      select count(*) as n, coalesce(sum(settlement), 0)::text as paid from c`,
  };
}

/**
 * Resolves a closed market (YES, NO or VOID, with its source and evidence) and settles it: see the
 * comment above. Refuses the platform API (403), a bad body (400), another state (409). `at`: when
 * the resolution is recorded as made (the demo's history); the ledger transaction is dated now.
 */
export async function resolveMarket(tx: DbOrTx, actor: Actor, marketId: number, body: unknown, opts: { at?: Date } = {}): Promise<Settlement> {
  if (actor.kind === 'platform') throw forbidden('The platform cannot resolve markets');
  const parsed = marketResolveInput.safeParse(body);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[issue.path.map(String).join('.') || 'result'] ??= issue.message;
    throw badRequest(Object.values(errors)[0]!, errors);
  }
  const input = parsed.data;
  const now = opts.at ?? new Date();
  const [before] = Number.isSafeInteger(marketId) ? await tx.select().from(markets).where(eq(markets.id, marketId)).for('update') : [];
  if (!before) throw notFound('Market');
  const status = assertTransition(marketStates, input.result === 'VOID' ? 'void' : 'resolve', before.status);
  // Closing cancelled every resting order; a live one now would hold money the settlement ignores.
  const [live] = await tx.select({ id: orders.id }).from(orders).where(and(eq(orders.marketId, marketId), inArray(orders.status, [...LIVE_ORDER_STATUSES]))).limit(1);
  if (live) throw conflict(`Market ${before.ticker} still has live orders (order ${live.id}): close it again before resolving`);

  // Settings for this transaction only: sorts and hashes of 100 k rows in memory rather than on
  // disk, no JIT compilation (it costs more than it saves on these few statements), no parallel
  // workers (a transaction holding locks does not wait for CPU shared with other sessions).
  await queryRows(tx, sql`select set_config('work_mem', '64MB', true), set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)`);
  const coin = await settlementCoin(tx);
  const perShare = 100n * coin.unit;
  const collateral = await marketCollateral(tx, marketId, coin.id);
  const [held] = await queryRows<{ yes: string; no: string; positions: string | number; holders: string | number }>(tx, sql`
    select coalesce(sum(quantity) filter (where outcome = 'YES'), 0)::text as yes, coalesce(sum(quantity) filter (where outcome = 'NO'), 0)::text as no,
      count(*) as positions, count(distinct user_id) as holders
    from positions where ${openPositionsOf(marketId)}`);
  const pairs = BigInt(held!.yes);
  if (pairs !== BigInt(held!.no) || collateral !== pairs * perShare) {
    throw conflict(
      `Market ${before.ticker} cannot be settled: its collateral holds ${collateral} minor units of ${coin.symbol} for ${held!.yes} YES and ${held!.no} NO shares (100¢ per pair would be ${pairs * perShare}); nothing was paid`,
    );
  }

  // 3. One ledger transaction: the collateral to the holders (one credit per user).
  const q = await settlementQueries(tx, marketId, input.result, collateral, perShare, now);
  const posted = await postCreditsFrom(tx, actor, { cause: 'settlement', ref: { type: 'market', id: marketId }, coin: coin.id, from: COLLATERAL, credits: q.credits });
  // 4. The positions close with their payouts, which must add up to what was posted.
  const [closed] = await queryRows<{ n: string | number; paid: string }>(tx, q.close);
  if (Number(closed!.n) !== Number(held!.positions) || BigInt(closed!.paid) !== posted.total) {
    throw conflict(`Settlement of ${before.ticker}: ${closed!.n} positions closed paying ${closed!.paid}, but ${posted.total} was posted to the ledger: rolled back, nothing was paid`);
  }
  // 5. The market's collateral is exactly zero, or nothing of this happened: what it held (read above,
  // under the market's lock, with no live order left to add to it) plus what the settlement's own
  // transaction moved on it, read back from the ledger.
  const [moved] = posted.transactionId === null ? [{ total: '0' }] : await queryRows<{ total: string }>(tx, sql`
    select coalesce(sum(p.amount), 0)::text as total from ledger_postings p join ledger_accounts a on a.id = p.account_id
    where p.transaction_id = ${posted.transactionId}::bigint and a.platform_code = ${COLLATERAL}`);
  const left = collateral + BigInt(moved!.total);
  if (left !== 0n || posted.total !== collateral) {
    throw conflict(`Settlement of ${before.ticker} would leave ${left} minor units of ${coin.symbol} in its collateral (paid ${posted.total} of ${collateral}): rolled back, nothing was paid`);
  }

  // 6. The market, its resolution and the audit entry.
  const [market] = await tx
    .update(markets)
    .set({ status, result: input.result, resolvedAt: now, openInterest: 0, updatedAt: now })
    .where(eq(markets.id, marketId))
    .returning();
  const [resolution] = await tx
    .insert(resolutions)
    .values({
      marketId, result: input.result, source: input.source, evidence: input.evidence,
      actorKind: actor.kind === 'admin' ? 'admin' : 'system', adminId: actor.kind === 'admin' ? actor.admin.id : null,
      coinId: coin.id, collateral, totalPaid: posted.total, holders: Number(held!.holders), positions: Number(held!.positions), pairs: Number(pairs),
      transactionId: posted.transactionId, createdAt: now,
    })
    .returning();
  await writeAudit(tx, actor, {
    action: input.result === 'VOID' ? 'void' : 'resolve', resource: 'markets', recordId: marketId,
    at: now,
    before: marketAuditView(before),
    after: {
      ...marketAuditView(market!), source: input.source, evidence: input.evidence, collateral, totalPaid: posted.total,
      holders: resolution!.holders, positions: resolution!.positions, transactionId: posted.transactionId,
    },
  });
  // The event settles with its last market.
  await settleEventIfDone(tx, actor, market!.eventId);
  return { market: market!, resolution: resolution!, paidText: unitsText(posted.total, coin.decimals, coin.symbol)! };
}
