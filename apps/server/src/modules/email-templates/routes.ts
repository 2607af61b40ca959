import { emailTemplateEndpoints as ep } from '@pitboss/contract';
import { ok } from '../../http/envelope.js';
import type { AppContext } from '../../context.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { loadTemplate, renderPreview } from './service.js';

/** The preview of a template being edited: its subject and body (unsaved, or as saved) with sample values. */
export function emailTemplateRoutes(app: App, ctx: AppContext): void {
  route(app, ep.templatePreview, async (req) => {
    const row = await loadTemplate(ctx.db, Number(req.params.id));
    const preview = renderPreview(row, { subject: req.body.subject ?? row.subject, html: req.body.html ?? row.html }, req.body.vars ?? {});
    return ok(preview);
  });
}
