import { formatUnits } from './input.js';

/** `12.5 USDC` from minor units and the coin's decimals. */
export function unitsText(amount: bigint | string | null | undefined, decimals: number, symbol: string): string | null {
  if (amount === null || amount === undefined) return null;
  return `${formatUnits(BigInt(amount), decimals)} ${symbol}`;
}

/** The explorer link of a transaction, from the configured template (`{signature}`). */
export function explorerUrl(template: string, signature: string | null | undefined): string | null {
  return signature ? template.replace('{signature}', encodeURIComponent(signature)) : null;
}
