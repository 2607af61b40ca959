import { sql } from 'drizzle-orm';
import { systemActor } from '../../context.js';
import { queryRows, type Db } from '../../db/client.js';
import { expireMarketOrders, marketsWithExpiredOrders } from './service.js';
import { ADVISORY_LOCKS } from '../../lib/locks.js';

/** Transaction advisory lock of one expiry sweep: one instance sweeps at a time, the others skip that tick. */
export const ORDER_EXPIRY_LOCK = ADVISORY_LOCKS.orderExpiry;
const ACTOR = systemActor('order-expiry');

/**
 * Expires every live GTD order whose time has come, market by market (each market's book clock
 * advances to `now`: holds and reserved shares are released in the same transaction). Returns the
 * number of orders expired, or null when another instance is sweeping.
 */
export async function sweepExpiredOrders(db: Db, now = new Date()): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [lock] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${ORDER_EXPIRY_LOCK}) as ok`);
    if (!lock?.ok) return null;
    let n = 0;
    for (const marketId of await marketsWithExpiredOrders(tx, now)) n += await expireMarketOrders(tx, ACTOR, marketId, now.getTime());
    return n;
  });
}

