import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { MarketResult } from '@pitboss/contract';
import { createdAt, id, money, ref, ts } from '../../db/columns.js';
import { markets } from '../markets/table.js';

/**
 * One settled market (docs/markets.md, "Resolution and settlement"): the result with its source and evidence,
 * who resolved it, and what the settlement paid. Written in the settlement's transaction; at most one
 * per market (a unique index, behind the market's row lock and state check).
 */
export const resolutions = pgTable(
  'resolutions',
  {
    id: id(),
    marketId: ref('market_id').notNull().references(() => markets.id, { onDelete: 'restrict' }),
    result: text('result').notNull().$type<MarketResult>(),
    source: text('source').notNull(),
    evidence: text('evidence').notNull(),
    /** Links to the evidence (http(s) URLs). */
    evidenceUrls: text('evidence_urls').array().notNull().default(sql`'{}'`),
    /** `admin` or `system` (a job); the admin's id (historical reference, no foreign key, like the ledger's). */
    actorKind: text('actor_kind').notNull().$type<'admin' | 'system'>(),
    adminId: ref('admin_id'),
    coinId: ref('coin_id').notNull(),
    /** The market's collateral before the settlement and what the settlement paid (minor units): equal. */
    collateral: money('collateral').notNull(),
    totalPaid: money('total_paid').notNull(),
    /** Users holding shares, positions closed, YES/NO pairs outstanding at settlement. */
    holders: integer('holders').notNull(),
    positions: integer('positions').notNull(),
    pairs: bigint('pairs', { mode: 'number' }).notNull(),
    /** The settlement's ledger transaction (null when nothing was held: no postings). */
    transactionId: ref('transaction_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('resolutions_market_uq').on(t.marketId),
    index('resolutions_created_idx').on(t.createdAt, t.id),
    check('resolutions_result_ck', sql`${t.result} in ('YES','NO','VOID')`),
    check('resolutions_actor_ck', sql`${t.actorKind} in ('admin','system') and (${t.actorKind} = 'admin') = (${t.adminId} is not null)`),
    check('resolutions_paid_ck', sql`${t.totalPaid} = ${t.collateral} and ${t.totalPaid} >= 0 and ${t.holders} >= 0 and ${t.positions} >= 0 and ${t.pairs} >= 0`),
  ],
);
export type ResolutionRow = typeof resolutions.$inferSelect;

/**
 * A resolution proposed while resolutions need a second admin (site settings; docs/markets.md, "Two
 * admins to resolve"): `open` until another admin holding Markets › resolve confirms it after
 * `dispute_ends_at` (the market settles then, once) or either rejects it with a reason code. At most
 * one open per market; rejected ones stay as history.
 */
export const resolutionProposals = pgTable(
  'resolution_proposals',
  {
    id: id(),
    marketId: ref('market_id').notNull().references(() => markets.id, { onDelete: 'restrict' }),
    result: text('result').notNull().$type<MarketResult>(),
    source: text('source').notNull(),
    evidence: text('evidence').notNull(),
    evidenceUrls: text('evidence_urls').array().notNull().default(sql`'{}'`),
    /** The proposing admin (historical reference, as resolutions.admin_id). */
    proposedBy: ref('proposed_by').notNull(),
    disputeEndsAt: ts('dispute_ends_at').notNull(),
    status: text('status').notNull().$type<'open' | 'confirmed' | 'rejected'>().default('open'),
    decidedBy: ref('decided_by'),
    decidedAt: ts('decided_at'),
    reasonCode: text('reason_code'),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('resolution_proposals_open_uq').on(t.marketId).where(sql`${t.status} = 'open'`),
    index('resolution_proposals_market_idx').on(t.marketId, t.id),
    check('resolution_proposals_result_ck', sql`${t.result} in ('YES','NO','VOID')`),
    check('resolution_proposals_status_ck', sql`${t.status} in ('open','confirmed','rejected')`),
    check('resolution_proposals_rejected_ck', sql`(${t.status} = 'rejected') = (${t.reasonCode} is not null)`),
  ],
);
export type ResolutionProposalRow = typeof resolutionProposals.$inferSelect;
