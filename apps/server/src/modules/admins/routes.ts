import { createSubAdminBody, updateSubAdminBody, setAdminPasswordBody } from '@pitboss/contract';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { read, write } from '../../http/access.js';
import { done, ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { writeAudit } from '../../lib/audit.js';
import { hashPassword } from '../../lib/passwords.js';
import { admins } from '../../db/schema.js';
import { eq } from 'drizzle-orm';
import { assertAcceptablePassword } from '../auth/service.js';
import { revokeAdminSessions } from '../auth/sessions.js';
import { assertCanGrant, createSubAdmin, liveSessionCount, loadSubAdmin, toSubAdminRecord, updateSubAdmin } from './service.js';

const idParams = z.object({ id: z.coerce.number().int().positive('Invalid id') });

export function adminRoutes(app: App, ctx: AppContext): void {
  const actorOf = (req: { actor(): ReturnType<import('fastify').FastifyRequest['actor']>; admin: import('../auth/sessions.js').AdminRow | null }) => ({
    ...req.actor(),
    admin: req.admin!,
  });

  app.post('/api/admin/sub-admins', { config: { access: write('Sub Admin') }, schema: { body: createSubAdminBody } }, async (req) => {
    const created = await ctx.db.transaction((tx) => createSubAdmin(tx, actorOf(req), req.body));
    return ok(created, 'Sub-admin created');
  });

  app.get('/api/admin/sub-admins/:id', { config: { access: read('Sub Admin') }, schema: { params: idParams } }, async (req) => {
    const row = await loadSubAdmin(ctx.db, req.params.id);
    return ok(toSubAdminRecord(row, await liveSessionCount(ctx.db, row.id)));
  });

  app.patch('/api/admin/sub-admins/:id', { config: { access: write('Sub Admin') }, schema: { params: idParams, body: updateSubAdminBody } }, async (req) => {
    const updated = await ctx.db.transaction((tx) => updateSubAdmin(tx, actorOf(req), req.params.id, req.body));
    return ok(updated, 'Sub-admin updated');
  });

  app.post('/api/admin/sub-admins/:id/password', { config: { access: write('Sub Admin') }, schema: { params: idParams, body: setAdminPasswordBody } }, async (req) => {
    assertAcceptablePassword(req.body.password, 'password');
    const passwordHash = await hashPassword(req.body.password);
    await ctx.db.transaction(async (tx) => {
      const target = await loadSubAdmin(tx, req.params.id);
      assertCanGrant(req.admin!, target.restriction);
      await tx.update(admins).set({ passwordHash, passwordChangedAt: new Date(), updatedAt: new Date() }).where(eq(admins.id, target.id));
      const n = await revokeAdminSessions(tx, target.id, 'password set by admin');
      await writeAudit(tx, req.actor(), { action: 'password_set', resource: 'sub-admins', recordId: target.id, after: { sessionsEnded: n } });
    });
    return done('Password set; the sub-admin must sign in again');
  });

  app.post('/api/admin/sub-admins/:id/end-sessions', { config: { access: write('Sub Admin') }, schema: { params: idParams } }, async (req) => {
    const n = await ctx.db.transaction(async (tx) => {
      const target = await loadSubAdmin(tx, req.params.id);
      assertCanGrant(req.admin!, target.restriction);
      const ended = await revokeAdminSessions(tx, target.id, 'ended by admin');
      await writeAudit(tx, req.actor(), { action: 'end_sessions', resource: 'sub-admins', recordId: target.id, after: { sessionsEnded: ended } });
      return ended;
    });
    return done(`${n} session(s) ended`);
  });
}
