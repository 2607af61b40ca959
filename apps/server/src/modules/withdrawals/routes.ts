import { withdrawalEndpoints as ep } from '@pitboss/contract';
import type { AppContext } from '../../context.js';
import { ok } from '../../http/envelope.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { withdrawalRisk } from './risk.js';

/** A withdrawal's risk context, beside its declared list and actions (Withdraw view). */
export function withdrawalRoutes(app: App, ctx: AppContext): void {
  route(app, ep.withdrawalRisk, async (req) => ok(await withdrawalRisk(ctx.db, Number(req.params.id))));
}
