import { sql } from 'drizzle-orm';
import type { DashboardFigures } from '../dashboard/figures.js';
import { mailOutbox } from './table.js';

export const mailDashboard: DashboardFigures = {
  restriction: 'Email Templates',
  counts: [{ key: 'mailPending', label: 'Mail waiting', query: () => sql`select count(*) as n from ${mailOutbox} where ${mailOutbox.status} = 'pending'` }],
};
