import { orderStates, positionStates, stateValues } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, money, ref, ts, updatedAt } from '../../db/columns.js';
import { statusCheck } from '../../db/states.js';
import { markets } from '../markets/table.js';
import { users } from '../users/table.js';

export const ORDER_OUTCOMES = ['YES', 'NO'] as const;
export type OrderOutcome = (typeof ORDER_OUTCOMES)[number];
export const ORDER_SIDES = ['buy', 'sell'] as const;
export type OrderSide = (typeof ORDER_SIDES)[number];
export const ORDER_TIFS = ['GTC', 'IOC', 'FOK', 'GTD'] as const;
export type OrderTif = (typeof ORDER_TIFS)[number];
/** The order's states: its declared machine's (the CHECK below is `statusCheck`'s). */
export const ORDER_STATUSES = stateValues(orderStates);
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** An order resting in the book (and holding money or shares). */
export const LIVE_ORDER_STATUSES: readonly OrderStatus[] = ['open', 'partially_filled'];
export const TRADE_KINDS = ['mint', 'transfer', 'merge'] as const;
export type TradeKind = (typeof TRADE_KINDS)[number];
export const POSITION_STATUSES = stateValues(positionStates);
export type PositionStatus = (typeof POSITION_STATUSES)[number];

const list = (xs: readonly string[]) => sql.raw(xs.map((x) => `'${x}'`).join(','));

/**
 * An order of a user on a market (docs/markets.md, "Orders and trades"). Price in cents of its outcome;
 * `held` is what a buy still holds in the user's `held` account (minor units of the market's coin),
 * zero once the order has ended. `remaining` is what rests in the book while the order is live.
 */
