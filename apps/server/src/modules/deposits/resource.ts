import { depositsResource } from '@pitboss/contract';
import { eq, getTableColumns } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import { iso, defineResource, isoOrNull, type ResourceDef } from '../../resources/define.js';
import { coins } from '../coins/table.js';
import { explorerUrl, unitsText } from '../ledger/format.js';
import { reasonOf } from '../ledger/input.js';
import { users } from '../users/table.js';
import { confirmDeposit, failDeposit } from './service.js';
import { deposits } from './table.js';

export const depositsDef = (config: Pick<Config, 'explorerTxUrl'>): ResourceDef =>
  defineResource({
    spec: depositsResource,
    table: deposits,
    idColumn: deposits.id,
    columns: { createdAt: deposits.createdAt, status: deposits.status, reasonCode: deposits.reasonCode, coin: coins.symbol, userId: deposits.userId, txSignature: deposits.txSignature },
    // Amounts rank within their coin (index deposits_coin_amount_idx).
    sortBy: { amountText: [deposits.coinId, deposits.amount] },
    caseInsensitive: ['coin'],
    // Inner joins on NOT NULL foreign keys (and the reviewer by primary key): one row per deposit.
    joinsKeepRows: true,
    select: (db: DbOrTx) =>
      db
        .select({ ...getTableColumns(deposits), username: users.username, symbol: coins.symbol, decimals: coins.decimals })
        .from(deposits)
        .innerJoin(users, eq(users.id, deposits.userId))
        .innerJoin(coins, eq(coins.id, deposits.coinId)),
    toRecord: (r) => ({
      _id: String(r.id), userId: String(r.userId), username: String(r.username), coin: String(r.symbol), decimals: Number(r.decimals),
      amount: String(r.amount), amountText: unitsText(r.amount as bigint, Number(r.decimals), String(r.symbol))!,
      txSignature: String(r.txSignature), explorerUrl: explorerUrl(config.explorerTxUrl, r.txSignature as string)!, fromAddress: (r.fromAddress as string | null) ?? null,
      status: r.status as 'pending', reasonCode: (r.reasonCode as string | null) ?? null, failedReason: (r.failedReason as string | null) ?? null, confirmedAt: isoOrNull(r.confirmedAt), createdAt: iso(r.createdAt),
    }),
    auditedByHandlers: true,
    actions: {
      confirm: async (tx, actor, record) => {
        await confirmDeposit(tx, actor, Number(record._id));
        return `Deposit confirmed: ${record.amountText} credited to ${record.username}`;
      },
      fail: async (tx, actor, record, input) => {
        await failDeposit(tx, actor, Number(record._id), reasonOf(input));
        return 'Deposit marked failed';
      },
    },
  });
