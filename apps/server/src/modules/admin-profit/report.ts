import { adminProfitReport, formatUnits } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.js';
import type { ReportDef } from '../../resources/report.js';

/**
 * Platform income from the ledger: what reached the income accounts, by day, source and coin.
 * Fees income is split by the cause of its transaction (a fill's fees are posted by its order's
 * transaction, cause `order`: trading fees; otherwise withdrawal fees); pack and store
 * sales are their own accounts. Reversals (refunds) post negative amounts and count as such.
 */
export const adminProfitReportDef: ReportDef = {
  spec: adminProfitReport,
  rows: async (db, { from, to, timezone }) => {
    const rows = await queryRows<{ d: string; source: string; symbol: string; decimals: number; total: string }>(db, sql`
      select to_char((t.created_at at time zone ${timezone})::date, 'YYYY-MM-DD') as d,
             case when a.platform_code = 'fees_income' and t.cause in ('order', 'trade') then 'trading fees'
                  when a.platform_code = 'fees_income' then 'withdrawal fees'
                  when a.platform_code = 'pack_sales' then 'pack sales'
                  else 'store sales' end as source,
             c.symbol, c.decimals, sum(p.amount)::text as total
      from ledger_postings p
      join ledger_accounts a on a.id = p.account_id
      join ledger_transactions t on t.id = p.transaction_id
      join coins c on c.id = p.coin_id
      where a.owner_kind = 'platform' and a.platform_code in ('fees_income', 'pack_sales', 'store_sales')
        and t.created_at >= (${from}::date::timestamp at time zone ${timezone})
        and t.created_at < ((${to}::date + 1)::timestamp at time zone ${timezone})
      group by 1, 2, 3, 4 order by 1, 2, 3`);
    return rows.map((r) => {
      const text = formatUnits(r.total, Number(r.decimals));
      return { date: r.d, source: r.source, coin: r.symbol, amount: r.total, amountText: `${text} ${r.symbol}`, amountValue: Number(text) };
    });
  },
};
