/**
 * Money as people write it and as the APIs carry it. The APIs hold integer minor units as strings
 * of digits (`5000000`); people type and read a decimal in the coin's units (`5` USDC, 6 decimals).
 * These two functions are the only conversion, both ways, in bigint: nothing is ever a float.
 */

/** The largest amount a ledger column holds (a signed 64-bit integer), in minor units. */
export const MAX_MINOR_UNITS = 2n ** 63n - 1n;

export interface FormatUnitsOptions {
  /** Every decimal the coin has (`5.000000`), not only the significant ones (`5`). */
  fixed?: boolean;
  /** Thousands separated by commas (`8,432.23`). */
  grouped?: boolean;
}

/** Minor units (a bigint or its digits) as a decimal string with the coin's decimals: `12500000`, 6 → `12.5`. */
export function formatUnits(amount: bigint | string, decimals: number, options: FormatUnitsOptions = {}): string {
  const value = typeof amount === 'bigint' ? amount : BigInt(amount);
  const neg = value < 0n;
  const abs = neg ? -value : value;
  const s = abs.toString().padStart(decimals + 1, '0');
  let whole = decimals === 0 ? s : s.slice(0, -decimals);
  if (options.grouped) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = decimals === 0 ? '' : options.fixed ? s.slice(-decimals) : s.slice(-decimals).replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

export interface ParseUnitsOptions {
  /** A negative amount is allowed (a debit). */
  negative?: boolean;
  /** Zero is allowed (no fee). */
  zero?: boolean;
}

export type ParsedUnits = { ok: true; value: bigint } | { ok: false; error: string };

/**
 * A decimal typed in the coin's units (`5`, `0.25`, `-3`, `1,000.5`) as minor units: `5`, 6 → 5000000n.
 * Refused, with a sentence for the field: anything but digits and one point, more decimals than the
 * coin has, a negative or zero amount where none is allowed, more than `MAX_MINOR_UNITS` either way.
 */
export function parseUnits(text: string, decimals: number, symbol: string, options: ParseUnitsOptions = {}): ParsedUnits {
  const typed = text.trim().replace(/[\s_]/g, '');
  if (typed === '') return { ok: false, error: `Enter an amount in ${symbol}` };
  const m = /^([-+]?)(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d*))?$/.exec(typed);
  if (!m || (m[2] === '' && !m[3])) return { ok: false, error: `A number of ${symbol}, like 5 or 0.25` };
  const [, sign, wholeText = '', fracText = ''] = m;
  if (fracText.length > decimals) {
    return { ok: false, error: decimals === 0 ? `${symbol} has no decimals: a whole number` : `${symbol} has ${decimals} decimals: at most ${decimals} after the point` };
  }
  const digits = `${wholeText.replace(/,/g, '') || '0'}${fracText.padEnd(decimals, '0')}`;
  const abs = BigInt(digits);
  const value = sign === '-' ? -abs : abs;
  if (value < 0n && !options.negative) return { ok: false, error: 'Must not be negative' };
  if (value === 0n && !options.zero) return { ok: false, error: options.negative ? 'Must not be zero' : 'Must be above zero' };
  if (abs > MAX_MINOR_UNITS) return { ok: false, error: `At most ${formatUnits(MAX_MINOR_UNITS, decimals, { grouped: true })} ${symbol}` };
  return { ok: true, value };
}

/**
 * An amount with its coin: by default as a confirmation echoes it, every decimal (`5000000`, 6,
 * `USDC` → `5.000000 USDC`); `{ grouped: true }` alone for a figure among others (`8,432.23 USDC`).
 */
export const formatMoney = (amount: bigint | string, decimals: number, symbol: string, options: FormatUnitsOptions = { fixed: true, grouped: true }): string =>
  `${formatUnits(amount, decimals, options)} ${symbol}`;

/** Fiat amounts are in minor units of their currency (ISO 4217): 2 decimals unless listed here. */
const CURRENCY_DECIMALS: Readonly<Record<string, number>> = { JPY: 0, KRW: 0, VND: 0, CLP: 0, ISK: 0, KWD: 3, BHD: 3, OMR: 3, JOD: 3, TND: 3 };
export const currencyDecimals = (currency: string): number => CURRENCY_DECIMALS[currency] ?? 2;

/** How many decimals a coin shows in tables when it has not said (`coins.display_decimals`): at most 4 (SOL 0.0050, a 2-decimal coin 2). */
export const DEFAULT_DISPLAY_DECIMALS = 4;
export const defaultDisplayDecimals = (decimals: number): number => Math.min(decimals, DEFAULT_DISPLAY_DECIMALS);

/** An amount rounded for display (`roundUnits`). */
export interface RoundedUnits {
  /**
   * What a table shows: the amount with exactly `places` decimals (trailing zeros kept); `≈` before
   * it when digits were dropped; `<0.01` (`-<0.01` for a debit) when it would round to zero but is
   * not zero, never a silent `0.00`.
   */
  text: string;
  /** The amount with `places` decimals, rounded, without any mark (`0.00` for 0.004). */
  rounded: string;
  /** Nothing was dropped: `rounded` is the amount itself. */
  exact: boolean;
}

/**
 * A decimal as the API writes it (`4372.5`, `-0.000005`: `formatUnits`) shown with `places`
 * decimals: `4372.5`, 2 → `4372.50`; `12.345678`, 4 → `≈12.3457`; `0.000005`, 4 → `<0.0001`.
 * Rounded on the digits (never through a float), half away from zero: `0.125` → `0.13`,
 * `-0.125` → `-0.13` (a table reads the nearest value, ties as people round them by hand). Null
 * for a text that is no such decimal.
 */
export function roundUnits(decimal: string, places: number, options: Pick<FormatUnitsOptions, 'grouped'> = {}): RoundedUnits | null {
  const m = /^(-?)(\d{1,40})(?:\.(\d{1,40}))?$/.exec(decimal.trim());
  if (!m || !Number.isInteger(places) || places < 0 || places > 40) return null;
  const [, sign = '', whole = '', frac = ''] = m;
  const kept = frac.slice(0, places).padEnd(places, '0');
  const dropped = frac.slice(places);
  const exact = /^0*$/.test(dropped);
  let magnitude = BigInt(`${whole}${kept}`);
  if (dropped !== '' && dropped[0]! >= '5') magnitude += 1n;
  const fixed = { fixed: true, grouped: options.grouped ?? false };
  const nonZero = /[1-9]/.test(`${whole}${frac}`);
  const signed = sign && magnitude > 0n ? -magnitude : magnitude;
  const rounded = formatUnits(signed, places, fixed);
  if (exact) return { text: rounded, rounded, exact };
  if (magnitude === 0n && nonZero) return { text: `${sign}<${formatUnits(1n, places, fixed)}`, rounded, exact };
  return { text: `≈${rounded}`, rounded, exact };
}
