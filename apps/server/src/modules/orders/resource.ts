import { ordersResource } from '@pitboss/contract';
import { eq, getTableColumns } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { iso, defineResource, isoOrNull, } from '../../resources/define.js';
import { coins } from '../coins/table.js';
import { unitsText } from '../ledger/format.js';
import { markets } from '../markets/table.js';
import { users } from '../users/table.js';
import { cancelOrder, lockOrderMarket } from './service.js';
import { orders } from './table.js';

/** Order history (`/order-history`): every order of every user, read-only, with the admin's cancel. */
export const ordersDef = defineResource({
  spec: ordersResource,
  table: orders,
  idColumn: orders.id,
  columns: {
    createdAt: orders.createdAt, marketId: orders.marketId, userId: orders.userId, outcome: orders.outcome, side: orders.side,
    status: orders.status, timeInForce: orders.timeInForce, price: orders.price, quantity: orders.quantity,
  },
  // Held and fees rank within the order's coin (indexes orders_coin_held_idx, orders_coin_fees_idx).
  sortBy: { heldText: [orders.coinId, orders.held], feesText: [orders.coinId, orders.fees] },
  select: (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(orders), marketTicker: markets.ticker, marketTitle: markets.title, username: users.username, symbol: coins.symbol, decimals: coins.decimals })
      .from(orders)
      .innerJoin(markets, eq(markets.id, orders.marketId))
      .innerJoin(users, eq(users.id, orders.userId))
      .innerJoin(coins, eq(coins.id, orders.coinId)),
  toRecord: (r) => {
    const decimals = Number(r.decimals);
    const symbol = String(r.symbol);
    return {
      _id: String(r.id), marketId: String(r.marketId), marketTicker: String(r.marketTicker), marketTitle: String(r.marketTitle),
      userId: String(r.userId), username: String(r.username), outcome: r.outcome, side: r.side, price: Number(r.price),
      quantity: Number(r.quantity), filled: Number(r.filled), remaining: Number(r.remaining), timeInForce: r.timeInForce,
      expiresAt: isoOrNull(r.expiresAt), postOnly: Boolean(r.postOnly), status: r.status, reason: (r.reason as string | null) ?? null,
      coin: symbol, held: String(r.held), heldText: unitsText(r.held as bigint, decimals, symbol)!, fees: String(r.fees), feesText: unitsText(r.fees as bigint, decimals, symbol)!,
      createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
    };
  },
  // Same lock order as a placement (market, then its order rows): an admin cancel never deadlocks with trading.
  lockBeforeAction: (tx, id) => lockOrderMarket(tx, id),
  // `cancelOrder` writes the audit entry (`cancel`, resource `orders`) as it does for the platform's cancel.
  auditedByHandlers: true,
  actions: {
    cancel: async (tx, actor, record) => {
      const after = await cancelOrder(tx, actor, { orderId: Number(record._id) });
      return after.filled > 0 ? `Order cancelled: ${after.filled} of ${after.quantity} had filled; the rest left the book` : 'Order cancelled: it left the book and its hold went back to the user';
    },
  },
});
