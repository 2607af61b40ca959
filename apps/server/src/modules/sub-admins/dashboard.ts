import { sql } from 'drizzle-orm';
import type { DashboardFigures } from '../dashboard/figures.js';
import { adminSessions, loginHistory } from '../auth/table.js';
import { admins } from './table.js';

/** The admins, their sessions and sign-ins (Sub Admin's pages). */
export const adminsDashboard: DashboardFigures = {
  restriction: 'Sub Admin',
  counts: [
    { key: 'activeAdmins', label: 'Active admins', query: () => sql`select count(*) as n from ${admins} where ${admins.status} = 'active'` },
    { key: 'subAdmins', label: 'Sub-admins', query: () => sql`select count(*) as n from ${admins} where ${admins.role} = 'subadmin'` },
    { key: 'liveSessions', label: 'Live sessions', query: () => sql`select count(*) as n from ${adminSessions} where ${adminSessions.revokedAt} is null and ${adminSessions.expiresAt} > now()` },
    { key: 'signInsToday', label: 'Sign-ins today', today: true, query: (c) => sql`select count(*) as n from ${loginHistory} where ${loginHistory.success} and ${loginHistory.createdAt} >= ${c.todayStart}` },
    {
      key: 'failedSignIns24h', label: 'Failed sign-ins (24 h)',
      query: () => sql`select count(*) as n from ${loginHistory} where not ${loginHistory.success} and ${loginHistory.createdAt} > now() - interval '24 hours'`,
    },
  ],
  series: [
    { key: 'signIns', label: 'Successful sign-ins', createdAt: loginHistory.createdAt, where: sql`${loginHistory.success}` },
    { key: 'failedSignIns', label: 'Failed sign-ins', createdAt: loginHistory.createdAt, where: sql`not ${loginHistory.success}` },
  ],
};
