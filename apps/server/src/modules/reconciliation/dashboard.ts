import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.js';
import type { DashboardFigures } from '../dashboard/figures.js';
import { coins } from '../coins/table.js';
import { reconciliations } from './table.js';

const STATUS_TEXT: Record<string, string> = { matched: 'matched', explained: 'explained', mismatch: 'MISMATCH', no_report: 'no custody report' };

export const reconciliationDashboard: DashboardFigures = {
  restriction: 'Reconciliation',
  // Each coin's latest check (by the instant it checked): its status, and how many are mismatched.
  cards: async ({ db, tz }) => {
    const last = await queryRows<{ symbol: string; status: string; as_of: string }>(db, sql`
      select distinct on (r.coin_id) c.symbol, r.status, to_char(r.as_of at time zone ${tz}, 'YYYY-MM-DD HH24:MI') as as_of
      from ${reconciliations} r join ${coins} c on c.id = r.coin_id order by r.coin_id, r.as_of desc, r.id desc`);
    last.sort((a, b) => a.symbol.localeCompare(b.symbol));
    return [{
      key: 'reconciliation', label: 'Reconciliation (last check)', value: last.filter((r) => r.status === 'mismatch').length,
      text: last.length ? last.map((r) => `${r.symbol} ${STATUS_TEXT[r.status] ?? r.status}`).join(' · ') : 'Not checked yet',
      ...(last.length ? { hint: `As of ${last.map((r) => `${r.symbol} ${r.as_of}`).join(', ')} (${tz})` } : {}),
    }];
  },
};
