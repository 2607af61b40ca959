import { balanceAdjustmentsResource } from '@pitboss/contract';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { iso, defineResource, isoOrNull, } from '../../resources/define.js';
import { coins } from '../coins/table.js';
import { unitsText } from '../ledger/format.js';
import { reasonOf } from '../ledger/input.js';
import { admins } from '../sub-admins/table.js';
import { users } from '../users/table.js';
import { approveAdjustment, rejectAdjustment, reverseAdjustment } from './service.js';
import { balanceAdjustments } from './table.js';

const requester = alias(admins, 'requester');
const decider = alias(admins, 'decider');

/** The adjustment reversing this one (not rejected): its state, `none` when there is none (at most one: a unique index). */
const reversalOf = sql<string>`coalesce((select r.status from balance_adjustments r where r.reverses_id = ${balanceAdjustments.id} and r.status <> 'rejected'), 'none')`;

const signedText = (amount: bigint, decimals: number, symbol: string) => (amount < 0n ? `-${unitsText(-amount, decimals, symbol)}` : unitsText(amount, decimals, symbol)!);

/** Balance adjustments (Users view; the decisions under Users › adjust-balance). docs/money-controls.md. */
export const balanceAdjustmentsDef = defineResource({
  spec: balanceAdjustmentsResource,
  table: balanceAdjustments,
  idColumn: balanceAdjustments.id,
  columns: {
    createdAt: balanceAdjustments.createdAt, status: balanceAdjustments.status, userId: balanceAdjustments.userId, coin: coins.symbol,
    reasonCode: balanceAdjustments.reasonCode, decisionReasonCode: balanceAdjustments.decisionReasonCode, reversal: reversalOf,
  },
  caseInsensitive: ['coin'],
  // Inner joins on NOT NULL foreign keys, the admins by primary key: one row per adjustment.
  joinsKeepRows: true,
  select: (db: DbOrTx) =>
    db
      .select({
        ...getTableColumns(balanceAdjustments), username: users.username, symbol: coins.symbol, decimals: coins.decimals,
        requestedByEmail: requester.email, decidedByEmail: decider.email, reversal: reversalOf,
        reversedById: sql<string | null>`(select r.id from balance_adjustments r where r.reverses_id = ${balanceAdjustments.id} and r.status <> 'rejected')`,
      })
      .from(balanceAdjustments)
      .innerJoin(users, eq(users.id, balanceAdjustments.userId))
      .innerJoin(coins, eq(coins.id, balanceAdjustments.coinId))
      .leftJoin(requester, eq(requester.id, balanceAdjustments.requestedBy))
      .leftJoin(decider, eq(decider.id, balanceAdjustments.decidedBy)),
  toRecord: (r) => {
    const decimals = Number(r.decimals);
    const symbol = String(r.symbol);
    const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
    return {
      _id: String(r.id), userId: String(r.userId), username: String(r.username), coin: symbol, decimals,
      amount: String(r.amount), amountText: signedText(r.amount as bigint, decimals, symbol), status: r.status as 'pending',
      reasonCode: String(r.reasonCode), reason: str(r.reason), requestedByEmail: str(r.requestedByEmail), decidedByEmail: str(r.decidedByEmail), decidedAt: isoOrNull(r.decidedAt),
      decisionReasonCode: str(r.decisionReasonCode), decisionReason: str(r.decisionReason), transactionId: str(r.transactionId),
      reversesId: str(r.reversesId), reversedById: str(r.reversedById), reversal: r.reversal as 'none',
      reversible: r.status === 'applied' && r.reversesId === null && r.reversal === 'none',
      createdAt: iso(r.createdAt),
    };
  },
  auditedByHandlers: true,
  actions: {
    approve: async (tx, actor, record) => {
      await approveAdjustment(tx, actor, Number(record._id));
      return `Applied ${record.amountText} to ${record.username}`;
    },
    reject: async (tx, actor, record, input) => {
      await rejectAdjustment(tx, actor, Number(record._id), reasonOf(input));
      return `Adjustment of ${record.amountText} rejected: nothing was applied`;
    },
    reverse: async (tx, actor, record, input) => {
      const { adjustment, transactionId } = await reverseAdjustment(tx, actor, Number(record._id), reasonOf(input));
      return transactionId === null
        ? `Reversal #${adjustment.id} waits for a second admin's approval`
        : `Reversed ${record.amountText} of ${record.username} (adjustment #${adjustment.id})`;
    },
  },
});
