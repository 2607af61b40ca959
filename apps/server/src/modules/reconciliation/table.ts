import type { ReconciliationStatus, ReconciliationTrigger } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { coins } from '../coins/table.js';
import { createdAt, id, money, ref, ts } from '../../db/columns.js';

/** What the platform's custody held of a coin at an instant, as the platform reported it (never edited). */
export const custodyReports = pgTable(
  'custody_reports',
  {
    id: id(),
    coinId: ref('coin_id').notNull().references(() => coins.id),
    amount: money('amount').notNull(),
    asOf: ts('as_of').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // "The coin's last report at or before T": one index probe.
    index('custody_reports_coin_as_of_idx').on(t.coinId, t.asOf, t.id),
    check('custody_reports_amount_ck', sql`${t.amount} >= 0`),
  ],
);

/**
 * One check of one coin at one instant (docs/money-controls.md, "Reconciliation"): the ledger's
 * figures then, the records', the custody report's, and what explains their differences. Stored as
 * computed, never edited: a later check is another row.
 */
export const reconciliations = pgTable(
  'reconciliations',
  {
    id: id(),
    coinId: ref('coin_id').notNull().references(() => coins.id),
    asOf: ts('as_of').notNull(),
    trigger: text('trigger').notNull().$type<ReconciliationTrigger>(),
    status: text('status').notNull().$type<ReconciliationStatus>(),
    custodyReportId: ref('custody_report_id').references(() => custodyReports.id),
    custody: money('custody'),
    ledgerCustody: money('ledger_custody').notNull(),
    recordsNet: money('records_net').notNull(),
    inFlight: money('in_flight').notNull(),
    difference: money('difference'),
    unexplained: money('unexplained'),
    ledgerVsRecords: money('ledger_vs_records').notNull(),
    usersAvailable: money('users_available').notNull(),
    usersHeld: money('users_held').notNull(),
    house: money('house').notNull(),
    fees: money('fees').notNull(),
    collateral: money('collateral').notNull(),
    /** One line per record that explains a difference. */
    explanation: text('explanation').notNull().default(''),
    /** The admin who asked (on demand); historical reference, no foreign key. */
    adminId: ref('admin_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('reconciliations_as_of_idx').on(t.asOf, t.id),
    index('reconciliations_coin_idx').on(t.coinId, t.createdAt),
    // A custody report is reconciled once; a day's check once per coin and day.
    uniqueIndex('reconciliations_report_uq').on(t.custodyReportId).where(sql`${t.custodyReportId} is not null`),
    uniqueIndex('reconciliations_daily_uq').on(t.coinId, t.asOf).where(sql`${t.trigger} = 'daily'`),
    check('reconciliations_status_ck', sql`${t.status} in ('matched','explained','mismatch','no_report')`),
    check('reconciliations_trigger_ck', sql`${t.trigger} in ('custody_report','daily','on_demand')`),
    check('reconciliations_custody_ck', sql`(${t.custody} is null) = (${t.status} = 'no_report') and (${t.custody} is null) = (${t.difference} is null) and (${t.difference} is null) = (${t.unexplained} is null)`),
  ],
);

export type CustodyReportRow = typeof custodyReports.$inferSelect;
export type ReconciliationRow = typeof reconciliations.$inferSelect;
