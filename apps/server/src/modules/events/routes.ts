import { accessFor, eventHistoryEndpoints, isSuperAdmin } from '@pitboss/contract';
import type { AppContext } from '../../context.js';
import { ok } from '../../http/envelope.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { eventHistory } from './history.js';

/** `/event-history/{id}`: the event's timeline and its markets' price history (restriction `Events`). */
export function eventHistoryRoutes(app: App, ctx: AppContext): void {
  route(app, eventHistoryEndpoints.history, async (req) => {
    const admin = req.admin!;
    // Who acted is the audit log's to tell: admins' addresses only to those who may read it.
    const showAdmins = isSuperAdmin(admin) || accessFor(admin, 'Audit Log').canView;
    return ok(await eventHistory(ctx.db, Number(req.params.id), { showAdmins }));
  });
}
