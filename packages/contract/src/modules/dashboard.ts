import { z } from 'zod';
import { ACCOUNT_ACCESS, endpoint } from '../resources/endpoint.js';

/** A figure on the dashboard: a count, or a text (amounts per coin) shown instead. */
export const dashboardCardSchema = z.object({ key: z.string(), label: z.string(), value: z.number(), text: z.string().optional(), hint: z.string().optional() });
export const dashboardSeriesSchema = z.object({
  key: z.string(),
  label: z.string(),
  /** One point a day, days in the caller's time zone. */
  points: z.array(z.object({ date: z.string(), value: z.number() })),
});
export const dashboardSchema = z.object({ cards: z.array(dashboardCardSchema), series: z.array(dashboardSeriesSchema), timezone: z.string() });
export type DashboardData = z.infer<typeof dashboardSchema>;

export const dashboardEndpoints = {
  // Every signed-in admin: the dashboard is the access check's fallback page; each figure shows only to admins who may view its source.
  dashboard: endpoint('GET /api/admin/dashboard', { access: ACCOUNT_ACCESS, summary: 'Figures and daily series, per the caller\'s rights', result: dashboardSchema }),
};
