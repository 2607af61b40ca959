import { formatUnits, reconciliationReport } from '@pitboss/contract';
import { asc, sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.js';
import type { ReportDef } from '../../resources/report.js';
import { coins } from '../coins/table.js';
import { checkTexts } from './resource.js';
import { checkCoin, dayPoints } from './service.js';

/**
 * Reconciliation by day (the caller's days): per coin and day, the day's last custody report (or
 * the day's end, no later than now, without one) checked as a stored check is. Computed when asked,
 * stored nowhere: the daily job and the platform's reports store theirs (docs/money-controls.md).
 */
export const reconciliationReportDef: ReportDef = {
  spec: reconciliationReport,
  rows: async (db, { from, to, timezone }) => {
    // The days' bounds as instants in the caller's zone, up to today.
    const days = await queryRows<{ d: string; start: string; end: string }>(db, sql`
      select to_char(d, 'YYYY-MM-DD') as d, (d::timestamp at time zone ${timezone})::text as start, ((d + interval '1 day')::timestamp at time zone ${timezone})::text as end
      from generate_series(${from}::date, ${to}::date, interval '1 day') as d
      where (d::timestamp at time zone ${timezone}) <= now() order by d`);
    const bounds = days.map((d) => ({ start: new Date(d.start), end: new Date(d.end) }));
    const out: Record<string, unknown>[] = [];
    for (const coin of await db.select().from(coins).orderBy(asc(coins.symbol))) {
      const live = bounds.map((b, i) => ({ ...b, i })).filter((b) => b.end > coin.createdAt);
      const points = await dayPoints(db, coin.id, live);
      const checks = await checkCoin(db, coin, points);
      checks.forEach((c, k) => {
        const unexplained = c.unexplained ?? 0n;
        out.push({
          date: days[live[k]!.i]!.d, coin: coin.symbol, status: c.status, asOf: c.asOf.toISOString(),
          ...checkTexts(coin, c), explanation: c.explanation.join('\n'),
          unexplainedValue: Number(formatUnits(unexplained + (c.status === 'mismatch' && unexplained === 0n ? c.ledgerVsRecords : 0n), coin.decimals)),
        });
      });
    }
    return out.sort((a, b) => String(b.date).localeCompare(String(a.date)) || String(a.coin).localeCompare(String(b.coin)));
  },
};
