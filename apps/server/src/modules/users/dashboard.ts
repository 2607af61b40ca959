import { sql } from 'drizzle-orm';
import type { DashboardFigures } from '../dashboard/figures.js';
import { users } from './table.js';

export const usersDashboard: DashboardFigures = {
  restriction: 'Users',
  counts: [
    { key: 'signupsToday', label: 'Signups today', today: true, query: (c) => sql`select count(*) as n from ${users} where ${users.createdAt} >= ${c.todayStart}` },
    { key: 'signups7d', label: 'Signups (7 days)', query: (c) => sql`select count(*) as n from ${users} where ${users.createdAt} >= ${c.todayStart} - interval '6 days'` },
  ],
  series: [{ key: 'signups', label: 'Signups', createdAt: users.createdAt }],
};
