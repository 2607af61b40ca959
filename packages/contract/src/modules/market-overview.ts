import { z } from 'zod';
import { endpoint, readAccess } from '../resources/endpoint.js';
import { idParam } from '../resources/spec.js';

/*
 * The live market overview (`/market-overview`, restriction `Markets`): every open or halted
 * market with its best bid and ask, last price, 24 h volume and open interest, and the depth of one
 * market's book. Prices are whole cents of a YES share (1..99): a NO order at q is shown where it
 * trades in YES terms, at 100 − q (a NO buy offers YES at 100 − q, a NO sell bids for YES at
 * 100 − q), so one ladder holds the whole book.
 *
 * The stream (`GET /api/admin/market-overview/stream`) is `text/event-stream`; its events carry the
 * JSON of the schemas below (`MARKET_OVERVIEW_EVENTS`): a `snapshot` first, then `markets` (the
 * rows that changed, and those that left: closed) and `depth` (the selected market's whole book) as
 * orders and trades commit on any instance, at most a few a second per market.
 */

export const overviewMarketSchema = z.object({
  _id: z.string(),
  ticker: z.string(),
  title: z.string(),
  eventId: z.string(),
  eventTicker: z.string(),
  eventTitle: z.string(),
  status: z.enum(['open', 'halted']),
  /** Highest price someone pays for YES (a YES buy, or a NO sell at 100 − it); null on an empty side. */
  bestBid: z.number().int().nullable(),
  /** Lowest price someone sells YES at (a YES sell, or a NO buy at 100 − it). */
  bestAsk: z.number().int().nullable(),
  lastPrice: z.number().int().nullable(),
  /** Shares traded in the last 24 hours. */
  volume24h: z.number().int(),
  /** Shares traded since the market opened. */
  volume: z.number().int(),
  /** YES/NO pairs outstanding. */
  openInterest: z.number().int(),
  /** Resting orders in the book. */
  restingOrders: z.number().int(),
  closesAt: z.string(),
});
export type OverviewMarket = z.infer<typeof overviewMarketSchema>;

export const marketOverviewSchema = z.object({ markets: z.array(overviewMarketSchema), at: z.string() });
export type MarketOverview = z.infer<typeof marketOverviewSchema>;

/** One price level of the ladder: aggregated remaining quantity, and how much of it comes from NO orders. */
export const depthLevelSchema = z.object({ price: z.number().int(), quantity: z.number().int(), orders: z.number().int(), fromNo: z.number().int() });
export type DepthLevel = z.infer<typeof depthLevelSchema>;

export const marketDepthSchema = z.object({
  marketId: z.string(),
  ticker: z.string(),
  title: z.string(),
  status: z.string(),
  /** Bids for YES, best (highest) first. */
  bids: z.array(depthLevelSchema),
  /** Offers of YES, best (lowest) first. */
  asks: z.array(depthLevelSchema),
  at: z.string(),
});
export type MarketDepth = z.infer<typeof marketDepthSchema>;

/** The stream's events: name → the JSON its `data` carries. */
export const MARKET_OVERVIEW_EVENTS = {
  /** First event of every connection (and after the server lost and regained its change feed): the whole table, and the selected market's depth. */
  snapshot: z.object({ markets: marketOverviewSchema, depth: marketDepthSchema.nullable() }),
  /** Rows that changed; `removed`: markets that left the table (closed, or no longer open or halted). */
  markets: z.object({ items: z.array(overviewMarketSchema), removed: z.array(z.string()), at: z.string() }),
  /** The selected market's whole book after a change. */
  depth: marketDepthSchema,
  /** The server ends the stream: the session ended or the right was withdrawn (`status` as an API call would answer), or the server stops. */
  end: z.object({ reason: z.string(), status: z.number().int() }),
} as const;
export type MarketOverviewEventName = keyof typeof MARKET_OVERVIEW_EVENTS;

export const marketOverviewStreamQuery = z.object({ market: z.string().regex(/^\d{1,18}$/, 'Invalid market id').optional() }).strict();

export const marketOverviewEndpoints = {
  overview: endpoint('GET /api/admin/market-overview', {
    access: readAccess('Markets'),
    summary: 'Open and halted markets: best bid and ask, last price, 24 h volume, open interest',
    result: marketOverviewSchema,
  }),
  depth: endpoint('GET /api/admin/market-overview/:id/depth', {
    access: readAccess('Markets'),
    summary: 'The depth of one market\'s book: price levels with their aggregated quantity',
    params: idParam,
    result: marketDepthSchema,
  }),
  stream: endpoint('GET /api/admin/market-overview/stream', {
    access: readAccess('Markets'),
    summary: 'Server-sent events: the overview and the selected market\'s depth as they change (text/event-stream; send the session token in the Authorization header)',
    query: marketOverviewStreamQuery,
    stream: 'event-stream',
  }),
};
