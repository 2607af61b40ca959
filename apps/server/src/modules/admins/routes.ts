import { idParam, setAdminPasswordBody } from '@pitboss/contract';
import type { AppContext } from '../../context.js';
import { read, write } from '../../http/access.js';
import { done, ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { writeAudit } from '../../lib/audit.js';
import { hashPassword } from '../../lib/passwords.js';
import { admins, permissionModules, permissionSubModules } from '../../db/schema.js';
import { and, asc, eq } from 'drizzle-orm';
import { assertAcceptablePassword } from '../auth/service.js';
import { revokeAdminSessions } from '../auth/sessions.js';
import { assertCanManage, loadSubAdmin } from './service.js';

/** Sub-admin actions beyond the declared resource: the permission catalogue, set a password, end sessions. */
export function adminRoutes(app: App, ctx: AppContext): void {
  // What the rights matrix is drawn from: active sub modules grouped by active module, in catalogue order.
  // Readable with "Sub Admin" alone, so editing admins needs no right on the catalogue pages themselves.
  app.get('/api/admin/permission-catalogue', { config: { access: read('Sub Admin') } }, async () => {
    const rows = await ctx.db
      .select({ module: permissionModules.name, name: permissionSubModules.name })
      .from(permissionSubModules)
      .innerJoin(permissionModules, eq(permissionModules.id, permissionSubModules.moduleId))
      .where(and(eq(permissionSubModules.status, 'active'), eq(permissionModules.status, 'active')))
      .orderBy(asc(permissionModules.sortOrder), asc(permissionModules.id), asc(permissionSubModules.sortOrder), asc(permissionSubModules.id));
    const groups: { module: string; names: string[] }[] = [];
    for (const r of rows) {
      const last = groups[groups.length - 1];
      if (last && last.module === r.module) last.names.push(r.name);
      else groups.push({ module: r.module, names: [r.name] });
    }
    return ok({ groups });
  });

  app.post('/api/admin/sub-admins/:id/password', { config: { access: write('Sub Admin') }, schema: { params: idParam, body: setAdminPasswordBody } }, async (req) => {
    const target = await loadSubAdmin(ctx.db, Number(req.params.id));
    await assertCanManage(ctx.db, req.admin!, target);
    assertAcceptablePassword(req.body.password, 'password', [target.name, target.email]);
    const passwordHash = await hashPassword(req.body.password);
    await ctx.db.transaction(async (tx) => {
      // Read again inside the transaction: the account may have changed while the hash was computed.
      const target = await loadSubAdmin(tx, Number(req.params.id));
      await assertCanManage(tx, req.admin!, target);
      await tx.update(admins).set({ passwordHash, passwordChangedAt: new Date(), updatedAt: new Date() }).where(eq(admins.id, target.id));
      const n = await revokeAdminSessions(tx, target.id, 'password set by admin');
      await writeAudit(tx, req.actor(), { action: 'password_set', resource: 'sub-admins', recordId: target.id, after: { sessionsEnded: n } });
    });
    return done('Password set; the sub-admin must sign in again');
  });

  app.post('/api/admin/sub-admins/:id/end-sessions', { config: { access: write('Sub Admin') }, schema: { params: idParam } }, async (req) => {
    const n = await ctx.db.transaction(async (tx) => {
      const target = await loadSubAdmin(tx, Number(req.params.id));
      await assertCanManage(tx, req.admin!, target);
      const ended = await revokeAdminSessions(tx, target.id, 'ended by admin');
      await writeAudit(tx, req.actor(), { action: 'end_sessions', resource: 'sub-admins', recordId: target.id, after: { sessionsEnded: ended } });
      return ended;
    });
    return done(`${n} session(s) ended`);
  });
}
