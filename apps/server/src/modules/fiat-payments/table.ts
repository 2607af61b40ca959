import { fiatPaymentStates, stateValues } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { coins } from '../coins/table.js';
import { createdAt, id, money, ref, ts, updatedAt } from '../../db/columns.js';
import { statusCheck } from '../../db/states.js';
import { users } from '../users/table.js';

/** The declared machine's states (packages/contract/src/modules/fiat-payments.ts): one list for the CHECK, the API and the services. */
export const FIAT_PAYMENT_STATUSES = stateValues(fiatPaymentStates);
export type FiatPaymentStatus = (typeof FIAT_PAYMENT_STATUSES)[number];
export const FIAT_PURPOSES = ['coin_topup', 'pack_purchase'] as const;
export type FiatPurpose = (typeof FIAT_PURPOSES)[number];

/**
 * A card/bank payment through a provider. `amount` is in the minor units of `currency` (ISO 4217):
 * fiat never enters the ledger, which holds coins only. A coin top-up carries the coins it buys
 * (`coin_id`, `coin_amount` in the coin's minor units, the quote fixed when recorded); a pack
 * purchase carries none (the pack is granted by the cards module).
 */
export const fiatPayments = pgTable(
  'fiat_payments',
  {
    id: id(),
    userId: ref('user_id').notNull().references(() => users.id),
    /** Provider key (`stripe`, `moonpay`…). */
    provider: text('provider').notNull(),
    /** The provider's id of the payment: one record per (provider, reference). */
    providerReference: text('provider_reference').notNull(),
    amount: money('amount').notNull(),
    currency: text('currency').notNull(),
    purpose: text('purpose').notNull().$type<FiatPurpose>(),
    coinId: ref('coin_id').references(() => coins.id),
    coinAmount: money('coin_amount'),
    status: text('status').notNull().$type<FiatPaymentStatus>().default('pending'),
    /** A refund's reason code (FIAT_REFUND_REASONS). */
    reasonCode: text('reason_code'),
    /** Why it failed (the provider's words), or the refund's note. */
    reason: text('reason'),
    succeededAt: ts('succeeded_at'),
    refundedAt: ts('refunded_at'),
    /** Admin who last changed its state (null when the provider's webhook or a job did). */
    reviewedBy: ref('reviewed_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('fiat_payments_provider_ref_uq').on(t.provider, t.providerReference),
    index('fiat_payments_created_idx').on(t.createdAt, t.id),
    index('fiat_payments_status_created_idx').on(t.status, t.createdAt, t.id),
    index('fiat_payments_user_created_idx').on(t.userId, t.createdAt, t.id),
    // Sorting by amount: within its currency (minor units compare only there).
    index('fiat_payments_currency_amount_idx').on(t.currency, t.amount, t.id),
    check('fiat_payments_amount_ck', sql`${t.amount} > 0`),
    check('fiat_payments_currency_ck', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('fiat_payments_purpose_ck', sql`${t.purpose} in ('coin_topup','pack_purchase')`),
    check(
      'fiat_payments_topup_ck',
      sql`(${t.purpose} = 'coin_topup' and ${t.coinId} is not null and ${t.coinAmount} is not null and ${t.coinAmount} > 0)
        or (${t.purpose} = 'pack_purchase' and ${t.coinId} is null and ${t.coinAmount} is null)`,
    ),
    statusCheck('fiat_payments_status_ck', t.status, fiatPaymentStates),
    check('fiat_payments_reason_ck', sql`(${t.status} <> 'failed' or ${t.reason} is not null) and (${t.status} <> 'refunded' or ${t.reasonCode} is not null)`),
  ],
);

export type FiatPaymentRow = typeof fiatPayments.$inferSelect;
