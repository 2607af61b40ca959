import { roundUnits } from '@pitboss/contract';

/** The whole part of an amount's text grouped by thousands: "4372.5 USDC" → "4,372.5 USDC"; the rest as it is. */
export function groupThousands(text: string): string {
  return text.replace(/^([+\-−]?)(\d{4,})/, (_, sign: string, whole: string) => sign + whole.replace(/\B(?=(\d{3})+$)/g, ','));
}

/** An amount as a table shows it (`tableAmount`). */
export interface TableAmount {
  /** What the cell shows: `4,372.50 USDC`, `≈12.3457 SOL`, `<0.0001 SOL`. */
  shown: string;
  /** The amount as the API wrote it, grouped: `4,372.5 USDC`, `12.345678901 SOL`. */
  exact: string;
  /** Digits were dropped: the cell shows a rounded value, the exact one on hover. */
  rounded: boolean;
}

/**
 * A money text as the API writes it (`4372.5 USDC`: a decimal and its symbol) rounded to the decimals
 * its coin or currency shows (`places(symbol)`, `roundUnits`: half away from zero, trailing zeros
 * kept). A symbol without known decimals, or a text of another shape, shows as written (grouped).
 */
export function tableAmount(text: string, places: (symbol: string) => number | undefined): TableAmount {
  const exact = groupThousands(text);
  const m = /^(\S+) (\S+)$/.exec(text);
  const decimals = m ? places(m[2]!) : undefined;
  const r = m && decimals !== undefined ? roundUnits(m[1]!, decimals, { grouped: true }) : null;
  if (!r) return { shown: exact, exact, rounded: false };
  return { shown: `${r.text} ${m![2]}`, exact, rounded: !r.exact };
}
