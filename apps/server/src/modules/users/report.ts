import { signupReport } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.js';
import type { ReportDef } from '../../resources/report.js';

/** Signups per day of the caller's time zone, every day of the range (zero days included). */
export const signupReportDef: ReportDef = {
  spec: signupReport,
  rows: async (db, { from, to, timezone }) => {
    const rows = await queryRows<{ d: string; n: string | number; v: string | number }>(db, sql`
      with days as (select generate_series(${from}::date, ${to}::date, interval '1 day')::date as d)
      select to_char(days.d, 'YYYY-MM-DD') as d, count(u.id) as n, count(u.id) filter (where u.email_verified) as v
      from days left join users u
        on u.created_at >= (days.d::timestamp at time zone ${timezone}) and u.created_at < ((days.d + 1)::timestamp at time zone ${timezone})
      group by days.d order by days.d`);
    return rows.map((r) => ({ date: r.d, signups: Number(r.n), verified: Number(r.v) }));
  },
};
