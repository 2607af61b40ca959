import { depositStates, stateValues } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { coins } from '../coins/table.js';
import { createdAt, id, money, ref, ts, updatedAt } from '../../db/columns.js';
import { statusCheck } from '../../db/states.js';
import { users } from '../users/table.js';

/** The declared machine's states (packages/contract/src/modules/deposits.ts): one list for the CHECK, the API and the services. */
export const DEPOSIT_STATUSES = stateValues(depositStates);
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number];

/** A crypto deposit seen on chain: pending → confirmed (credits the user once) | failed. */
export const deposits = pgTable(
  'deposits',
  {
    id: id(),
    userId: ref('user_id').notNull().references(() => users.id),
    coinId: ref('coin_id').notNull().references(() => coins.id),
    amount: money('amount').notNull(),
    /** The on-chain transaction (base58, 64 bytes): one deposit per signature. */
    txSignature: text('tx_signature').notNull(),
    fromAddress: text('from_address'),
    status: text('status').notNull().$type<DepositStatus>().default('pending'),
    confirmedAt: ts('confirmed_at'),
    /** Why it failed: a reason code (DEPOSIT_FAIL_REASONS) and a note. */
    reasonCode: text('reason_code'),
    failedReason: text('failed_reason'),
    /** Admin who confirmed or failed it (null when a job or the platform did). */
    reviewedBy: ref('reviewed_by'),
    reviewedAt: ts('reviewed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('deposits_tx_signature_uq').on(t.txSignature),
    index('deposits_created_idx').on(t.createdAt, t.id),
    index('deposits_status_created_idx').on(t.status, t.createdAt, t.id),
    index('deposits_user_created_idx').on(t.userId, t.createdAt, t.id),
    // Reconciliation: confirmed deposits of a coin after an instant.
    index('deposits_coin_confirmed_idx').on(t.coinId, t.confirmedAt).where(sql`${t.status} = 'confirmed'`),
    // Sorting by amount: amounts rank within their coin (minor units compare only there); also the coin's lookups.
    index('deposits_coin_amount_idx').on(t.coinId, t.amount, t.id),
    // Surveillance: users sharing a source wallet (trades' wash-trade signal).
    index('deposits_from_address_idx').on(t.fromAddress, t.userId),
    check('deposits_amount_ck', sql`${t.amount} > 0`),
    statusCheck('deposits_status_ck', t.status, depositStates),
    check('deposits_confirmed_ck', sql`(${t.status} = 'confirmed') = (${t.confirmedAt} is not null)`),
    check('deposits_failed_ck', sql`(${t.status} = 'failed') = (${t.reasonCode} is not null)`),
  ],
);

export type DepositRow = typeof deposits.$inferSelect;
