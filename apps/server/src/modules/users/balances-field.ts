// The users export's balances cell, finished in Node (see `sqlExport` in resource.ts). Its own module,
// with no imports: the export's worker thread loads it (resources/rewrite-off-thread.ts).

/**
 * The balances field of the CSV from one user's accounts as the export's SQL gives them
 * (`symbol,decimals,bucket,balance;…`), as the record path writes the record's list
 * (`csvField(toCell(list))`: each item `JSON.stringify` of `{ coin, decimals, available, held }`,
 * joined by "; ", quoted with quotes doubled), written directly: a symbol is [A-Z0-9] (the coins'
 * CHECK), decimals a number, balances digits, so nothing in them needs escaping.
 */
export function balancesField(text: string): string {
  return fieldOfAccounts(text, ';', (symbol, decimals) => [symbol, decimals]);
}

/**
 * The same field from one user's accounts read raw (PGlite's export: `sideReads` in resource.ts),
 * as COPY writes them: `user_id,coin_id,bucket,balance` lines, each ending in LF; `coins` maps a
 * coin's id to its symbol and decimals.
 */
export function balancesFromAccounts(lines: string, coins: Record<string, readonly [symbol: string, decimals: string]>): string {
  return fieldOfAccounts(lines, '\n', (_user, coinId) => {
    const coin = coins[coinId];
    if (!coin) throw new Error(`balancesFromAccounts: no coin ${coinId}`);
    return coin;
  });
}

/**
 * The field from accounts of four fields (`a,b,bucket,balance`, separated by `sep`), each account's
 * coin given by `coinOf(a, b)` as its symbol and decimals. Read in place (no split, no objects
 * beyond the coin): it runs for every exported user. Per coin, in the order first seen: its symbol,
 * decimals, available and held.
 */
function fieldOfAccounts(text: string, sep: string, coinOf: (a: string, b: string) => readonly [string, string]): string {
  if (!text) return '';
  const coins: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c1 = text.indexOf(',', i);
    const c2 = text.indexOf(',', c1 + 1);
    const c3 = text.indexOf(',', c2 + 1);
    let end = text.indexOf(sep, c3 + 1);
    if (end < 0) end = text.length;
    const [symbol, decimals] = coinOf(text.slice(i, c1), text.slice(c1 + 1, c2));
    let k = 0;
    while (k < coins.length && coins[k] !== symbol) k += 4;
    if (k === coins.length) coins.push(symbol, decimals, '0', '0');
    coins[text.startsWith('available,', c2 + 1) ? k + 2 : k + 3] = text.slice(c3 + 1, end);
    i = end + 1;
  }
  return fieldOf(coins);
}

/** The field from the coins as `symbol, decimals, available, held` runs, in the order first seen. */
function fieldOf(coins: string[]): string {
  // By symbol (as bySymbol): an insertion sort of the few coins, by code unit as `<` compares.
  const order: number[] = [];
  for (let k = 0; k < coins.length; k += 4) {
    let j = order.length;
    while (j > 0 && coins[order[j - 1]!]! > coins[k]!) j--;
    order.splice(j, 0, k);
  }
  let out = '"';
  for (const k of order) {
    out += `${out.length > 1 ? '; ' : ''}{""coin"":""${coins[k]}"",""decimals"":${coins[k + 1]},""available"":""${coins[k + 2]}"",""held"":""${coins[k + 3]}""}`;
  }
  return `${out}"`;
}
