import type { Config } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import { formatUnits } from '../ledger/input.js';
import { notify } from './service.js';

/**
 * The thresholds of the event-driven alerts (LARGE_DEPOSIT_ALERT, TICKET_WAITING_ALERT_MINUTES).
 * Services that raise them (a deposit's record) are called by the demo seed before the HTTP app
 * exists, so the configuration is set once per process by `configureAlerts` (main, buildApp).
 */
let largeDeposit: Record<string, string> = { USDC: '10000', SOL: '100' };

export function configureAlerts(config: Pick<Config, 'largeDepositAlert'>): void {
  largeDeposit = { ...config.largeDepositAlert };
}

/** A whole-coin decimal ("10000", "0.5") in the coin's minor units. */
function minorUnits(text: string, decimals: number): bigint {
  const [whole, frac = ''] = text.split('.');
  return BigInt(whole!) * 10n ** BigInt(decimals) + BigInt((frac + '0'.repeat(decimals)).slice(0, decimals) || '0');
}

/** Written in the deposit's transaction: a deposit at or above its coin's threshold is notified (once). */
export async function notifyIfLargeDeposit(
  tx: DbOrTx,
  deposit: { id: number; userId: number; amount: bigint },
  coin: { symbol: string; decimals: number },
  username: string,
): Promise<void> {
  const threshold = largeDeposit[coin.symbol.toUpperCase()];
  if (threshold === undefined || deposit.amount < minorUnits(threshold, coin.decimals)) return;
  await notify(tx, {
    kind: 'large_deposit', recordKey: `deposit:${deposit.id}`, link: `/deposit?userId=${deposit.userId}`,
    title: `Large deposit: ${formatUnits(deposit.amount, coin.decimals)} ${coin.symbol}`,
    body: `${username} deposited ${formatUnits(deposit.amount, coin.decimals)} ${coin.symbol} (threshold ${threshold} ${coin.symbol}); pending confirmation.`,
  });
}
