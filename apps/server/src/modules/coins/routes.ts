import { coinEndpoints as ep } from '@pitboss/contract';
import { asc } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { ok } from '../../http/envelope.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { coins } from './table.js';

/** How every coin's amounts read (symbol, decimals, decimals shown), for any signed-in admin's tables. */
export function coinRoutes(app: App, ctx: AppContext): void {
  route(app, ep.coinUnits, async () => {
    const items = await ctx.db.select({ symbol: coins.symbol, decimals: coins.decimals, displayDecimals: coins.displayDecimals }).from(coins).orderBy(asc(coins.symbol));
    return ok({ items });
  });
}
