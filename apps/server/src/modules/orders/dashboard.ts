import { inArray, sql } from 'drizzle-orm';
import { perCoinCard, type DashboardFigures } from '../dashboard/figures.js';
import { coins } from '../coins/table.js';
import { LIVE_ORDER_STATUSES, orders, trades } from './table.js';

/** Trades and the orders' holds (Trade History's pages). */
export const tradingDashboard: DashboardFigures = {
  restriction: 'Trade History',
  counts: [{ key: 'tradesToday', label: 'Trades today', today: true, query: (c) => sql`select count(*) as n from ${trades} where ${trades.createdAt} >= ${c.todayStart}` }],
  // Live buy orders hold what their remainder may still spend (`order` holds), until filled or released.
  cards: async (c) => [
    await perCoinCard(c.db, { key: 'orderHolds', label: 'Held for open buy orders' }, sql`
      select ${coins.symbol} as symbol, ${coins.decimals} as decimals, sum(${orders.held})::text as total
      from ${orders} join ${coins} on ${coins.id} = ${orders.coinId}
      where ${inArray(orders.status, [...LIVE_ORDER_STATUSES])} and ${orders.held} > 0 group by 1, 2 order by 1`),
  ],
  series: [{ key: 'trades', label: 'Trades', createdAt: trades.createdAt }],
};
