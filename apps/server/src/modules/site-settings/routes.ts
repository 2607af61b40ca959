import { updateSiteSettingsBody, getSiteSettingQuery } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { ACCOUNT, write } from '../../http/access.js';
import { ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { writeAudit } from '../../lib/audit.js';
import { loadSiteSettings, toRecord } from './service.js';
import { siteSettings } from './table.js';

export function siteSettingsRoutes(app: App, ctx: AppContext): void {
  // Any signed-in admin reads the settings (the header shows the site name); changing them needs the right.
  app.get('/api/admin/getSiteSetting', { config: { access: ACCOUNT }, schema: { querystring: getSiteSettingQuery } }, async (req) => {
    const record = toRecord(await loadSiteSettings(ctx.db));
    if (!req.query.fields) return { success: true, message: 'OK', result: record };
    const wanted = new Set(req.query.fields.split(',').filter(Boolean));
    const picked = Object.fromEntries(Object.entries(record).filter(([k]) => k === '_id' || wanted.has(k)));
    return { success: true, message: 'OK', result: picked };
  });

  app.post('/api/admin/updateSiteDetails', { config: { access: write('Site Setting') }, schema: { body: updateSiteSettingsBody } }, async (req) => {
    const patch = req.body as Record<string, unknown>;
    const updated = await ctx.db.transaction(async (tx) => {
      const before = await loadSiteSettings(tx);
      const set: Partial<typeof siteSettings.$inferInsert> = { updatedAt: new Date(), updatedBy: req.admin!.id };
      for (const [k, v] of Object.entries(patch)) {
        if (v === undefined) continue;
        if (k === 'withdrawalAutoApproveLimit') set.withdrawalAutoApproveLimit = BigInt(v as string);
        // Social links merge: naming one link leaves the others as they are.
        else if (k === 'socialLinks') set.socialLinks = { ...(before.socialLinks ?? {}), ...(v as Record<string, string>) };
        else (set as Record<string, unknown>)[k] = v;
      }
      const [row] = await tx.update(siteSettings).set(set).where(eq(siteSettings.id, 1)).returning();
      await writeAudit(tx, req.actor(), { action: 'update', resource: 'site_settings', recordId: 1, before: toRecord(before), after: toRecord(row!) });
      return row!;
    });
    return ok(toRecord(updated), 'Site settings updated');
  });
}
