import { z } from 'zod';
import { units } from '../lib/fields.js';
import type { ReportSpec } from '../resources/report.js';
import { recordFields, resourceSpec, type FilterOption } from '../resources/spec.js';

// ── Reconciliation (docs/money-controls.md, "Reconciliation") ──────────────
/**
 * Per coin, at one instant, three figures that must agree:
 * - the ledger: what the hot wallet should hold (minus the `hot_wallet` account's balance);
 * - the records: confirmed deposits minus completed withdrawals (the fee of a withdrawal stays in
 *   custody as income, only the amount leaves);
 * - the custody balance the platform reports (`POST /api/platform/v1/custody-balances`).
 * A difference between custody and ledger is explained by deposits seen on chain and not yet
 * confirmed at that instant (in custody, not yet credited); a difference between ledger and
 * records by records whose ledger entry falls on the other side of the instant. What no record
 * explains is a mismatch, and admins who may view Reconciliation are notified once per check.
 */
export const RECONCILIATION_STATUSES = [
  { value: 'matched', label: 'Matched', color: 'green' },
  { value: 'explained', label: 'Explained difference', color: 'yellow' },
  { value: 'mismatch', label: 'Mismatch', color: 'red' },
  { value: 'no_report', label: 'No custody report', color: 'gray' },
] as const satisfies readonly FilterOption[];
export type ReconciliationStatus = (typeof RECONCILIATION_STATUSES)[number]['value'];

export const RECONCILIATION_TRIGGERS = [
  { value: 'custody_report', label: 'Custody report' },
  { value: 'daily', label: 'Daily check' },
  { value: 'on_demand', label: 'On demand' },
] as const;
export type ReconciliationTrigger = (typeof RECONCILIATION_TRIGGERS)[number]['value'];

/** "Reconcile now": one coin, at this instant, against its latest custody report. */
export const reconcileNowInput = z.object({ coinId: z.string({ error: 'Choose a coin' }).regex(/^\d{1,18}$/, 'Choose a coin') }).strict();

export const reconciliationRecord = z.object({
  _id: recordFields.id,
  /** "USDC at 2026-11-28 23:00 UTC: explained difference". */
  title: z.string(),
  coinId: recordFields.id, coin: z.string(), decimals: z.number().int(),
  /** A check's outcome, not a lifecycle: no state machine. */
  status: z.enum(RECONCILIATION_STATUSES.map((s) => s.value) as [ReconciliationStatus, ...ReconciliationStatus[]]),
  trigger: z.enum(RECONCILIATION_TRIGGERS.map((t) => t.value) as [ReconciliationTrigger, ...ReconciliationTrigger[]]),
  /** The instant checked: the custody report's `asOf`, the day's end, or when it was asked. */
  asOf: recordFields.at,
  /** Minor units (strings) and the same in the coin's units with its symbol. */
  custody: units.nullable(), custodyText: z.string().nullable(),
  ledgerCustody: units, ledgerCustodyText: z.string(),
  recordsNet: units, recordsNetText: z.string(),
  inFlight: units, inFlightText: z.string(),
  /** Custody − ledger (null without a custody report), and what the deposits in flight leave unexplained. */
  difference: units.nullable(), differenceText: z.string().nullable(),
  unexplained: units.nullable(), unexplainedText: z.string().nullable(),
  /** Ledger − records. */
  ledgerVsRecords: units, ledgerVsRecordsText: z.string(),
  /** The ledger's totals by bucket at that instant. */
  usersAvailableText: z.string(), usersHeldText: z.string(), houseText: z.string(), feesText: z.string(), collateralText: z.string(),
  /** One line per record that explains a difference (or could not be matched). */
  explanation: z.string(),
  byEmail: z.string().nullable(),
  createdAt: recordFields.at,
}).strict();
export type ReconciliationRecord = z.infer<typeof reconciliationRecord>;

