import { sql } from 'drizzle-orm';
import type { DashboardFigures } from '../dashboard/figures.js';
import { auditLog } from './table.js';

const changes = sql`${auditLog.action} <> 'denied'`;

export const auditDashboard: DashboardFigures = {
  restriction: 'Audit Log',
  counts: [{ key: 'auditToday', label: 'Admin changes today', query: (c) => sql`select count(*) as n from ${auditLog} where ${changes} and ${auditLog.createdAt} >= ${c.todayStart}` }],
  series: [{ key: 'adminChanges', label: 'Admin changes', createdAt: auditLog.createdAt, where: changes }],
};
