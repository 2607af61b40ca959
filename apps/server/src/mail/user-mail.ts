import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { coins } from '../modules/coins/table.js';
import type { DepositRow } from '../modules/deposits/table.js';
import { unitsText } from '../modules/ledger/format.js';
import { loadSiteSettings } from '../modules/site-settings/service.js';
import { users } from '../modules/users/table.js';
import type { WithdrawalRow } from '../modules/withdrawals/table.js';
import { enqueueTemplate } from './mailer.js';

/*
 * Mail to platform users about their money, queued in the service's own transaction (sent once it
 * commits; nothing is queued if it rolls back). The user's address is the one the platform reported.
 */

async function userAndCoin(tx: DbOrTx, userId: number, coinId: number) {
  const [user] = await tx.select({ username: users.username, email: users.email }).from(users).where(eq(users.id, userId));
  const [coin] = await tx.select({ symbol: coins.symbol, decimals: coins.decimals }).from(coins).where(eq(coins.id, coinId));
  if (!user || !coin) throw new Error(`user ${userId} or coin ${coinId} not found for a mail`);
  const amount = (units: bigint) => unitsText(units, coin.decimals, coin.symbol)!;
  return { user, amount, siteName: (await loadSiteSettings(tx)).siteName };
}

export async function mailWithdrawalApproved(tx: DbOrTx, w: WithdrawalRow): Promise<void> {
  const { user, amount, siteName } = await userAndCoin(tx, w.userId, w.coinId);
  await enqueueTemplate(tx, {
    key: 'withdrawal_approved',
    to: user.email,
    vars: { username: user.username, amount: amount(w.amount), fee: amount(w.fee), toAddress: w.toAddress, withdrawalId: String(w.id), siteName },
  });
}

/**
 * What the user reads for a rejection without a note: words for the reasons a user may be told;
 * none for the others (suspected fraud, a flagged destination), which must never tip anyone off.
 */
const USER_FACING_REJECTION: Readonly<Record<string, string>> = {
  identity_check: 'We need to verify your identity before this withdrawal.',
  over_limit: 'It is over your withdrawal limits.',
  user_request: 'You asked us to cancel it.',
  duplicate: 'It repeated an earlier request.',
};

export async function mailWithdrawalRejected(tx: DbOrTx, w: WithdrawalRow): Promise<void> {
  const { user, amount, siteName } = await userAndCoin(tx, w.userId, w.coinId);
  await enqueueTemplate(tx, {
    key: 'withdrawal_rejected',
    to: user.email,
    vars: { username: user.username, amount: amount(w.amount), toAddress: w.toAddress, reason: w.reason ?? USER_FACING_REJECTION[w.reasonCode ?? ''] ?? 'Please contact support for the details.', withdrawalId: String(w.id), siteName },
  });
}

export async function mailDepositConfirmed(tx: DbOrTx, d: DepositRow): Promise<void> {
  const { user, amount, siteName } = await userAndCoin(tx, d.userId, d.coinId);
  await enqueueTemplate(tx, {
    key: 'deposit_confirmed',
    to: user.email,
    vars: { username: user.username, amount: amount(d.amount), txSignature: d.txSignature, depositId: String(d.id), siteName },
  });
}
