import { z } from 'zod';
import type { RestrictionName } from '../restrictions.js';
import { dayString, type ColumnType } from './spec.js';

/**
 * A report: rows computed over a date range (days in the caller's time zone), shown as daily bar
 * charts (one per series, e.g. per coin), a table, and a CSV export. Declared here, computed by
 * the server, drawn by one generic page.
 */
export interface ReportSpec {
  /** `GET /api/admin/reports/<name>` and `/export`. */
  name: string;
  title: string;
  description: string;
  restriction: RestrictionName;
  page: string;
  columns: readonly { key: string; label: string; type: ColumnType }[];
  /** The daily chart: the row's day, its numeric value, and the field that splits it into series. */
  chart: { date: string; value: string; seriesBy?: string; label: string };
  /** Range when the page opens, in days back from today. */
  defaultDays: number;
}

export const REPORT_MAX_DAYS = 366;
export const reportQuery = z
  .object({ from: dayString, to: dayString })
  .strict()
  .refine((q) => q.from <= q.to, { message: 'The start is after the end', path: ['from'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < REPORT_MAX_DAYS, { message: `At most ${REPORT_MAX_DAYS} days`, path: ['to'] });
export type ReportQuery = z.infer<typeof reportQuery>;

export interface ReportResult {
  from: string;
  to: string;
  timezone: string;
  rows: Record<string, unknown>[];
}
