import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, money, updatedAt } from '../../db/columns.js';

export const COIN_NETWORKS = ['devnet', 'testnet', 'mainnet-beta'] as const;
export type CoinNetwork = (typeof COIN_NETWORKS)[number];
export const COIN_STATUSES = ['active', 'inactive'] as const;
export type CoinStatus = (typeof COIN_STATUSES)[number];

/**
 * Coins the platform holds for users (SOL, USDC…). Every amount of a coin, everywhere, is in its
 * minor units (10^-decimals): `decimals` is fixed once the ledger has postings in the coin.
 */
export const coins = pgTable(
  'coins',
  {
    id: id(),
    /** Upper case, unique (`SOL`, `USDC`). */
    symbol: text('symbol').notNull(),
    name: text('name').notNull(),
    network: text('network').notNull().$type<CoinNetwork>().default('devnet'),
    /** SPL mint address; null for the network's native coin (SOL). */
    mintAddress: text('mint_address'),
    decimals: integer('decimals').notNull(),
    /** Decimals a table shows of its amounts (rounded, the exact value on hover): 0 to `decimals`. */
    displayDecimals: integer('display_decimals').notNull(),
    logoUrl: text('logo_url').notNull().default(''),
    depositEnabled: boolean('deposit_enabled').notNull().default(true),
    withdrawEnabled: boolean('withdraw_enabled').notNull().default(true),
    minWithdrawal: money('min_withdrawal').notNull().default(sql`0`),
    withdrawalFee: money('withdrawal_fee').notNull().default(sql`0`),
    /** A whitelisted withdrawal up to this amount is approved by the system at once; 0 = always reviewed. */
    autoApproveLimit: money('auto_approve_limit').notNull().default(sql`0`),
    /** What one user may request in this coin over any 24 hours (rejected and failed requests aside); null = no limit. */
    dailyWithdrawalLimit: money('daily_withdrawal_limit'),
    /** A deposit at or above this amount notifies the admins who may view deposits; null = none. */
    largeDepositThreshold: money('large_deposit_threshold'),
    /** A withdrawal of at least this takes two approvals by two admins; null = one. */
    secondApprovalThreshold: money('second_approval_threshold'),
    /** A balance adjustment of at least this (absolute) waits for a second admin; null: applied at once. */
    adjustmentApprovalThreshold: money('adjustment_approval_threshold'),
    status: text('status').notNull().$type<CoinStatus>().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('coins_symbol_uq').on(t.symbol),
    uniqueIndex('coins_mint_uq').on(t.network, t.mintAddress),
    index('coins_created_idx').on(t.createdAt, t.id),
    check('coins_symbol_ck', sql`${t.symbol} ~ '^[A-Z0-9]{2,10}$'`),
    check('coins_network_ck', sql`${t.network} in ('devnet','testnet','mainnet-beta')`),
    check('coins_decimals_ck', sql`${t.decimals} between 0 and 18`),
    check('coins_display_decimals_ck', sql`${t.displayDecimals} between 0 and ${t.decimals}`),
    check('coins_min_withdrawal_ck', sql`${t.minWithdrawal} >= 0`),
    check('coins_withdrawal_fee_ck', sql`${t.withdrawalFee} >= 0`),
    check('coins_auto_approve_limit_ck', sql`${t.autoApproveLimit} >= 0`),
    check('coins_daily_withdrawal_limit_ck', sql`${t.dailyWithdrawalLimit} > 0`),
    check('coins_large_deposit_threshold_ck', sql`${t.largeDepositThreshold} > 0`),
    check('coins_second_approval_threshold_ck', sql`${t.secondApprovalThreshold} > 0`),
    check('coins_adjustment_approval_threshold_ck', sql`${t.adjustmentApprovalThreshold} > 0`),
    check('coins_status_ck', sql`${t.status} in ('active','inactive')`),
  ],
);

export type CoinRow = typeof coins.$inferSelect;
