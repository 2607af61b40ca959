import { currencyDecimals, type CoinUnit } from '@pitboss/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { fetchApi } from '../lib/api';

/**
 * Every coin's decimals and the decimals tables show, by symbol (`GET /api/admin/coin-units`, open
 * to every admin): read once and kept, under the coins' query keys so saving a coin refreshes it.
 */
export function useCoinUnits(): ReadonlyMap<string, CoinUnit> | undefined {
  const query = useQuery({
    queryKey: ['resources', 'coins', 'units'],
    queryFn: async ({ signal }) => new Map((await fetchApi('GET /api/admin/coin-units', { signal })).items.map((c) => [c.symbol, c] as const)),
    staleTime: 5 * 60_000,
  });
  return query.data;
}

/**
 * The decimals a table shows of an amount in a symbol: the coin's display decimals; a fiat
 * currency's (a three-letter code no coin has) all of its own; undefined while the coins are not
 * read (the amount then shows as the API wrote it).
 */
export function useShownDecimals(): (symbol: string) => number | undefined {
  const units = useCoinUnits();
  return useCallback(
    (symbol: string) => {
      if (!units) return undefined;
      const coin = units.get(symbol);
      if (coin) return coin.displayDecimals;
      return /^[A-Z]{3}$/.test(symbol) ? currencyDecimals(symbol) : undefined;
    },
    [units],
  );
}
