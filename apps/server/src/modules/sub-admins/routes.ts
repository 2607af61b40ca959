import type { AppContext } from '../../context.js';
import { subAdminEndpoints, type PermissionCatalogue } from '@pitboss/contract';
import { ok } from '../../http/envelope.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { permissionModules, permissionSubModules } from '../../db/schema.js';
import { and, asc, eq } from 'drizzle-orm';

/** The sub-admin module's one endpoint beyond the declared resource (its actions are declared). */
export function adminRoutes(app: App, ctx: AppContext): void {
  // What the rights matrix is drawn from: active sub modules grouped by active module, in catalogue order.
  // Readable with "Sub Admin" alone, so editing admins needs no right on the catalogue pages themselves.
  route(app, subAdminEndpoints.permissionCatalogue, async () => {
    const rows = await ctx.db
      .select({ module: permissionModules.name, name: permissionSubModules.name })
      .from(permissionSubModules)
      .innerJoin(permissionModules, eq(permissionModules.id, permissionSubModules.moduleId))
      .where(and(eq(permissionSubModules.status, 'active'), eq(permissionModules.status, 'active')))
      .orderBy(asc(permissionModules.sortOrder), asc(permissionModules.id), asc(permissionSubModules.sortOrder), asc(permissionSubModules.id));
    const groups: PermissionCatalogue['groups'] = [];
    for (const r of rows) {
      const last = groups[groups.length - 1];
      if (last && last.module === r.module) last.names.push(r.name);
      else groups.push({ module: r.module, names: [r.name] });
    }
    return ok({ groups });
  });
}
