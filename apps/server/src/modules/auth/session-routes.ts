import { sessionEndpoints as ep } from '@pitboss/contract';
import type { AppContext } from '../../context.js';
import { done, ok } from '../../http/envelope.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { endMyOtherSessions, endMySession, endSubAdminSession, listMySessions, listSubAdminSessions } from './session-admin.js';

/** Sessions: my own (any signed-in admin), and a sub-admin's (from their record page). */
export function sessionRoutes(app: App, ctx: AppContext): void {
  route(app, ep.mySessions, async (req) => ok({ items: await listMySessions(ctx.db, ctx.config, req.actor(), req.session!.id) }));

  route(app, ep.endMySession, async (req) => {
    await ctx.db.transaction((tx) => endMySession(tx, req.actor(), req.params.sessionId, req.session!.id));
    return done('Session ended: it is signed out at its next request');
  });

  route(app, ep.endMyOtherSessions, async (req) => {
    const ended = await ctx.db.transaction((tx) => endMyOtherSessions(tx, req.actor(), req.session!.id));
    return ok({ ended }, ended === 0 ? 'No other session was open' : ended === 1 ? '1 other session ended' : `${ended} other sessions ended`);
  });

  route(app, ep.adminSessions, async (req) => ok({ items: await listSubAdminSessions(ctx.db, ctx.config, req.actor(), req.params.id) }));

  route(app, ep.endAdminSession, async (req) => {
    await ctx.db.transaction((tx) => endSubAdminSession(tx, req.actor(), req.params.id, req.params.sessionId));
    return done('Session ended: they are signed out at their next request');
  });
}
