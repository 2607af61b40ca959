import { formatUnits, rewardCardProblem } from '@pitboss/contract';
import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Actor } from '../../context.js';
import { queryRows, type Db, type DbOrTx } from '../../db/client.js';
import { badRequest } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import type { Row } from '../../resources/define.js';
import { mintCards } from '../booster-packs/catalogue.js';
import { coins } from '../coins/table.js';
import { postTransaction } from '../ledger/service.js';
import { rewardCards, rewardGrants, type RewardCardRow } from './table.js';
import { ADVISORY_LOCKS } from '../../lib/locks.js';

/** Transaction advisory lock of one reward tick: one instance grants at a time, the others skip that tick. */
export const REWARD_JOB_LOCK = ADVISORY_LOCKS.rewardGrants;
/** Users granted per reward card per tick (the rest wait for the next tick). */
export const GRANTS_PER_TICK = 500;

const toColumns = (v: Row): Row => {
  const out: Row = {};
  for (const [k, val] of Object.entries(v)) {
    if (k === 'threshold' || k === 'rewardAmount') out[k] = val === null || val === undefined ? val : BigInt(String(val));
    else if (k === 'conditionCoinId' || k === 'rewardCoinId' || k === 'rewardCharacterId') out[k] = val === null || val === undefined ? val : Number(val);
    else out[k] = val;
  }
  return out;
};

export function prepareRewardCreate(input: Row): Row {
  return toColumns(input);
}

/** A patch checked together with the stored record (condition and reward stay consistent); supply never below what is granted. */
export async function prepareRewardUpdate(input: Row, { tx, existing }: { tx: DbOrTx; existing: Row }): Promise<Row> {
  const [row] = await tx.select().from(rewardCards).where(eq(rewardCards.id, Number(existing.id)));
  const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
  const merged = {
    condition: row!.condition, periodDays: row!.periodDays, conditionCoinId: s(row!.conditionCoinId), rewardKind: row!.rewardKind,
    rewardCoinId: s(row!.rewardCoinId), rewardAmount: s(row!.rewardAmount), rewardCharacterId: s(row!.rewardCharacterId), ...input,
  } as Parameters<typeof rewardCardProblem>[0];
  const problem = rewardCardProblem(merged);
  if (problem) throw badRequest(problem.message, { [problem.path]: problem.message });
  if (input.supply !== undefined && Number(input.supply) < row!.granted) throw badRequest(`At least ${row!.granted}: already granted`, { supply: `At least ${row!.granted}: already granted` });
  return toColumns(input);
}

/** The users meeting a reward card's condition who do not have it yet, by user id, at most `limit`. */
function qualifying(card: RewardCardRow, limit: number, now: Date) {
  const notYet = sql`not exists (select 1 from reward_grants g where g.reward_card_id = ${card.id} and g.user_id = u.id)`;
  const threshold = sql`${card.threshold.toString()}::numeric`;
  switch (card.condition) {
    case 'trading_volume':
      return sql`select u.id from users u join lateral (
          select coalesce(sum(t.quantity), 0) as v from trades t
          where (t.maker_user_id = u.id or t.taker_user_id = u.id) and t.created_at >= ${now.toISOString()}::timestamptz - make_interval(days => ${card.periodDays ?? 0})) x on true
        where u.status = 'active' and x.v >= ${threshold} and ${notYet} order by u.id limit ${limit}`;
    case 'packs_opened':
      return sql`select u.id from users u where u.status = 'active' and ${notYet}
        and (select count(*) from pack_openings o where o.user_id = u.id) >= ${threshold} order by u.id limit ${limit}`;
    case 'total_deposits':
      return sql`select u.id from users u where u.status = 'active' and ${notYet}
        and (select coalesce(sum(d.amount), 0) from deposits d where d.user_id = u.id and d.coin_id = ${card.conditionCoinId} and d.status = 'confirmed') >= ${threshold}
        order by u.id limit ${limit}`;
  }
}

