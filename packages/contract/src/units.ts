/** Minor units (a bigint or its digits) as a decimal string with the coin's decimals: `12500000`, 6 → `12.5`. */
export function formatUnits(amount: bigint | string, decimals: number): string {
  const value = typeof amount === 'bigint' ? amount : BigInt(amount);
  const neg = value < 0n;
  const abs = neg ? -value : value;
  if (decimals === 0) return `${neg ? '-' : ''}${abs}`;
  const s = abs.toString().padStart(decimals + 1, '0');
  const whole = s.slice(0, -decimals);
  const frac = s.slice(-decimals).replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}
