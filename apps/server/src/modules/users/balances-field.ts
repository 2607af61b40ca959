// The users export's balances cells, finished in Node (see `sqlExport` in resource.ts). Its own module,
// with no imports the worker would load: the export's worker thread loads it (resources/rewrite-off-thread.ts).
import type { ExportContext } from '../../resources/csv-columns.js';

/**
 * The balances fields of the CSV from one user's accounts as the export's SQL gives them
 * (`coin_id,bucket,balance;…`), as the record path writes the `balances` column (csv-columns.ts):
 * per coin of the export (`context.coins`, in its order) `available,held`, each a plain decimal in
 * the coin's units, `0` without an account. Nothing in them needs quoting or the formula guard
 * (a negative amount is a number), so the fields are written as they are, comma-separated.
 */
export function balancesField(text: string, context: ExportContext): string {
  return fieldsOfAccounts(text, ';', false, context);
}

/**
 * The same fields from one user's accounts read raw (PGlite's export: `sideReads` in resource.ts),
 * as COPY writes them: `user_id,coin_id,bucket,balance` lines, each ending in LF.
 */
export function balancesFromAccounts(lines: string, context: ExportContext): string {
  return fieldsOfAccounts(lines, '\n', true, context);
}

// Per context (one per export, or per worker job): a coin's id → its index among the coins.
const indexes = new WeakMap<ExportContext, Map<string, number>>();

/**
 * The fields from accounts of three fields (`coin,bucket,balance`, after the user's id with `user`),
 * separated by `sep`. Read in place (no split): it runs for every exported user. An account in a
 * coin the export does not know (created after it started) is left out, as on the record path.
 */
function fieldsOfAccounts(text: string, sep: string, user: boolean, context: ExportContext): string {
  const coins = context.coins;
  let index = indexes.get(context);
  if (!index) {
    index = new Map(coins.map((c, k) => [c.id, k]));
    indexes.set(context, index);
  }
  const values: string[] = new Array<string>(coins.length * 2).fill('0');
  let i = 0;
  while (i < text.length) {
    const c0 = user ? text.indexOf(',', i) + 1 : i;
    const c1 = text.indexOf(',', c0);
    const c2 = text.indexOf(',', c1 + 1);
    let end = text.indexOf(sep, c2 + 1);
    if (end < 0) end = text.length;
    const k = index.get(text.slice(c0, c1));
    if (k !== undefined) values[text.startsWith('available,', c1 + 1) ? 2 * k : 2 * k + 1] = decimal(text.slice(c2 + 1, end), coins[k]!.decimals);
    i = end + 1;
  }
  return values.join(',');
}

/** Minor units (an integer's text) as a plain decimal in the coin's units, as `formatUnits` writes it. */
function decimal(minor: string, decimals: number): string {
  if (decimals === 0) return minor;
  const neg = minor.charCodeAt(0) === 45;
  const digits = (neg ? minor.slice(1) : minor).padStart(decimals + 1, '0');
  let to = digits.length;
  while (to > digits.length - decimals && digits.charCodeAt(to - 1) === 48) to--;
  const whole = digits.slice(0, digits.length - decimals);
  return `${neg ? '-' : ''}${whole}${to > digits.length - decimals ? `.${digits.slice(digits.length - decimals, to)}` : ''}`;
}
