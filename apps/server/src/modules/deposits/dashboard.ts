import { sql } from 'drizzle-orm';
import type { DashboardFigures } from '../dashboard/figures.js';
import { deposits } from './table.js';

export const depositsDashboard: DashboardFigures = {
  restriction: 'Deposit',
  counts: [{ key: 'depositsPending', label: 'Deposits pending', query: () => sql`select count(*) as n from ${deposits} where ${deposits.status} = 'pending'` }],
  series: [{ key: 'deposits', label: 'Deposits seen', createdAt: deposits.createdAt }],
};
