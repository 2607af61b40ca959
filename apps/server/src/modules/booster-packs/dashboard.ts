import { sql } from 'drizzle-orm';
import type { DashboardFigures } from '../dashboard/figures.js';
import { packPurchases } from './table.js';

export const packsDashboard: DashboardFigures = {
  restriction: 'Booster Packs',
  counts: [{ key: 'packsSoldToday', label: 'Packs sold today', today: true, query: (c) => sql`select count(*) as n from ${packPurchases} where ${packPurchases.createdAt} >= ${c.todayStart}` }],
  series: [{ key: 'packsSold', label: 'Packs sold', createdAt: packPurchases.createdAt }],
};
