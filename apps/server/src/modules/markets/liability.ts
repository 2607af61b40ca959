import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { unitsText } from '../ledger/format.js';
import { SETTLEMENT_COIN } from '../orders/service.js';

/**
 * A market's liability (docs/markets.md, "Liability"), in the settlement coin's minor units: the
 * collateral its open interest holds (each YES/NO pair is backed by one coin), what its resting buys
 * hold, what settling YES or NO pays the holders of that outcome, and what the house accounts (the
 * platform's own, trade bots' users) gain or lose in each case (their shares' payout less their cost).
 */
export interface MarketLiability {
  buyHolds: bigint;
  yesShares: bigint;
  noShares: bigint;
  houseYes: bigint;
  houseNo: bigint;
  houseCost: bigint;
  /** Minor units of one share's payout, and the coin. */
  share: bigint;
  decimals: number;
  symbol: string;
}

const idList = (ids: number[]) => sql.join(ids.map((id) => sql`${id}`), sql`, `);

/** The liability of a page (or export batch) of markets at once: two grouped reads over the open positions and live orders. */
export async function liabilityOf(db: DbOrTx, ids: number[]): Promise<Map<number, MarketLiability>> {
  const out = new Map<number, MarketLiability>();
  if (ids.length === 0) return out;
  const [coin] = await queryRows<{ decimals: number; symbol: string }>(db, sql`select decimals, symbol from coins where symbol = ${SETTLEMENT_COIN}`);
  if (!coin) return out;
  const held = await queryRows<{ market_id: string; held: string }>(
    db,
    sql`select market_id::text, sum(held)::text as held from orders
        where market_id in (${idList(ids)}) and status in ('open', 'partially_filled') and held > 0 group by market_id`,
  );
  const pos = await queryRows<{ market_id: string; yes: string; no: string; house_yes: string; house_no: string; house_cost: string }>(
    db,
    sql`select p.market_id::text,
          coalesce(sum(p.quantity) filter (where p.outcome = 'YES'), 0)::text as yes,
          coalesce(sum(p.quantity) filter (where p.outcome = 'NO'), 0)::text as no,
          coalesce(sum(p.quantity) filter (where u.house and p.outcome = 'YES'), 0)::text as house_yes,
          coalesce(sum(p.quantity) filter (where u.house and p.outcome = 'NO'), 0)::text as house_no,
          coalesce(sum(p.cost) filter (where u.house), 0)::text as house_cost
        from positions p join users u on u.id = p.user_id
        where p.market_id in (${idList(ids)}) and p.status = 'open' group by p.market_id`,
  );
  const decimals = Number(coin.decimals);
  const share = 10n ** BigInt(decimals);
  const base = (): MarketLiability => ({ buyHolds: 0n, yesShares: 0n, noShares: 0n, houseYes: 0n, houseNo: 0n, houseCost: 0n, share, decimals, symbol: coin.symbol });
  for (const id of ids) out.set(id, base());
  for (const r of held) out.get(Number(r.market_id))!.buyHolds = BigInt(r.held);
  for (const r of pos) {
    Object.assign(out.get(Number(r.market_id))!, { yesShares: BigInt(r.yes), noShares: BigInt(r.no), houseYes: BigInt(r.house_yes), houseNo: BigInt(r.house_no), houseCost: BigInt(r.house_cost) });
  }
  return out;
}

/** The record's liability fields (text in the coin) of a market with `openInterest` pairs outstanding. */
export function liabilityFields(l: MarketLiability | undefined, openInterest: number) {
  const text = (v: bigint) => (l ? unitsText(v, l.decimals, l.symbol)! : '');
  const s = l?.share ?? 0n;
  return {
    collateralText: text(BigInt(openInterest) * s),
    buyHoldsText: text(l?.buyHolds ?? 0n),
    payoutIfYesText: text((l?.yesShares ?? 0n) * s),
    payoutIfNoText: text((l?.noShares ?? 0n) * s),
    houseIfYesText: text((l?.houseYes ?? 0n) * s - (l?.houseCost ?? 0n)),
    houseIfNoText: text((l?.houseNo ?? 0n) * s - (l?.houseCost ?? 0n)),
  };
}
