import { sql } from 'drizzle-orm';
import type { DashboardFigures } from '../dashboard/figures.js';
import { markets } from './table.js';

const inStatus = (status: 'open' | 'halted' | 'closed') => () => sql`select count(*) as n from ${markets} where ${markets.status} = ${status}`;

export const marketsDashboard: DashboardFigures = {
  restriction: 'Markets',
  counts: [
    { key: 'marketsOpen', label: 'Open markets', query: inStatus('open') },
    { key: 'marketsHalted', label: 'Halted markets', query: inStatus('halted') },
    { key: 'marketsUnresolved', label: 'Markets awaiting resolution', query: inStatus('closed') },
  ],
};
