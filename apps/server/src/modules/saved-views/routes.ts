import { savedViewEndpoints as ep } from '@pitboss/contract';
import type { AppContext } from '../../context.js';
import { done, ok } from '../../http/envelope.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { createSavedView, deleteSavedView, listSavedViews, setDefault, updateSavedView } from './service.js';

/** Saved views of the lists: any signed-in admin, on the lists they may view (service.ts checks). */
export function savedViewRoutes(app: App, ctx: AppContext): void {
  route(app, ep.listSavedViews, async (req) => ok({ items: await listSavedViews(ctx.db, req.actor().admin, req.query.list) }));

  route(app, ep.createSavedView, async (req) => {
    const view = await ctx.db.transaction((tx) => createSavedView(tx, req.actor(), req.body));
    return ok(view, `View "${view.name}" saved`);
  });

  route(app, ep.updateSavedView, async (req) => {
    const view = await ctx.db.transaction((tx) => updateSavedView(tx, req.actor(), req.params.id, req.body));
    return ok(view, `View "${view.name}" updated`);
  });

  route(app, ep.deleteSavedView, async (req) => {
    await ctx.db.transaction((tx) => deleteSavedView(tx, req.actor(), req.params.id));
    return done('View deleted');
  });

  route(app, ep.setDefaultSavedView, async (req) => {
    const id = req.body.id === null ? null : Number(req.body.id);
    const defaultId = await ctx.db.transaction((tx) => setDefault(tx, req.actor(), req.body.list, id));
    return ok({ defaultId: defaultId === null ? null : String(defaultId) }, defaultId === null ? 'Default view cleared' : 'Default view set');
  });
}