export const orders = pgTable(
  'orders',
  {
    id: id(),
    marketId: ref('market_id').notNull().references(() => markets.id, { onDelete: 'restrict' }),
    userId: ref('user_id').notNull().references(() => users.id, { onDelete: 'restrict' }),
    outcome: text('outcome').notNull().$type<OrderOutcome>(),
    side: text('side').notNull().$type<OrderSide>(),
    price: integer('price').notNull(),
    quantity: bigint('quantity', { mode: 'number' }).notNull(),
    filled: bigint('filled', { mode: 'number' }).notNull().default(0),
    remaining: bigint('remaining', { mode: 'number' }).notNull(),
    timeInForce: text('time_in_force').notNull().$type<OrderTif>(),
    expiresAt: ts('expires_at'),
    postOnly: boolean('post_only').notNull().default(false),
    status: text('status').notNull().$type<OrderStatus>().default('open'),
    /** Why it was rejected, cancelled or expired (engine reason code, e.g. POST_ONLY_WOULD_CROSS, IOC_REMAINDER, USER, CLOSED). */
    reason: text('reason'),
    /** Coin of the money (the market's settlement coin). */
    coinId: ref('coin_id').notNull(),
    /** What a buy holds now (max cost + max fee of its remainder, less what fills used); 0 when ended. */
    held: money('held').notNull().default(sql`0`),
    /** Fees this order paid (minor units). */
    fees: money('fees').notNull().default(sql`0`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('orders_market_live_idx').on(t.marketId, t.id).where(sql`${t.status} in ('open','partially_filled')`),
    index('orders_user_idx').on(t.userId, t.id),
    index('orders_market_idx').on(t.marketId, t.id),
    index('orders_created_idx').on(t.createdAt, t.id),
    // Sorting by held or fees: within the order's coin (minor units compare only there).
    index('orders_coin_held_idx').on(t.coinId, t.held, t.id),
    index('orders_coin_fees_idx').on(t.coinId, t.fees, t.id),
    index('orders_gtd_idx').on(t.expiresAt).where(sql`${t.timeInForce} = 'GTD' and ${t.status} in ('open','partially_filled')`),
    check('orders_outcome_ck', sql`${t.outcome} in (${list(ORDER_OUTCOMES)})`),
    check('orders_side_ck', sql`${t.side} in (${list(ORDER_SIDES)})`),
    check('orders_tif_ck', sql`${t.timeInForce} in (${list(ORDER_TIFS)})`),
    statusCheck('orders_status_ck', t.status, orderStates),
    check('orders_price_ck', sql`${t.price} between 1 and 99`),
    check('orders_qty_ck', sql`${t.quantity} > 0 and ${t.filled} >= 0 and ${t.remaining} >= 0 and ${t.filled} + ${t.remaining} <= ${t.quantity}`),
    check('orders_gtd_ck', sql`(${t.timeInForce} = 'GTD') = (${t.expiresAt} is not null)`),
    check('orders_held_ck', sql`${t.held} >= 0 and (${t.status} in ('open','partially_filled') or ${t.held} = 0) and (${t.side} = 'buy' or ${t.held} = 0)`),
    check('orders_live_ck', sql`${t.status} not in ('open','partially_filled') or ${t.remaining} > 0`),
  ],
);
export type OrderRow = typeof orders.$inferSelect;

/** One fill: price in YES cents, quantity in shares; fees in minor units of the market's coin. */
export const trades = pgTable(
  'trades',
  {
    id: id(),
    marketId: ref('market_id').notNull().references(() => markets.id, { onDelete: 'restrict' }),
    makerOrderId: ref('maker_order_id').notNull().references(() => orders.id),
    takerOrderId: ref('taker_order_id').notNull().references(() => orders.id),
    makerUserId: ref('maker_user_id').notNull().references(() => users.id),
    takerUserId: ref('taker_user_id').notNull().references(() => users.id),
    makerOutcome: text('maker_outcome').notNull().$type<OrderOutcome>(),
    makerSide: text('maker_side').notNull().$type<OrderSide>(),
    takerOutcome: text('taker_outcome').notNull().$type<OrderOutcome>(),
    takerSide: text('taker_side').notNull().$type<OrderSide>(),
    price: integer('price').notNull(),
    quantity: bigint('quantity', { mode: 'number' }).notNull(),
    kind: text('kind').notNull().$type<TradeKind>(),
    makerFee: money('maker_fee').notNull(),
    takerFee: money('taker_fee').notNull(),
    coinId: ref('coin_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('trades_market_idx').on(t.marketId, t.id),
    // A market's recent trades (the overview's 24 h volume, the event history's price chart).
    index('trades_market_time_idx').on(t.marketId, t.createdAt),
    index('trades_maker_user_idx').on(t.makerUserId, t.id),
    index('trades_taker_user_idx').on(t.takerUserId, t.id),
    index('trades_created_idx').on(t.createdAt, t.id),
    // Sorting by a fee: within the trade's coin (minor units compare only there).
    index('trades_coin_taker_fee_idx').on(t.coinId, t.takerFee, t.id),
    index('trades_coin_maker_fee_idx').on(t.coinId, t.makerFee, t.id),
    check('trades_kind_ck', sql`${t.kind} in (${list(TRADE_KINDS)})`),
    check('trades_price_ck', sql`${t.price} between 1 and 99`),
    check('trades_qty_ck', sql`${t.quantity} > 0 and ${t.makerFee} >= 0 and ${t.takerFee} >= 0`),
  ],
);
export type TradeRow = typeof trades.$inferSelect;

/**
 * A user's holding of one outcome of one market (average-cost method, as the engine's
 * PositionBook): cost and realised P&L in minor units; `reserved` shares are offered by live sells.
 */
export const positions = pgTable(
  'positions',
  {
    id: id(),
    userId: ref('user_id').notNull().references(() => users.id, { onDelete: 'restrict' }),
    marketId: ref('market_id').notNull().references(() => markets.id, { onDelete: 'restrict' }),
    outcome: text('outcome').notNull().$type<OrderOutcome>(),
    quantity: bigint('quantity', { mode: 'number' }).notNull().default(0),
    reserved: bigint('reserved', { mode: 'number' }).notNull().default(0),
    cost: money('cost').notNull().default(sql`0`),
    realizedPnl: money('realized_pnl').notNull().default(sql`0`),
    /** What the market's settlement paid for this position (minor units; in realised P&L too); null until its market is resolved or voided. */
    settlement: money('settlement'),
    status: text('status').notNull().$type<PositionStatus>().default('open'),
    coinId: ref('coin_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('positions_user_market_outcome_uq').on(t.userId, t.marketId, t.outcome),
    // Partial on the status: a position that closes (a sale to zero, a settlement) leaves the open
    // indexes and enters the closed one, so a settlement writes three index entries per position,
    // not four (docs/markets.md, "Resolution and settlement": the bench).
    index('positions_market_open_idx').on(t.marketId, t.outcome).where(sql`${t.status} = 'open'`),
    index('positions_open_idx').on(t.updatedAt, t.id).where(sql`${t.status} = 'open'`),
    index('positions_closed_idx').on(t.updatedAt, t.id).where(sql`${t.status} = 'closed'`),
    check('positions_outcome_ck', sql`${t.outcome} in (${list(ORDER_OUTCOMES)})`),
    statusCheck('positions_status_ck', t.status, positionStates),
    check('positions_qty_ck', sql`${t.quantity} >= 0 and ${t.reserved} >= 0 and ${t.reserved} <= ${t.quantity} and ${t.cost} >= 0`),
  ],
);
export type PositionRow = typeof positions.$inferSelect;
