import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';
import { cancelQuotesOnStoppedMarkets, recordBotFailure, refreshBot, type RefreshStats } from './service.js';
import { tradeBots } from './table.js';
import { ADVISORY_LOCKS } from '../../lib/locks.js';

/** Transaction advisory lock of one trade-bot tick: one instance runs the bots at a time, the others skip that tick. */
export const TRADE_BOT_LOCK = ADVISORY_LOCKS.tradeBots;

export interface BotTickReport {
  /** Quotes of running bots cancelled because their market halted or closed. */
  cancelledOnStoppedMarkets: number;
  /** Each bot refreshed in this tick. */
  refreshed: { botId: number; stats: RefreshStats }[];
}

/**
 * One tick of the trade-bot job, in one transaction under `pg_try_advisory_xact_lock` (as the GTD
 * expiry sweep): quotes on markets that stopped trading are cancelled, then every running bot whose
 * refresh is due (`next_run_at <= now`) is refreshed, in id order (a bot an admin is changing right
 * now, its row locked, waits for the next tick). Each market of a bot runs in a savepoint, so a
 * refusal or a failed market is recorded on the bot and the rest goes on. Returns null when another
 * instance holds the lock.
 */
export async function runTradeBots(db: Db, now = new Date()): Promise<BotTickReport | null> {
  let due: number[] = [];
  try {
    return await db.transaction(async (tx) => {
      const [lock] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${TRADE_BOT_LOCK}) as ok`);
      if (!lock?.ok) return null;
      const cancelledOnStoppedMarkets = await cancelQuotesOnStoppedMarkets(tx);
      const bots = await tx
        .select()
        .from(tradeBots)
        .where(and(eq(tradeBots.status, 'running'), or(isNull(tradeBots.nextRunAt), lte(tradeBots.nextRunAt, now))))
        .orderBy(asc(tradeBots.id))
        .for('update', { skipLocked: true });
      due = bots.map((b) => b.id);
      const refreshed: BotTickReport['refreshed'] = [];
      for (const bot of bots) refreshed.push({ botId: bot.id, stats: await refreshBot(tx, bot, now) });
      return { cancelledOnStoppedMarkets, refreshed };
    });
  } catch (err) {
    await recordBotFailure(db, due, (err as Error).message, now).catch(() => undefined);
    throw err;
  }
}