/** Grants one reward card to one user (the card row is locked by the caller): the grant row, then the money or the card. */
async function grant(tx: DbOrTx, actor: Actor, card: RewardCardRow, userId: number): Promise<void> {
  const [g] = await tx
    .insert(rewardGrants)
    .values({ rewardCardId: card.id, userId, amount: card.rewardKind === 'coin' ? card.rewardAmount : null, coinId: card.rewardKind === 'coin' ? card.rewardCoinId : null })
    .onConflictDoNothing()
    .returning();
  if (!g) return;
  if (card.rewardKind === 'coin') {
    await postTransaction(tx, actor, {
      cause: 'reward',
      ref: { type: 'reward_grant', id: g.id },
      postings: [
        { account: { platform: 'rewards' }, coin: card.rewardCoinId!, amount: -card.rewardAmount! },
        { account: { user: userId, bucket: 'available' }, coin: card.rewardCoinId!, amount: card.rewardAmount! },
      ],
    });
  } else {
    const [minted] = await mintCards(tx, actor, { userId, characterIds: [String(card.rewardCharacterId)], source: 'reward', sourceId: g.id });
    await tx.update(rewardGrants).set({ userCardId: Number(minted!.userCardId) }).where(eq(rewardGrants.id, g.id));
  }
  await writeAudit(tx, actor, { action: 'grant', resource: 'reward-grants', recordId: g.id, after: { rewardCardId: card.id, reward: card.name, userId, amount: card.rewardAmount } });
}

export interface RewardTickReport {
  granted: { rewardCardId: number; users: number }[];
  /** Reward cards whose card reward could not be minted (max supply reached) this tick. */
  failed: { rewardCardId: number; error: string }[];
}

/**
 * One tick of the reward job, in one transaction under `pg_try_advisory_xact_lock` (one instance):
 * each active reward card with supply left (its row locked, SKIP LOCKED) is granted to the users
 * meeting its condition who do not have it, by user id, up to its supply and GRANTS_PER_TICK. Each
 * card runs in a savepoint: a card reward whose character is minted out is recorded as failed and the
 * others go on. Null when another instance holds the lock.
 */
export async function runRewardGrants(db: Db, now = new Date()): Promise<RewardTickReport | null> {
  const actor: Actor = { kind: 'system', job: 'reward-cards' };
  return db.transaction(async (tx) => {
    const [lock] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${REWARD_JOB_LOCK}) as ok`);
    if (!lock?.ok) return null;
    const cards = await tx.select().from(rewardCards).where(and(eq(rewardCards.status, 'active'), lt(rewardCards.granted, rewardCards.supply))).orderBy(asc(rewardCards.id)).for('update', { skipLocked: true });
    const report: RewardTickReport = { granted: [], failed: [] };
    for (const card of cards) {
      const limit = Math.min(card.supply - card.granted, GRANTS_PER_TICK);
      try {
        const users = await tx.transaction(async (sp) => {
          const ids = await queryRows<{ id: string | number }>(sp, qualifying(card, limit, now));
          for (const u of ids) await grant(sp, actor, card, Number(u.id));
          if (ids.length) await sp.update(rewardCards).set({ granted: sql`${rewardCards.granted} + ${ids.length}`, updatedAt: new Date() }).where(eq(rewardCards.id, card.id));
          return ids.length;
        });
        if (users) report.granted.push({ rewardCardId: card.id, users });
      } catch (err) {
        report.failed.push({ rewardCardId: card.id, error: (err as Error).message });
      }
    }
    return report;
  });
}

/** The reward as words: `5 USDC` or `a card of character #12`. */
export async function rewardTexts(db: DbOrTx): Promise<Map<number, { symbol: string; decimals: number }>> {
  const rows = await db.select({ id: coins.id, symbol: coins.symbol, decimals: coins.decimals }).from(coins);
  return new Map(rows.map((r) => [r.id, { symbol: r.symbol, decimals: r.decimals }]));
}

export const amountText = (amount: bigint, coin: { symbol: string; decimals: number } | undefined) => (coin ? `${formatUnits(amount, coin.decimals)} ${coin.symbol}` : `${amount} minor units`);
