import { tradeBotsResource } from '@pitboss/contract';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { iso, defineResource, isoOrNull, } from '../../resources/define.js';
import { unitsText } from '../ledger/format.js';
import { SETTLEMENT_COIN } from '../orders/service.js';
import { users } from '../users/table.js';
import { prepareTradeBotCreate, prepareTradeBotUpdate, setBotMarkets, startBot, stopBot } from './service.js';
import { tradeBots } from './table.js';

interface Figures {
  openOrders: number;
  fills: number;
  volume: number;
  yesShares: number;
  noShares: number;
  realized: bigint;
  unrealized: bigint;
  fees: bigint;
  symbol: string;
  decimals: number;
}

/**
 * The figures of each bot's user, one query for a page of bots: live orders, fills (as maker or
 * taker) and shares traded, shares held, realised P&L, open shares marked to the market's last price
 * (a resolved market: its payout; no price yet or voided: at cost) less their cost, and fees paid.
 */
async function figuresOf(db: DbOrTx, ids: number[]): Promise<Map<number, Figures>> {
  const rows = await queryRows<Record<string, string | number | null>>(db, sql`
    select b.id, o.open_orders, o.fees, t.fills, t.volume, p.yes_shares, p.no_shares, p.realized, p.unrealized, c.symbol, c.decimals
    from ${tradeBots} b
    left join coins c on c.symbol = ${SETTLEMENT_COIN}
    cross join lateral (
      select count(*) filter (where status in ('open','partially_filled'))::int as open_orders, coalesce(sum(fees), 0)::text as fees
      from orders where user_id = b.user_id) o
    cross join lateral (
      select count(*)::int as fills, coalesce(sum(quantity), 0)::bigint::text as volume
      from trades where maker_user_id = b.user_id or taker_user_id = b.user_id) t
    cross join lateral (
      select coalesce(sum(p.quantity) filter (where p.outcome = 'YES'), 0)::bigint::text as yes_shares,
             coalesce(sum(p.quantity) filter (where p.outcome = 'NO'), 0)::bigint::text as no_shares,
             coalesce(sum(p.realized_pnl), 0)::text as realized,
             coalesce(sum(case when mark.cents is null or p.quantity = 0 then 0
                               else p.quantity * mark.cents * power(10::numeric, pc.decimals - 2) - p.cost end), 0)::numeric(40,0)::text as unrealized
      from positions p
      join markets m on m.id = p.market_id
      join coins pc on pc.id = p.coin_id
      cross join lateral (select case
          when m.status = 'resolved' then case when m.result = p.outcome then 100 else 0 end
          when m.status = 'voided' or m.last_price is null then null
          when p.outcome = 'YES' then m.last_price else 100 - m.last_price end as cents) mark
      where p.user_id = b.user_id) p
    where b.id = any(${`{${ids.join(',')}}`}::bigint[])`);
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        openOrders: Number(r.open_orders), fills: Number(r.fills), volume: Number(r.volume), yesShares: Number(r.yes_shares), noShares: Number(r.no_shares),
        realized: BigInt(String(r.realized)), unrealized: BigInt(String(r.unrealized)), fees: BigInt(String(r.fees)),
        symbol: String(r.symbol ?? SETTLEMENT_COIN), decimals: Number(r.decimals ?? 6),
      },
    ]),
  );
}

/** Each bot's markets (ids and tickers, by ticker), one query for a page of bots. */
async function marketsOf(db: DbOrTx, ids: number[]): Promise<Map<number, { ids: string[]; tickers: string[] }>> {
  const rows = await queryRows<{ bot_id: string | number; market_id: string | number; ticker: string }>(db, sql`
    select l.bot_id, l.market_id, m.ticker from trade_bot_markets l join markets m on m.id = l.market_id
    where l.bot_id = any(${`{${ids.join(',')}}`}::bigint[]) order by m.ticker, m.id`);
  const out = new Map<number, { ids: string[]; tickers: string[] }>();
  for (const r of rows) {
    const entry = out.get(Number(r.bot_id)) ?? { ids: [], tickers: [] };
    entry.ids.push(String(r.market_id));
    entry.tickers.push(r.ticker);
    out.set(Number(r.bot_id), entry);
  }
  return out;
}

