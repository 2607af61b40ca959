import { currencyDecimals, fiatPaymentsResource } from '@pitboss/contract';
import { eq, getTableColumns } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { iso, defineResource, } from '../../resources/define.js';
import { coins } from '../coins/table.js';
import { unitsText } from '../ledger/format.js';
import { reasonOf } from '../ledger/input.js';
import { users } from '../users/table.js';
import { refundFiatPayment } from './service.js';
import { fiatPayments } from './table.js';

const topupCoin = alias(coins, 'topup_coin');

export const fiatPaymentsDef = defineResource({
  spec: fiatPaymentsResource,
  table: fiatPayments,
  idColumn: fiatPayments.id,
  columns: {
    createdAt: fiatPayments.createdAt, status: fiatPayments.status, provider: fiatPayments.provider, providerReference: fiatPayments.providerReference, userId: fiatPayments.userId, reasonCode: fiatPayments.reasonCode,
  },
  // Amounts rank within their currency (index fiat_payments_currency_amount_idx).
  sortBy: { amountText: [fiatPayments.currency, fiatPayments.amount] },
  caseInsensitive: ['provider'],
  select: (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(fiatPayments), username: users.username, coinSymbol: topupCoin.symbol, coinDecimals: topupCoin.decimals })
      .from(fiatPayments)
      .innerJoin(users, eq(users.id, fiatPayments.userId))
      .leftJoin(topupCoin, eq(topupCoin.id, fiatPayments.coinId)),
  toRecord: (r) => ({
    _id: String(r.id), userId: String(r.userId), username: String(r.username), provider: String(r.provider), providerReference: String(r.providerReference),
    amount: String(r.amount), currency: String(r.currency), amountText: unitsText(r.amount as bigint, currencyDecimals(String(r.currency)), String(r.currency))!,
    purpose: r.purpose as 'coin_topup', coinAmountText: r.coinSymbol ? unitsText(r.coinAmount as bigint | null, Number(r.coinDecimals), String(r.coinSymbol)) : null,
    status: r.status as 'pending', reasonCode: (r.reasonCode as string | null) ?? null, reason: (r.reason as string | null) ?? null, createdAt: iso(r.createdAt),
  }),
  auditedByHandlers: true,
  actions: {
    refund: async (tx, actor, record, input) => {
      await refundFiatPayment(tx, actor, Number(record._id), reasonOf(input));
      return 'Payment refunded';
    },
  },
});
