import { balanceAdjustmentStates, stateValues } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { coins } from '../coins/table.js';
import { createdAt, id, money, ref, ts, updatedAt } from '../../db/columns.js';
import { statusCheck } from '../../db/states.js';
import { users } from '../users/table.js';

export const BALANCE_ADJUSTMENT_STATUSES = stateValues(balanceAdjustmentStates);
export type BalanceAdjustmentStatus = (typeof BALANCE_ADJUSTMENT_STATUSES)[number];

/**
 * A manual correction of a user's available balance (packages/contract/src/modules/balance-adjustments.ts):
 * `pending` until a second admin approves it (at or above its coin's threshold), `applied` with the
 * ledger transaction that moved the money, or `rejected`. Never edited once applied: a reversal is
 * another row pointing at it (`reverses_id`), at most one that is not rejected.
 */
export const balanceAdjustments = pgTable(
  'balance_adjustments',
  {
    id: id(),
    userId: ref('user_id').notNull().references(() => users.id),
    coinId: ref('coin_id').notNull().references(() => coins.id),
    /** Signed minor units: + credits the user's available balance, − debits it. */
    amount: money('amount').notNull(),
    status: text('status').notNull().$type<BalanceAdjustmentStatus>(),
    reasonCode: text('reason_code').notNull(),
    reason: text('reason'),
    /** The admin who asked (historical reference like ledger_transactions.admin_id; null for a job). */
    requestedBy: ref('requested_by'),
    decidedBy: ref('decided_by'),
    decidedAt: ts('decided_at'),
    /** A rejection's reason code and note. */
    decisionReasonCode: text('decision_reason_code'),
    decisionReason: text('decision_reason'),
    /** The ledger transaction that applied it (cause `adjustment`, ref `balance_adjustment` id). */
    transactionId: ref('transaction_id'),
    reversesId: ref('reverses_id').references((): AnyPgColumn => balanceAdjustments.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('balance_adjustments_created_idx').on(t.createdAt, t.id),
    index('balance_adjustments_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('balance_adjustments_status_created_idx').on(t.status, t.createdAt, t.id),
    index('balance_adjustments_coin_idx').on(t.coinId),
    // At most one live reversal per adjustment (a rejected one leaves room for another).
    uniqueIndex('balance_adjustments_reversal_uq').on(t.reversesId).where(sql`${t.status} <> 'rejected'`),
    check('balance_adjustments_amount_ck', sql`${t.amount} <> 0`),
    statusCheck('balance_adjustments_status_ck', t.status, balanceAdjustmentStates),
    check('balance_adjustments_applied_ck', sql`(${t.status} = 'applied') = (${t.transactionId} is not null)`),
    check('balance_adjustments_rejected_ck', sql`(${t.status} = 'rejected') = (${t.decisionReasonCode} is not null)`),
    check('balance_adjustments_reverses_ck', sql`${t.reversesId} is null or ${t.reversesId} <> ${t.id}`),
  ],
);

export type BalanceAdjustmentRow = typeof balanceAdjustments.$inferSelect;
