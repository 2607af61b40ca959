import type { DbOrTx } from '../../db/client.js';
import type { CoinRow } from '../coins/table.js';
import { formatUnits } from '../ledger/input.js';
import { notify } from './service.js';

/** Written in the deposit's transaction: a deposit at or above its coin's threshold (set on the coin's page) is notified, once. */
export async function notifyIfLargeDeposit(
  tx: DbOrTx,
  deposit: { id: number; userId: number; amount: bigint },
  coin: Pick<CoinRow, 'symbol' | 'decimals' | 'largeDepositThreshold'>,
  username: string,
): Promise<void> {
  const threshold = coin.largeDepositThreshold;
  if (threshold === null || deposit.amount < threshold) return;
  await notify(tx, {
    kind: 'large_deposit', recordKey: `deposit:${deposit.id}`, link: `/deposit?userId=${deposit.userId}`,
    title: `Large deposit: ${formatUnits(deposit.amount, coin.decimals)} ${coin.symbol}`,
    body: `${username} deposited ${formatUnits(deposit.amount, coin.decimals)} ${coin.symbol} (threshold ${formatUnits(threshold, coin.decimals)} ${coin.symbol}); pending confirmation.`,
  });
}
