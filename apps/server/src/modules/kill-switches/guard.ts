import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { conflict } from '../../http/errors.js';
import { killSwitches } from './table.js';

/*
 * While a kill switch is engaged, what it stopped stays stopped (docs/markets.md, "Kill switch"): no
 * market opens or resumes while one halting markets is engaged, and no bot starts while one stopping
 * bots is. Its release (which marks it released first) brings back what it took.
 */

/** The oldest engaged kill switch that halts markets (or stops bots), if any. */
async function engaged(tx: DbOrTx, what: 'markets' | 'bots'): Promise<number | null> {
  const conditions = [eq(killSwitches.status, 'engaged'), what === 'markets' ? eq(killSwitches.haltMarkets, true) : eq(killSwitches.stopBots, true)];
  const [row] = await tx.select({ id: killSwitches.id }).from(killSwitches).where(and(...conditions)).orderBy(asc(killSwitches.id)).limit(1);
  return row?.id ?? null;
}

/** Refuses (409) to open or resume a market while a kill switch halting markets is engaged. */
export async function assertMarketsNotKilled(tx: DbOrTx, verb: 'open' | 'resume'): Promise<void> {
  const id = await engaged(tx, 'markets');
  if (id !== null) throw conflict(`Kill switch #${id} is engaged: no market may ${verb} until it is released (Markets & Trading › Kill switch)`);
}

/** Refuses (409) to start a trade bot while a kill switch stopping bots is engaged. */
export async function assertBotsNotKilled(tx: DbOrTx): Promise<void> {
  const id = await engaged(tx, 'bots');
  if (id !== null) throw conflict(`Kill switch #${id} is engaged: no trade bot may start until it is released (Markets & Trading › Kill switch)`);
}
