// The CSV columns of a resource's or a report's export, derived from its declared columns: what a
// spreadsheet reads as numbers and dates.
// - A `money` column (its record value `4372.5 USDC`: formatUnits' exact text, a space, the coin's
//   symbol) is two columns: `<Label>`, the plain decimal in the coin's units, and `<Label> coin`,
//   the symbol (see moneyParts).
// - A `balances` column (a user's list of balances per coin) is two columns per coin the export
//   knows (`ExportContext.coins`, read when it starts, in symbol order): `<SYMBOL> available` and
//   `<SYMBOL> held`, plain decimals in the coin's units, `0` without an account in it.
// - A `date` column's cells are ISO 8601 in the caller's zone with its offset (`isoInZone`, written
//   by the export: `date` marks them).
import { formatUnits, type ColumnType } from '@pitboss/contract';
import { PLAIN_NUMBER } from './csv.js';

/** A coin as an export knows it: its id (text), symbol and decimals. */
export interface ExportCoin {
  id: string;
  symbol: string;
  decimals: number;
}

/** What an export reads once when it starts, for the columns whose width depends on the data. */
export interface ExportContext {
  /** Every coin, by symbol (code-unit order), when a column shows balances per coin; else empty. */
  coins: readonly ExportCoin[];
}

export const NO_CONTEXT: ExportContext = { coins: [] };

export interface CsvColumn {
  header: string;
  value(record: Record<string, unknown>): unknown;
  /** A date: the value (ISO text of an instant, or null) is written by `isoInZone` in the caller's zone. */
  date?: boolean;
  /** The declared column this one comes from (one declared column may give several). */
  key?: string;
}

interface DeclaredColumn {
  key: string;
  label: string;
  type: ColumnType;
}

/**
 * A money record value split into the plain decimal and the symbol, at its last space: `[amount,
 * symbol]`. A value not of that form (`-?\d+(\.\d+)?` then a space and a symbol) goes whole into the
 * amount, with no symbol; no declared money column gives one (export.test.ts checks every one).
 */
export function moneyParts(value: unknown): [amount: unknown, symbol: string | null] {
  if (value === null || value === undefined || value === '') return [null, null];
  if (typeof value !== 'string') return [value, null];
  const space = value.lastIndexOf(' ');
  if (space > 0 && space < value.length - 1) {
    const amount = value.slice(0, space);
    if (PLAIN_NUMBER.test(amount)) return [amount, value.slice(space + 1)];
  }
  return [value, null];
}

type Balance = { coin: string; decimals: number; available: string; held: string };

/** The CSV columns of declared columns (a resource's spec, a report's), with the export's context. */
export function csvColumnsOf(columns: readonly DeclaredColumn[], context: ExportContext): CsvColumn[] {
  const out: CsvColumn[] = [];
  for (const c of columns) {
    const key = c.key;
    if (c.type === 'money') {
      out.push({ header: c.label, key, value: (r) => moneyParts(r[key])[0] }, { header: `${c.label} coin`, key, value: (r) => moneyParts(r[key])[1] });
    } else if (c.type === 'balances') {
      for (const coin of context.coins) {
        for (const bucket of ['available', 'held'] as const) {
          out.push({
            header: `${coin.symbol} ${bucket}`,
            key,
            value: (r) => {
              const b = (r[key] as Balance[] | null | undefined)?.find((x) => x.coin === coin.symbol);
              return b ? formatUnits(b[bucket], coin.decimals) : '0';
            },
          });
        }
      }
    } else out.push({ header: c.label, key, value: (r) => r[key], ...(c.type === 'date' ? { date: true } : {}) });
  }
  return out;
}

/** Whether the declared columns need the coins (`ExportContext.coins`). */
export const needsCoins = (columns: readonly DeclaredColumn[]): boolean => columns.some((c) => c.type === 'balances');

/** Every coin by symbol, in code-unit order (as the users' balances are listed). */
export function coinsBySymbol(rows: readonly { id: number | string; symbol: string; decimals: number }[]): ExportCoin[] {
  return rows.map((c) => ({ id: String(c.id), symbol: c.symbol, decimals: Number(c.decimals) })).sort((x, y) => (x.symbol < y.symbol ? -1 : x.symbol > y.symbol ? 1 : 0));
}
