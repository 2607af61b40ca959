import { closedPositionsResource, openPositionsResource } from '@pitboss/contract';
import { eq, getTableColumns } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { iso, defineResource, type ResourceDef } from '../../resources/define.js';
import { coins } from '../coins/table.js';
import { unitsText } from '../ledger/format.js';
import { markets } from '../markets/table.js';
import { positions } from '../orders/table.js';
import { users } from '../users/table.js';
import { tradeBots } from '../trade-bots/table.js';

/** Open and closed positions: two read-only lists over one table, each with its status as base condition. */
const positionsDef = (kind: 'open' | 'closed'): ResourceDef =>
  defineResource({
    spec: kind === 'open' ? openPositionsResource : closedPositionsResource,
    table: positions,
    idColumn: positions.id,
    baseWhere: eq(positions.status, kind),
    columns: {
      updatedAt: positions.updatedAt, createdAt: positions.createdAt, marketId: positions.marketId, userId: positions.userId,
      outcome: positions.outcome, quantity: positions.quantity, house: users.house,
    },
    select: (db: DbOrTx) =>
      db
        .select({
          ...getTableColumns(positions), marketTicker: markets.ticker, marketTitle: markets.title, username: users.username, house: users.house,
          symbol: coins.symbol, decimals: coins.decimals, botName: tradeBots.name,
        })
        .from(positions)
        .innerJoin(markets, eq(markets.id, positions.marketId))
        .innerJoin(users, eq(users.id, positions.userId))
        .innerJoin(coins, eq(coins.id, positions.coinId))
        // One bot per user (unique): still one row per position.
        .leftJoin(tradeBots, eq(tradeBots.userId, positions.userId)),
    toRecord: (r) => {
      const decimals = Number(r.decimals);
      const symbol = String(r.symbol);
      const quantity = Number(r.quantity);
      const cost = r.cost as bigint;
      // Cost is in minor units; a cent is 10^(decimals − 2) of them.
      const averagePrice = quantity > 0 ? Math.round((Number(cost) / 10 ** (decimals - 2) / quantity) * 100) / 100 : null;
      return {
        _id: String(r.id), userId: String(r.userId), username: String(r.username), marketId: String(r.marketId), marketTicker: String(r.marketTicker), marketTitle: String(r.marketTitle),
        outcome: r.outcome, quantity, reserved: Number(r.reserved), averagePrice, coin: symbol,
        cost: String(cost), costText: unitsText(cost, decimals, symbol)!, realizedPnl: String(r.realizedPnl), realizedPnlText: unitsText(r.realizedPnl as bigint, decimals, symbol)!,
        settlement: r.settlement === null ? null : String(r.settlement), settlementText: r.settlement === null ? null : unitsText(r.settlement as bigint, decimals, symbol)!,
        house: r.house === true, botName: (r.botName as string | null) ?? null,
        // One share pays 10^decimals minor units if its outcome wins.
        ifYesText: unitsText((r.outcome === 'YES' ? BigInt(quantity) * 10n ** BigInt(decimals) : 0n) - cost, decimals, symbol)!,
        ifNoText: unitsText((r.outcome === 'NO' ? BigInt(quantity) * 10n ** BigInt(decimals) : 0n) - cost, decimals, symbol)!,
        status: r.status, createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
      };
    },
  });

export const openPositionsDef = positionsDef('open');
export const closedPositionsDef = positionsDef('closed');