const text = (v: bigint, f: Figures) => unitsText(v, f.decimals, f.symbol)!;

/** Trade bots (`/trade-bot`): market makers with their parameters, last run and their user's figures; start and stop. */
export const tradeBotsDef = defineResource({
  spec: tradeBotsResource,
  table: tradeBots,
  idColumn: tradeBots.id,
  columns: {
    name: tradeBots.name, status: tradeBots.status, spread: tradeBots.spread, refreshSeconds: tradeBots.refreshSeconds, lastRunAt: tradeBots.lastRunAt,
    createdAt: tradeBots.createdAt, userId: tradeBots.userId, fairSource: tradeBots.fairSource,
  },
  nullable: ['lastRunAt'],
  searchColumns: [tradeBots.name],
  select: (db: DbOrTx) => db.select({ ...getTableColumns(tradeBots), username: users.username }).from(tradeBots).innerJoin(users, eq(users.id, tradeBots.userId)),
  batchFields: { figures: figuresOf, links: marketsOf },
  toRecord: (r) => {
    const f = (r.figures as Figures | null) ?? { openOrders: 0, fills: 0, volume: 0, yesShares: 0, noShares: 0, realized: 0n, unrealized: 0n, fees: 0n, symbol: SETTLEMENT_COIN, decimals: 6 };
    const links = (r.links as { ids: string[]; tickers: string[] } | null) ?? { ids: [], tickers: [] };
    const total = f.realized + f.unrealized - f.fees;
    return {
      _id: String(r.id), name: String(r.name), userId: String(r.userId), username: String(r.username), allOpenMarkets: Boolean(r.allOpenMarkets),
      marketIds: links.ids, markets: r.allOpenMarkets ? ['every open market'] : links.tickers,
      fairSource: r.fairSource as 'last', fairPrice: Number(r.fairPrice), spread: Number(r.spread), size: Number(r.size), levels: Number(r.levels),
      maxPosition: Number(r.maxPosition), refreshSeconds: Number(r.refreshSeconds), status: r.status as 'stopped',
      startedAt: isoOrNull(r.startedAt), lastRunAt: isoOrNull(r.lastRunAt), nextRunAt: isoOrNull(r.nextRunAt),
      lastRunSummary: (r.lastRunSummary as string | null) ?? null, lastError: (r.lastError as string | null) ?? null, lastErrorAt: isoOrNull(r.lastErrorAt),
      openOrders: f.openOrders, fills: f.fills, volume: f.volume, yesShares: f.yesShares, noShares: f.noShares, coin: f.symbol,
      realizedPnl: String(f.realized), realizedPnlText: text(f.realized, f), unrealizedPnl: String(f.unrealized), unrealizedPnlText: text(f.unrealized, f),
      feesPaid: String(f.fees), feesPaidText: text(f.fees, f), totalPnl: String(total), totalPnlText: text(total, f),
      createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
    };
  },
  prepareCreate: prepareTradeBotCreate,
  prepareUpdate: prepareTradeBotUpdate,
  relations: { keys: ['marketIds'], save: (id, input, { tx }) => (input.marketIds === undefined ? Promise.resolve(false) : setBotMarkets(tx, id, input.marketIds as string[])) },
  uniqueErrors: {
    trade_bots_name_uq: { field: 'name', message: 'A trade bot with this name exists' },
    trade_bots_user_uq: { field: 'userId', message: 'This user already trades for another bot: give each bot a user of its own' },
  },
  actions: {
    start: async (tx, actor, record) => {
      await startBot(tx, actor, Number(record._id));
      return `${record.name} started: it quotes from its next refresh`;
    },
    stop: async (tx, actor, record) => {
      const n = await stopBot(tx, actor, Number(record._id));
      return `${record.name} stopped${n ? `: ${n} quote${n === 1 ? '' : 's'} cancelled` : ''}`;
    },
  },
});
