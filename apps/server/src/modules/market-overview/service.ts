import type { DepthLevel, MarketDepth, OverviewMarket } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { notify } from '../../db/notify.js';
import { notFound } from '../../http/errors.js';

/*
 * What the market overview shows, read from the database's committed rows (never from this
 * process's in-memory book): with several instances the book of a market may have changed on
 * another one, and the rows are what every instance agrees on. The live orders are read through
 * their partial index (`orders_market_live_idx`), recent trades through `trades_market_time_idx`.
 */

/** The channel on which every committed change of a market's book or state is announced (payload: the market id). */
export const MARKET_CHANGES_CHANNEL = 'pitboss_market_changes';

/**
 * Announces that a market's book or state changed: delivered to every instance when the caller's
 * transaction commits, never if it rolls back. Called by every book command (orders) and every state
 * move (markets).
 */
export function publishMarketChange(tx: DbOrTx, marketId: number): Promise<void> {
  return notify(tx, MARKET_CHANGES_CHANNEL, String(marketId));
}

/** Markets the overview lists. */
export const OVERVIEW_STATUSES = ['open', 'halted'] as const;

interface OverviewRow {
  id: string | number;
  ticker: string;
  title: string;
  event_id: string | number;
  event_ticker: string;
  event_title: string;
  status: 'open' | 'halted';
  last_price: number | null;
  volume: string | number;
  open_interest: string | number;
  closes_at: string | Date;
  best_bid: number | null;
  best_ask: number | null;
  resting: string | number;
  volume_24h: string | number | null;
}

const iso = (v: string | Date) => (v instanceof Date ? v : new Date(v)).toISOString();

/** Over live orders `o`: a YES buy bids at its price, a NO sell at 100 − its price (YES cents). */
const BEST_BID = sql.raw(`max(case when (o.outcome = 'YES') = (o.side = 'buy') then (case when o.outcome = 'YES' then o.price else 100 - o.price end) end)::int`);
/** Over live orders `o`: a YES sell offers at its price, a NO buy at 100 − its price (YES cents). */
const BEST_ASK = sql.raw(`min(case when (o.outcome = 'YES') <> (o.side = 'buy') then (case when o.outcome = 'YES' then o.price else 100 - o.price end) end)::int`);

/**
 * The overview's rows: every open or halted market, or only those of `ids` that still are (a
 * market that closed is simply absent). Best bid and ask in YES cents: a YES buy bids at its
 * price, a NO sell at 100 − its price; a YES sell offers at its price, a NO buy at 100 − its price.
 */
export async function overviewRows(db: DbOrTx, ids?: number[]): Promise<OverviewMarket[]> {
  if (ids && ids.length === 0) return [];
  const only = ids ? sql`and m.id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})` : sql``;
  const rows = await queryRows<OverviewRow>(
    db,
    sql`select m.id, m.ticker, m.title, m.event_id, e.ticker as event_ticker, e.title as event_title, m.status, m.last_price, m.volume,
          m.open_interest, m.closes_at, b.best_bid, b.best_ask, b.resting, v.volume_24h
        from markets m
        join events e on e.id = m.event_id
        cross join lateral (
          select ${BEST_BID} as best_bid, ${BEST_ASK} as best_ask,
                 count(*) as resting
          from orders o where o.market_id = m.id and o.status in ('open', 'partially_filled')
        ) b
        cross join lateral (
          select coalesce(sum(t.quantity), 0) as volume_24h from trades t where t.market_id = m.id and t.created_at >= now() - interval '24 hours'
        ) v
        where m.status in ('open', 'halted') ${only}
        order by m.closes_at, m.id`,
  );
  return rows.map((r) => ({
    _id: String(r.id),
    ticker: r.ticker,
    title: r.title,
    eventId: String(r.event_id),
    eventTicker: r.event_ticker,
    eventTitle: r.event_title,
    status: r.status,
    bestBid: r.best_bid,
    bestAsk: r.best_ask,
    lastPrice: r.last_price,
    volume24h: Number(r.volume_24h ?? 0),
    volume: Number(r.volume),
    openInterest: Number(r.open_interest),
    restingOrders: Number(r.resting),
    closesAt: iso(r.closes_at),
  }));
}

interface LevelRow {
  bid: boolean;
  price: number;
  quantity: string | number;
  orders: string | number;
  from_no: string | number;
}

/** One market's book as price levels in YES cents: bids best (highest) first, asks best (lowest) first. */
export async function marketDepth(db: DbOrTx, marketId: number): Promise<MarketDepth> {
  const [market] = Number.isSafeInteger(marketId)
    ? await queryRows<{ id: string | number; ticker: string; title: string; status: string }>(db, sql`select id, ticker, title, status from markets where id = ${marketId}`)
    : [];
  if (!market) throw notFound('Market');
  const levels = await queryRows<LevelRow>(
    db,
    sql`select (o.outcome = 'YES') = (o.side = 'buy') as bid,
               (case when o.outcome = 'YES' then o.price else 100 - o.price end)::int as price,
               sum(o.remaining) as quantity, count(*) as orders,
               sum(case when o.outcome = 'NO' then o.remaining else 0 end) as from_no
        from orders o
        where o.market_id = ${marketId} and o.status in ('open', 'partially_filled')
        group by 1, 2`,
  );
  const level = (r: LevelRow): DepthLevel => ({ price: r.price, quantity: Number(r.quantity), orders: Number(r.orders), fromNo: Number(r.from_no) });
  return {
    marketId: String(market.id),
    ticker: market.ticker,
    title: market.title,
    status: market.status,
    bids: levels.filter((r) => r.bid).map(level).sort((a, b) => b.price - a.price),
    asks: levels.filter((r) => !r.bid).map(level).sort((a, b) => a.price - b.price),
    at: new Date().toISOString(),
  };
}

/** The best bid and ask of a book in YES cents (null for an empty side). */
export interface BestQuotes {
  bid: number | null;
  ask: number | null;
}

/**
 * Best bid and ask (YES cents, as in the overview) of each market of `ids`, from its live orders:
 * the markets resource's `bestBid` / `bestAsk`, loaded once per page or export batch; a trade bot's
 * view of the book it quotes into, without its own orders (`exceptUserId`).
 */
export async function bestQuotesOf(db: DbOrTx, ids: number[], opts: { exceptUserId?: number } = {}): Promise<Map<number, BestQuotes>> {
  const out = new Map<number, BestQuotes>();
  if (ids.length === 0) return out;
  const others = opts.exceptUserId === undefined ? sql`` : sql`and o.user_id <> ${opts.exceptUserId}`;
  const rows = await queryRows<{ market_id: number } & BestQuotes>(
    db,
    sql`select o.market_id::int as market_id, ${BEST_BID} as bid, ${BEST_ASK} as ask
        from orders o
        where o.market_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) and o.status in ('open', 'partially_filled') ${others}
        group by o.market_id`,
  );
  for (const r of rows) out.set(Number(r.market_id), { bid: r.bid, ask: r.ask });
  return out;
}
