import { tradesResource } from '@pitboss/contract';
import { eq, getTableColumns, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { iso, defineResource, } from '../../resources/define.js';
import { coins } from '../coins/table.js';
import { unitsText } from '../ledger/format.js';
import { markets } from '../markets/table.js';
import { trades } from '../orders/table.js';
import { users } from '../users/table.js';

const makers = alias(users, 'maker');
const takers = alias(users, 'taker');

/**
 * Why a trade is a wash-trade candidate (WASH_SIGNALS), evaluated on the joined maker and taker:
 * one user; one signup IP; a wallet both used (a withdrawal destination, or a deposit source, each
 * looked up by its (address, user) index). Two house accounts trading are the platform's own.
 */
const washSignal = sql<string | null>`case
  when ${makers.house} and ${takers.house} then null
  when ${trades.makerUserId} = ${trades.takerUserId} then 'same_user'
  when ${makers.signupIp} <> '' and ${makers.signupIp} = ${takers.signupIp} then 'same_signup_ip'
  when exists (select 1 from withdrawals a join withdrawals b on b.to_address = a.to_address and b.user_id = ${trades.takerUserId} where a.user_id = ${trades.makerUserId}) then 'shared_wallet'
  when exists (select 1 from deposits a join deposits b on b.from_address = a.from_address and b.user_id = ${trades.takerUserId} where a.user_id = ${trades.makerUserId}) then 'shared_wallet'
end`;

/** Trade history (`/trade-history`): every fill, read-only. The user filter matches the maker or the taker. */
export const tradesDef = defineResource({
  spec: tradesResource,
  table: trades,
  idColumn: trades.id,
  columns: {
    createdAt: trades.createdAt, marketId: trades.marketId, takerOutcome: trades.takerOutcome, takerSide: trades.takerSide,
    kind: trades.kind, price: trades.price, quantity: trades.quantity, washSignal,
  },
  // Fees rank within the trade's coin (indexes trades_coin_taker_fee_idx, trades_coin_maker_fee_idx).
  sortBy: { takerFeeText: [trades.coinId, trades.takerFee], makerFeeText: [trades.coinId, trades.makerFee] },
  filterWhere: { userIds: (v) => or(eq(trades.makerUserId, Number(v)), eq(trades.takerUserId, Number(v)))! },
  // The user filter's choices: users who made or took some trade (each side by its own index).
  referencedBy: {
    userIds: (id) => sql`(exists (select 1 from ${trades} where ${trades.makerUserId} = ${id}) or exists (select 1 from ${trades} where ${trades.takerUserId} = ${id}))`,
  },
  select: (db: DbOrTx) =>
    db
      .select({
        ...getTableColumns(trades), marketTicker: markets.ticker, marketTitle: markets.title, makerUsername: makers.username, takerUsername: takers.username,
        symbol: coins.symbol, decimals: coins.decimals, washSignal,
      })
      .from(trades)
      .innerJoin(markets, eq(markets.id, trades.marketId))
      .innerJoin(makers, eq(makers.id, trades.makerUserId))
      .innerJoin(takers, eq(takers.id, trades.takerUserId))
      .innerJoin(coins, eq(coins.id, trades.coinId)),
  toRecord: (r) => {
    const decimals = Number(r.decimals);
    const symbol = String(r.symbol);
    return {
      _id: String(r.id), marketId: String(r.marketId), marketTicker: String(r.marketTicker), marketTitle: String(r.marketTitle),
      userIds: [String(r.makerUserId), String(r.takerUserId)],
      makerUserId: String(r.makerUserId), makerUsername: String(r.makerUsername), takerUserId: String(r.takerUserId), takerUsername: String(r.takerUsername),
      makerOrderId: String(r.makerOrderId), takerOrderId: String(r.takerOrderId),
      makerOutcome: r.makerOutcome, makerSide: r.makerSide, takerOutcome: r.takerOutcome, takerSide: r.takerSide,
      price: Number(r.price), quantity: Number(r.quantity), kind: r.kind, coin: symbol,
      makerFee: String(r.makerFee), makerFeeText: unitsText(r.makerFee as bigint, decimals, symbol)!,
      takerFee: String(r.takerFee), takerFeeText: unitsText(r.takerFee as bigint, decimals, symbol)!,
      createdAt: iso(r.createdAt), washSignal: (r.washSignal as 'same_user' | null) ?? null,
    };
  },
});
