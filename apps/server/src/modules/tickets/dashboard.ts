import { sql } from 'drizzle-orm';
import type { DashboardFigures } from '../dashboard/figures.js';
import { tickets } from './table.js';

export const ticketsDashboard: DashboardFigures = {
  restriction: 'Support Ticket',
  counts: [
    { key: 'ticketsOpen', label: 'Open tickets', query: () => sql`select count(*) as n from ${tickets} where ${tickets.status} <> 'closed'` },
    { key: 'ticketsWaiting', label: 'Tickets waiting for an answer', query: () => sql`select count(*) as n from ${tickets} where ${tickets.waitingSince} is not null` },
  ],
  series: [{ key: 'tickets', label: 'Tickets opened', createdAt: tickets.createdAt }],
};
