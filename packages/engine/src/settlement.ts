import type { PositionBook } from './positions.js';

export type Resolution = 'YES' | 'NO' | 'VOID';

export interface Payout {
  owner: number;
  /** Cents paid to the owner by the settlement (negative only for VOID claw-backs, see `settle`). */
  amount: number;
  /** Owner's total P&L in this market after settlement: amount + received − paid (cents, fees excluded). */
  pnl: number;
}

export interface Settlement {
  resolution: Resolution;
  /** One entry per owner that ever traded, ascending by owner. */
  payouts: Payout[];
  /** Sum of payouts (cents). Always equals `collateral`. */
  total: number;
  /** Collateral locked in the market (cents) = 100 × pairs outstanding. */
  collateral: number;
}

/**
 * Settle a resolved market from its positions.
 *
 * - YES: each YES share pays 100 cents, NO shares pay nothing.
 * - NO: each NO share pays 100 cents.
 * - VOID: every owner gets back the net cash they put in (paid for buys − received
 *   from sales), i.e. all trades are unwound and every P&L is 0. This refunds the
 *   cost of what they hold; an owner who realised a profit before the void gets
 *   that profit deducted (a negative amount if it exceeds their holdings' cost).
 *
 * In every case the payouts sum exactly to the collateral: each pair outstanding
 * is one YES share and one NO share (YES/NO), and the net cash of all owners is
 * the 100 cents per pair paid in by mints minus the 100 per pair paid out by merges (VOID).
 * Throws if that ever fails to hold (it cannot, for fills from the engine).
 */
export function settle(positions: PositionBook, resolution: Resolution): Settlement {
  if (resolution !== 'YES' && resolution !== 'NO' && resolution !== 'VOID') throw new RangeError(`bad resolution ${String(resolution)}`);
  const payouts: Payout[] = [];
  let total = 0;
  for (const owner of positions.owners()) {
    const { paid, received } = positions.cashFlow(owner);
    const amount = resolution === 'VOID' ? paid - received : 100 * positions.position(owner, resolution).qty;
    total += amount;
    payouts.push({ owner, amount, pnl: amount + received - paid });
  }
  const collateral = positions.collateral;
  if (total !== collateral) throw new Error(`settlement does not balance: payouts ${total} != collateral ${collateral}`);
  return { resolution, payouts, total, collateral };
}