export const reconciliationsResource = resourceSpec(reconciliationRecord, {
  name: 'reconciliations', label: 'Reconciliation', plural: 'Reconciliations', restriction: 'Reconciliation',
  pages: { list: '/reconciliation', add: '/reconcile-now' },
  adding: { label: 'Reconcile now', submit: 'Reconcile now' },
  titleField: 'title',
  columns: [
    { key: 'asOf', label: 'As of', type: 'date', sortable: true },
    { key: 'coin', label: 'Coin', type: 'code' },
    { key: 'status', label: 'Status', type: 'status' },
    { key: 'custodyText', label: 'Custody reported', type: 'money' },
    { key: 'ledgerCustodyText', label: 'Ledger', type: 'money' },
    { key: 'differenceText', label: 'Difference', type: 'money' },
    { key: 'inFlightText', label: 'Deposits in flight', type: 'money' },
    { key: 'unexplainedText', label: 'Unexplained', type: 'money' },
    { key: 'trigger', label: 'Checked by', type: 'text', hidden: true },
    { key: 'recordsNetText', label: 'Deposits − withdrawals', type: 'money', hidden: true },
    { key: 'ledgerVsRecordsText', label: 'Ledger − records', type: 'money', hidden: true },
    { key: 'usersAvailableText', label: 'Users available', type: 'money', hidden: true },
    { key: 'usersHeldText', label: 'Users held', type: 'money', hidden: true },
    { key: 'houseText', label: 'House accounts', type: 'money', hidden: true },
    { key: 'feesText', label: 'Fees income', type: 'money', hidden: true },
    { key: 'collateralText', label: 'Market collateral', type: 'money', hidden: true },
    { key: 'explanation', label: 'Records that explain it', type: 'longtext', hidden: true },
    { key: 'byEmail', label: 'Asked by', type: 'text', hidden: true },
    { key: 'createdAt', label: 'Checked', type: 'date', sortable: true, hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', type: 'oneOf', options: RECONCILIATION_STATUSES },
    { key: 'coin', label: 'Coin', type: 'equals' },
    { key: 'trigger', label: 'Checked by', type: 'oneOf', options: RECONCILIATION_TRIGGERS.map((t) => ({ value: t.value, label: t.label })) },
    { key: 'asOf', label: 'As of', type: 'dateRange' },
  ],
  defaultSort: '-asOf',
  deleteMode: 'none',
  form: [
    { key: 'coinId', label: 'Coin', type: 'reference', required: true, reference: { resource: 'coins', labelKey: 'symbol' }, description: 'Checked at this instant against the latest custody balance the platform reported' },
  ],
  create: reconcileNowInput,
});

/** Per coin and day (the caller's days): the day's last custody report, or the day's end without one. */
export const reconciliationReport: ReportSpec = {
  name: 'reconciliation-daily',
  title: 'Reconciliation by day',
  description: 'Per coin and day: the ledger by bucket, deposits minus withdrawals, and the custody balance reported (the day’s last report), with what explains each difference.',
  restriction: 'Reconciliation',
  page: '/reconciliation-by-day',
  columns: [
    { key: 'date', label: 'Day', type: 'text' },
    { key: 'coin', label: 'Coin', type: 'code' },
    { key: 'status', label: 'Status', type: 'status' },
    { key: 'asOf', label: 'As of', type: 'date' },
    { key: 'custodyText', label: 'Custody reported', type: 'money' },
    { key: 'ledgerCustodyText', label: 'Ledger', type: 'money' },
    { key: 'recordsNetText', label: 'Deposits − withdrawals', type: 'money' },
    { key: 'differenceText', label: 'Difference', type: 'money' },
    { key: 'inFlightText', label: 'Deposits in flight', type: 'money' },
    { key: 'unexplainedText', label: 'Unexplained', type: 'money' },
    { key: 'usersAvailableText', label: 'Users available', type: 'money' },
    { key: 'usersHeldText', label: 'Users held', type: 'money' },
    { key: 'houseText', label: 'House accounts', type: 'money' },
    { key: 'feesText', label: 'Fees income', type: 'money' },
    { key: 'explanation', label: 'Records that explain it', type: 'longtext' },
  ],
  chart: { date: 'date', value: 'unexplainedValue', seriesBy: 'coin', label: 'Unexplained difference per day' },
  defaultDays: 7,
};
