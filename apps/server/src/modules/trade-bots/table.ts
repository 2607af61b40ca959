import { tradeBotStates, type FairSource, type TradeBotStatus } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, ref, ts, updatedAt } from '../../db/columns.js';
import { statusCheck } from '../../db/states.js';
import { markets } from '../markets/table.js';
import { users } from '../users/table.js';

const _list = (xs: readonly string[]) => sql.raw(xs.map((x) => `'${x}'`).join(','));

/**
 * A market maker (docs/markets.md, "Trade bots"): the platform user it trades as (one bot per user: every
 * live order of that user is the bot's), its parameters, and what its job last did. Its markets are
 * `trade_bot_markets` (or every open market with `all_open_markets`).
 */
export const tradeBots = pgTable(
  'trade_bots',
  {
    id: id(),
    name: text('name').notNull(),
    userId: ref('user_id').notNull().references(() => users.id, { onDelete: 'restrict' }),
    allOpenMarkets: boolean('all_open_markets').notNull().default(false),
    fairSource: text('fair_source').notNull().$type<FairSource>().default('last'),
    /** Cents 1..99: the fixed fair price, or the starting one of a last-trade bot until a market trades. */
    fairPrice: integer('fair_price').notNull().default(50),
    spread: integer('spread').notNull(),
    size: integer('size').notNull(),
    levels: integer('levels').notNull(),
    maxPosition: integer('max_position').notNull(),
    refreshSeconds: integer('refresh_seconds').notNull(),
    status: text('status').notNull().$type<TradeBotStatus>().default('stopped'),
    startedAt: ts('started_at'),
    lastRunAt: ts('last_run_at'),
    /** When the job refreshes it next (null while stopped). */
    nextRunAt: ts('next_run_at'),
    lastRunSummary: text('last_run_summary'),
    lastError: text('last_error'),
    lastErrorAt: ts('last_error_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('trade_bots_name_uq').on(sql`lower(${t.name})`),
    uniqueIndex('trade_bots_user_uq').on(t.userId),
    index('trade_bots_due_idx').on(t.nextRunAt).where(sql`${t.status} = 'running'`),
    statusCheck('trade_bots_status_ck', t.status, tradeBotStates),
    check('trade_bots_fair_ck', sql`${t.fairSource} in ('last','fixed') and ${t.fairPrice} between 1 and 99`),
    check('trade_bots_params_ck', sql`${t.spread} between 1 and 98 and ${t.size} > 0 and ${t.levels} between 1 and 10 and ${t.maxPosition} > 0 and ${t.refreshSeconds} > 0`),
  ],
);
export type TradeBotRow = typeof tradeBots.$inferSelect;

/** The markets a bot quotes (when it does not quote every open market). */
export const tradeBotMarkets = pgTable(
  'trade_bot_markets',
  {
    botId: ref('bot_id').notNull().references(() => tradeBots.id, { onDelete: 'cascade' }),
    marketId: ref('market_id').notNull().references(() => markets.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.botId, t.marketId] }), index('trade_bot_markets_market_idx').on(t.marketId)],
);
