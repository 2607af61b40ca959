import { Readable } from 'node:stream';
import { reportEndpointDefs, type ReportQuery, type ReportSpec } from '@pitboss/contract';
import type { AppContext } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { ok } from '../http/envelope.js';
import { route } from '../http/route.js';
import type { App } from '../http/types.js';
import { isoInZone } from '../lib/timezone.js';
import { csvLines, toCell } from './csv.js';
import { csvColumnsOf, NO_CONTEXT, needsCoins } from './csv-columns.js';

export interface ReportDef {
  spec: ReportSpec;
  /** The rows for a range of the caller's days (`from` and `to` inclusive). */
  rows(db: DbOrTx, query: ReportQuery & { timezone: string }): Promise<Record<string, unknown>[]>;
}

/** `GET /api/admin/reports/<name>?from&to` (rows) and `/export` (CSV), with the report's read right. */
export function registerReport(app: App, ctx: AppContext, def: ReportDef): void {
  if (needsCoins(def.spec.columns)) throw new Error(`${def.spec.name}: a report's CSV has no columns per coin (balances)`);
  const endpoints = reportEndpointDefs(def.spec);
  route(app, endpoints.data, async (req) => {
    const q = req.query as ReportQuery;
    return ok({ from: q.from, to: q.to, timezone: req.timezone, rows: await def.rows(ctx.db, { ...q, timezone: req.timezone }) });
  });
  route(app, endpoints.export, async (req, reply) => {
    const q = req.query as ReportQuery;
    const rows = await def.rows(ctx.db, { ...q, timezone: req.timezone });
    // The columns as every export writes them (csv-columns.ts): money as a number and its coin, dates in ISO 8601 with the caller's offset.
    const columns = csvColumnsOf(def.spec.columns, NO_CONTEXT);
    const cell = (r: Record<string, unknown>, c: (typeof columns)[number]): string => {
      const v = c.value(r);
      return toCell(c.date && typeof v === 'string' && v ? isoInZone(new Date(v), req.timezone) : v);
    };
    const csv = `\ufeff${csvLines([columns.map((c) => c.header), ...rows.map((r) => columns.map((c) => cell(r, c)))])}`;
    reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${def.spec.name}-${q.from}-${q.to}.csv"`);
    return reply.send(Readable.from([csv]));
  });
}
