import { withdrawalsResource } from '@pitboss/contract';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Config } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import { admins } from '../../db/schema.js';
import { iso, defineResource, isoOrNull, type ResourceDef } from '../../resources/define.js';
import { secondApprovals } from '../approvals/table.js';
import { coins } from '../coins/table.js';
import { explorerUrl, unitsText } from '../ledger/format.js';
import { reasonOf } from '../ledger/input.js';
import { users } from '../users/table.js';
import { approveWithdrawal, completeWithdrawal, failWithdrawal, rejectWithdrawal } from './service.js';
import { withdrawals } from './table.js';

const reviewer = alias(admins, 'reviewer');

export const withdrawalsDef = (config: Pick<Config, 'explorerTxUrl'>): ResourceDef =>
  defineResource({
    spec: withdrawalsResource,
    table: withdrawals,
    idColumn: withdrawals.id,
    columns: { createdAt: withdrawals.createdAt, status: withdrawals.status, reasonCode: withdrawals.reasonCode, coin: coins.symbol, userId: withdrawals.userId, toAddress: withdrawals.toAddress },
    // Amounts and fees rank within their coin (indexes withdrawals_coin_amount_idx, withdrawals_coin_fee_idx).
    sortBy: { amountText: [withdrawals.coinId, withdrawals.amount], feeText: [withdrawals.coinId, withdrawals.fee] },
    caseInsensitive: ['coin'],
    // Inner joins on NOT NULL foreign keys (and the reviewer by primary key): one row per withdrawal.
    joinsKeepRows: true,
    select: (db: DbOrTx) =>
      db
        .select({
          ...getTableColumns(withdrawals), username: users.username, symbol: coins.symbol, decimals: coins.decimals, reviewedByEmail: reviewer.email,
          // The first of two approvals, when it took two (the latest, by the approvals' record index).
          firstApprovedByEmail: sql<string | null>`(select a.email from ${secondApprovals} s join ${admins} a on a.id = s.first_admin_id where s.resource = 'withdrawals' and s.record_id = ${withdrawals.id} order by s.id desc limit 1)`,
          firstApprovedAt: sql<Date | null>`(select s.first_at from ${secondApprovals} s where s.resource = 'withdrawals' and s.record_id = ${withdrawals.id} order by s.id desc limit 1)`,
        })
        .from(withdrawals)
        .innerJoin(users, eq(users.id, withdrawals.userId))
        .innerJoin(coins, eq(coins.id, withdrawals.coinId))
        .leftJoin(reviewer, eq(reviewer.id, withdrawals.reviewedBy)),
    toRecord: (r) => {
      const decimals = Number(r.decimals);
      const symbol = String(r.symbol);
      return {
        _id: String(r.id), userId: String(r.userId), username: String(r.username), coin: symbol, decimals,
        amount: String(r.amount), fee: String(r.fee), amountText: unitsText(r.amount as bigint, decimals, symbol)!, feeText: unitsText(r.fee as bigint, decimals, symbol)!,
        toAddress: String(r.toAddress), status: r.status as 'requested', autoApproved: Boolean(r.autoApproved), reviewedByEmail: (r.reviewedByEmail as string | null) ?? null,
        firstApprovedByEmail: (r.firstApprovedByEmail as string | null) ?? null, firstApprovedAt: isoOrNull(r.firstApprovedAt),
        reviewedAt: isoOrNull(r.reviewedAt), reasonCode: (r.reasonCode as string | null) ?? null, reason: (r.reason as string | null) ?? null, txSignature: (r.txSignature as string | null) ?? null,
        explorerUrl: explorerUrl(config.explorerTxUrl, r.txSignature as string | null), createdAt: iso(r.createdAt),
      };
    },
    auditedByHandlers: true,
    actions: {
      approve: async (tx, actor, record) => {
        const row = await approveWithdrawal(tx, actor, Number(record._id));
        if (row.status === 'awaiting_second_approval') return `First approval of ${record.amountText} given: a second admin must approve it`;
        return `Withdrawal of ${record.amountText} approved`;
      },
      reject: async (tx, actor, record, input) => {
        await rejectWithdrawal(tx, actor, Number(record._id), reasonOf(input));
        return `Withdrawal rejected; ${record.username}'s funds are released`;
      },
      complete: async (tx, actor, record, input) => {
        await completeWithdrawal(tx, actor, Number(record._id), { txSignature: String(input.txSignature) });
        return 'Withdrawal completed';
      },
      fail: async (tx, actor, record, input) => {
        await failWithdrawal(tx, actor, Number(record._id), reasonOf(input));
        return `Withdrawal marked failed; ${record.username}'s funds are released`;
      },
    },
  });
