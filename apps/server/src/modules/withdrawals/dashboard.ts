import { inArray, sql } from 'drizzle-orm';
import { perCoinCard, type DashboardFigures } from '../dashboard/figures.js';
import { coins } from '../coins/table.js';
import { WITHDRAWAL_HOLDING_STATUSES, withdrawals } from './table.js';

export const withdrawalsDashboard: DashboardFigures = {
  restriction: 'Withdraw',
  counts: [
    {
      key: 'withdrawalsAwaitingReview', label: 'Withdrawals awaiting review',
      query: () => sql`select count(*) as n from ${withdrawals} where ${inArray(withdrawals.status, ['requested', 'awaiting_second_approval'])}`,
    },
  ],
  // Open withdrawals hold amount + fee (`withdrawal_hold`), until paid out or released: the records
  // the hold postings reference (the ledger invariant keeps their sum equal to the held balances).
  cards: async (c) => [
    await perCoinCard(c.db, { key: 'fundsHeld', label: 'Funds held for withdrawals' }, sql`
      select ${coins.symbol} as symbol, ${coins.decimals} as decimals, sum(${withdrawals.amount} + ${withdrawals.fee})::text as total
      from ${withdrawals} join ${coins} on ${coins.id} = ${withdrawals.coinId}
      where ${inArray(withdrawals.status, [...WITHDRAWAL_HOLDING_STATUSES])} group by 1, 2 order by 1`),
  ],
  series: [{ key: 'withdrawals', label: 'Withdrawals requested', createdAt: withdrawals.createdAt }],
};
