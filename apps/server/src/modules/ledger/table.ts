import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { coins } from '../coins/table.js';
import { users } from '../users/table.js';
import { createdAt, id, money, ref, updatedAt } from '../../db/columns.js';

/** A user's money in a coin is two accounts: spendable, and held for open withdrawals. */
export const USER_BUCKETS = ['available', 'held'] as const;
export type UserBucket = (typeof USER_BUCKETS)[number];

/**
 * The platform's accounts, one per coin each. Sign convention of every account: a posting of +x
 * credits it; the postings of a transaction sum to zero per coin.
 *
 * - hot_wallet: counterpart of coins on chain. A deposit debits it, a completed withdrawal credits
 *   it, so its balance is minus the coins the hot wallet should hold: it MAY go negative.
 * - fiat_clearing: counterpart of coins bought with fiat (top-ups); MAY go negative likewise.
 * - adjustments: counterpart of manual balance corrections; MAY go negative (credits to users).
 * - fees_income, pack_sales, store_sales: platform income; never negative.
 * - market_collateral: coins locked in open prediction markets (100¢ per YES/NO pair outstanding,
 *   mints in, merges and settlements out); never negative.
 * - rewards: counterpart of coins given away by reward cards (marketing spend); MAY go negative: its
 *   balance is minus what the rewards have paid out.
 */
export const PLATFORM_ACCOUNTS = ['hot_wallet', 'fiat_clearing', 'adjustments', 'fees_income', 'pack_sales', 'store_sales', 'market_collateral', 'rewards'] as const;
export type PlatformAccount = (typeof PLATFORM_ACCOUNTS)[number];
/** The platform accounts whose balance may be negative (the outside world's counterparts). */
export const MAY_GO_NEGATIVE: readonly PlatformAccount[] = ['hot_wallet', 'fiat_clearing', 'adjustments', 'rewards'];

export const LEDGER_CAUSES = [
  'deposit', 'withdrawal_hold', 'withdrawal_release', 'withdrawal_complete', 'fiat_payment', 'fiat_refund',
  'fee', 'trade', 'order', 'settlement', 'pack_purchase', 'store_sale', 'adjustment', 'reward',
] as const;
export type LedgerCause = (typeof LEDGER_CAUSES)[number];
/** Causes that happen at most once per causing record (a unique index refuses a second one). */
export const ONCE_PER_RECORD: readonly LedgerCause[] = ['deposit', 'withdrawal_hold', 'withdrawal_release', 'withdrawal_complete', 'fiat_payment', 'fiat_refund', 'settlement', 'pack_purchase', 'reward', 'adjustment'];

const list = (xs: readonly string[]) => sql.raw(xs.map((x) => `'${x}'`).join(','));

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: id(),
    ownerKind: text('owner_kind').notNull().$type<'user' | 'platform'>(),
    userId: ref('user_id').references(() => users.id),
    bucket: text('bucket').$type<UserBucket>(),
    platformCode: text('platform_code').$type<PlatformAccount>(),
    coinId: ref('coin_id').notNull().references(() => coins.id),
    /** Sum of the account's postings, kept in the same transaction as each posting. */
    balance: money('balance').notNull().default(sql`0`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_user_uq').on(t.userId, t.coinId, t.bucket),
    uniqueIndex('ledger_accounts_platform_uq').on(t.platformCode, t.coinId),
    // A posting's coin is its account's coin: checked at commit by the "balanced" trigger through this key.
    unique('ledger_accounts_id_coin_uq').on(t.id, t.coinId),
    check(
      'ledger_accounts_owner_ck',
      sql`(${t.ownerKind} = 'user' and ${t.userId} is not null and coalesce(${t.bucket} in ('available','held'), false) and ${t.platformCode} is null)
        or (${t.ownerKind} = 'platform' and ${t.userId} is null and ${t.bucket} is null and coalesce(${t.platformCode} in (${list(PLATFORM_ACCOUNTS)}), false))`,
    ),
    // The database, not only the code, refuses a negative user balance (SQLSTATE 23514).
    check('ledger_accounts_balance_ck', sql`${t.balance} >= 0 or (${t.ownerKind} = 'platform' and ${t.platformCode} in (${list(MAY_GO_NEGATIVE)}))`),
  ],
);

/** One economic event. Never updated or deleted (triggers refuse it): a correction is a new transaction. */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: id(),
    cause: text('cause').notNull().$type<LedgerCause>(),
    /** The causing record (`withdrawal` 42); null for an adjustment. */
    refType: text('ref_type'),
    refId: ref('ref_id'),
    /** Why: an adjustment's reason code (BALANCE_ADJUSTMENT_REASONS), required, and its note. */
    reasonCode: text('reason_code'),
    reason: text('reason'),
    actorKind: text('actor_kind').notNull().$type<'admin' | 'platform' | 'system'>(),
    /** Admin id when an admin acted (historical reference like audit_log.admin_id, no foreign key). */
    adminId: ref('admin_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_transactions_ref_idx').on(t.refType, t.refId),
    index('ledger_transactions_created_idx').on(t.createdAt, t.id),
    uniqueIndex('ledger_transactions_once_uq').on(t.cause, t.refType, t.refId).where(sql`${t.cause} in (${list(ONCE_PER_RECORD)})`),
    check('ledger_transactions_cause_ck', sql`${t.cause} in (${list(LEDGER_CAUSES)})`),
    check('ledger_transactions_ref_ck', sql`(${t.refType} is null) = (${t.refId} is null)`),
    check('ledger_transactions_reason_ck', sql`${t.cause} <> 'adjustment' or ${t.reasonCode} is not null`),
    check('ledger_transactions_actor_ck', sql`${t.actorKind} in ('admin','platform','system') and (${t.actorKind} = 'admin') = (${t.adminId} is not null)`),
  ],
);

/** One leg of a transaction: a signed amount on one account. Never updated or deleted. */
export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    id: id(),
    // No foreign keys here on purpose: the deferred "balanced" trigger checks, once per ledger
    // transaction at commit and set-based, that its postings name an existing transaction and an
    // existing account of the posting's coin (a per-row foreign-key trigger on each of the 100 k
    // postings of a settlement cost half of its INSERT); transactions are append-only and accounts
    // cannot be deleted or re-keyed (triggers), so nothing can dangle later.
    transactionId: ref('transaction_id').notNull(),
    accountId: ref('account_id').notNull(),
    coinId: ref('coin_id').notNull(),
    amount: money('amount').notNull(),
  },
  (t) => [
    // With the id: "does this transaction have postings older than these?" is one index probe (the
    // statement-level check that a ledger transaction's postings are inserted together).
    index('ledger_postings_transaction_idx').on(t.transactionId, t.id),
    index('ledger_postings_account_idx').on(t.accountId, t.id),
    check('ledger_postings_amount_ck', sql`${t.amount} <> 0`),
  ],
);

export type LedgerAccountRow = typeof ledgerAccounts.$inferSelect;
export type LedgerTransactionRow = typeof ledgerTransactions.$inferSelect;
export type LedgerPostingRow = typeof ledgerPostings.$inferSelect;
