import { withdrawalStates, stateValues } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { coins } from '../coins/table.js';
import { createdAt, id, money, ref, ts, updatedAt } from '../../db/columns.js';
import { statusCheck } from '../../db/states.js';
import { users } from '../users/table.js';

/** The declared machine's states (packages/contract/src/modules/withdrawals.ts): one list for the CHECK, the API and the services. */
export const WITHDRAWAL_STATUSES = stateValues(withdrawalStates);
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
/** The states in which a withdrawal's amount + fee sit in the user's `held` account. */
export const WITHDRAWAL_HOLDING_STATUSES = ['requested', 'awaiting_second_approval', 'approved'] as const satisfies readonly WithdrawalStatus[];

/**
 * A crypto withdrawal: requested (amount + fee held) → approved → completed (sent on chain) |
 * failed (released); requested → rejected (released).
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: id(),
    userId: ref('user_id').notNull().references(() => users.id),
    coinId: ref('coin_id').notNull().references(() => coins.id),
    /** What the user receives on chain. */
    amount: money('amount').notNull(),
    /** The coin's withdrawal fee when requested; held with the amount, income when completed. */
    fee: money('fee').notNull(),
    toAddress: text('to_address').notNull(),
    status: text('status').notNull().$type<WithdrawalStatus>().default('requested'),
    /** Approved without review: whitelisted destination under the auto-approve limit. */
    autoApproved: boolean('auto_approved').notNull().default(false),
    /** Admin who approved or rejected it (null when auto-approved). */
    reviewedBy: ref('reviewed_by'),
    reviewedAt: ts('reviewed_at'),
    /** Why it was rejected or failed: a reason code (WITHDRAWAL_REJECT_REASONS, WITHDRAWAL_FAIL_REASONS) and a note. */
    reasonCode: text('reason_code'),
    reason: text('reason'),
    txSignature: text('tx_signature'),
    /** When it completed or failed. */
    processedAt: ts('processed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('withdrawals_tx_signature_uq').on(t.txSignature),
    index('withdrawals_created_idx').on(t.createdAt, t.id),
    index('withdrawals_status_created_idx').on(t.status, t.createdAt, t.id),
    index('withdrawals_user_created_idx').on(t.userId, t.createdAt, t.id),
    // Reconciliation: completed withdrawals of a coin after an instant.
    index('withdrawals_coin_completed_idx').on(t.coinId, t.processedAt).where(sql`${t.status} = 'completed'`),
    // Sorting by amount or fee: within their coin (minor units compare only there); also the coin's lookups.
    index('withdrawals_coin_amount_idx').on(t.coinId, t.amount, t.id),
    index('withdrawals_coin_fee_idx').on(t.coinId, t.fee, t.id),
    // A destination's history (the risk context: used before, by whom) and the To address filter.
    index('withdrawals_to_address_idx').on(t.toAddress, t.userId),
    check('withdrawals_amount_ck', sql`${t.amount} > 0 and ${t.fee} >= 0`),
    statusCheck('withdrawals_status_ck', t.status, withdrawalStates),
    check('withdrawals_completed_ck', sql`(${t.status} = 'completed') = (${t.txSignature} is not null)`),
    check('withdrawals_reason_ck', sql`${t.status} not in ('rejected','failed') or ${t.reasonCode} is not null`),
  ],
);

export type WithdrawalRow = typeof withdrawals.$inferSelect;
