import type { ReportSpec } from '../resources/report.js';

/** Platform income from the ledger (`/admin-profit`). */
export const adminProfitReport: ReportSpec = {
  name: 'admin-profit',
  title: 'Admin profit',
  description: 'Platform income from the ledger, by source and coin: trading fees, withdrawal fees, pack sales, store sales.',
  restriction: 'Admin Profit',
  page: '/admin-profit',
  columns: [
    { key: 'date', label: 'Day', type: 'text' },
    { key: 'source', label: 'Source', type: 'status' },
    { key: 'coin', label: 'Coin', type: 'code' },
    { key: 'amountText', label: 'Income', type: 'money' },
    { key: 'amount', label: 'Income (minor units)', type: 'code' },
  ],
  chart: { date: 'date', value: 'amountValue', seriesBy: 'coin', label: 'Income per day' },
  defaultDays: 30,
};
