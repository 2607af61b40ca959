import { marketStates, stateValues, type MarketResult, type MarketStatus } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, ref, ts, updatedAt } from '../../db/columns.js';
import { statusCheck } from '../../db/states.js';
import { events } from '../events/table.js';

/** The declared machine's states (packages/contract/src/modules/markets.ts). */
export const MARKET_STATUSES = stateValues(marketStates);

/**
 * One binary YES/NO market of an event. Prices are integer cents 1..99; volume and open interest
 * are whole shares (trades and positions come with the trading slice, which keeps these figures).
 */
export const markets = pgTable(
  'markets',
  {
    id: id(),
    eventId: ref('event_id').notNull().references(() => events.id, { onDelete: 'restrict' }),
    ticker: text('ticker').notNull(),
    title: text('title').notNull(),
    /** What makes it resolve YES: plain text, fixed once open. */
    rules: text('rules').notNull(),
    status: text('status').notNull().$type<MarketStatus>().default('draft'),
    /** Cents of the last trade (1..99), null before any. */
    lastPrice: integer('last_price'),
    /** Shares traded. */
    volume: bigint('volume', { mode: 'number' }).notNull().default(0),
    /** YES/NO pairs outstanding. */
    openInterest: bigint('open_interest', { mode: 'number' }).notNull().default(0),
    /** YES, NO or VOID once resolved or voided; null before. */
    result: text('result').$type<MarketResult>(),
    /** The last halt's reason code (MARKET_HALT_REASONS) and note: set by halt, cleared by resume or close. */
    haltReasonCode: text('halt_reason_code'),
    haltReason: text('halt_reason'),
    /**
     * Trading limits (shares; null: none), checked at order intake for customer accounts: shares of
     * one outcome held plus on order to buy, and one order's size. Taken from the series on create.
     */
    maxPosition: integer('max_position'),
    maxOrderSize: integer('max_order_size'),
    /** When trading ends: within the event's open and close times. */
    closesAt: ts('closes_at').notNull(),
    /** First opened (kept through halts), closed, resolved or voided. */
    openedAt: ts('opened_at'),
    closedAt: ts('closed_at'),
    /**
     * Random token written by every committed change of the market's order book (orders module):
     * an in-memory book is used only while its token equals this one, else it is rebuilt.
     */
    bookToken: text('book_token'),
    resolvedAt: ts('resolved_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('markets_ticker_uq').on(t.ticker),
    index('markets_event_idx').on(t.eventId, t.ticker),
    index('markets_status_closes_idx').on(t.status, t.closesAt),
    index('markets_closes_idx').on(t.closesAt, t.id),
    check('markets_ticker_ck', sql`${t.ticker} = upper(${t.ticker})`),
    statusCheck('markets_status_ck', t.status, marketStates),
    check('markets_price_ck', sql`${t.lastPrice} between 1 and 99`),
    check('markets_figures_ck', sql`${t.volume} >= 0 and ${t.openInterest} >= 0`),
    check(
      'markets_result_ck',
      sql`case ${t.status} when 'resolved' then coalesce(${t.result} in ('YES','NO'), false) when 'voided' then coalesce(${t.result} = 'VOID', false) else ${t.result} is null end`,
    ),
    check('markets_halt_reason_ck', sql`${t.status} <> 'halted' or ${t.haltReasonCode} is not null`),
    check('markets_limits_ck', sql`coalesce(${t.maxPosition}, 1) > 0 and coalesce(${t.maxOrderSize}, 1) > 0`),
    check('markets_opened_ck', sql`${t.status} = 'draft' or ${t.openedAt} is not null`),
    check('markets_closed_ck', sql`${t.status} not in ('closed','resolved','voided') or ${t.closedAt} is not null`),
    check('markets_resolved_ck', sql`(${t.status} in ('resolved','voided')) = (${t.resolvedAt} is not null)`),
  ],
);

export type MarketRow = typeof markets.$inferSelect;
