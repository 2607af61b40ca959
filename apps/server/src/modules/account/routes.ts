import { accountEndpoints as ep, countOf } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { admins } from '../../db/schema.js';
import { done, ok } from '../../http/envelope.js';
import { badRequest, conflict, uniqueViolation } from '../../http/errors.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { writeAudit } from '../../lib/audit.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { assertAcceptablePassword } from '../auth/service.js';
import { revokeAdminSessions, toAdminDetail } from '../auth/sessions.js';
import { isTwoFactorEnabled, twoFactorSetupRequired } from '../two-factor/service.js';

/** Own-account changes are filed under the admin's record, so its History shows them. */
const adminResource = (a: { role: string }) => (a.role === 'superadmin' ? 'admins' : 'sub-admins');

/** The signed-in admin's own account: open to any logged-in admin. */
export function accountRoutes(app: App, ctx: AppContext): void {
  route(app, ep.adminDetail, async (req) => {
    const { _id, name, email, role, restriction } = toAdminDetail(req.admin!);
    const [twoFactorEnabled, twoFactorSetupRequiredNow] = [await isTwoFactorEnabled(ctx.db, req.admin!.id), await twoFactorSetupRequired(ctx.db, req.admin!.id)];
    return ok({ _id, name, email, role, restriction, twoFactorEnabled, twoFactorSetupRequired: twoFactorSetupRequiredNow });
  });

  route(app, ep.profile, async (req) => ok(toAdminDetail(req.admin!)));

  route(app, ep.updateProfile, async (req) => {
    const before = req.admin!;
    const emailChanged = req.body.email !== before.email.toLowerCase();
    if (emailChanged && !(req.body.currentPassword && (await verifyPassword(before.passwordHash, req.body.currentPassword)))) {
      const why = req.body.currentPassword ? 'The current password is wrong' : 'Enter your current password to change your email';
      throw badRequest(why, { currentPassword: why });
    }
    try {
      const updated = await ctx.db.transaction(async (tx) => {
        const [row] = await tx.update(admins).set({ name: req.body.name, email: req.body.email, updatedAt: new Date() }).where(eq(admins.id, before.id)).returning();
        if (emailChanged) {
          await ctx.mailer.enqueueTemplate(tx, { key: 'email_changed', to: before.email, vars: { name: before.name, oldEmail: before.email, newEmail: req.body.email } });
        }
        await writeAudit(tx, req.actor(), {
          action: 'profile_update', resource: adminResource(before), recordId: before.id,
          before: { name: before.name, email: before.email }, after: { name: row!.name, email: row!.email },
        });
        return row!;
      });
      if (emailChanged) ctx.background(() => ctx.mailer.deliverPending());
      return ok(toAdminDetail(updated), 'Profile updated');
    } catch (err) {
      if (uniqueViolation(err)) throw conflict('This email is already used by another admin', { email: 'This email is already used by another admin' });
      throw err;
    }
  });

  route(app, ep.changePassword, async (req) => {
    const admin = req.admin!;
    if (!(await verifyPassword(admin.passwordHash, req.body.currentPassword))) {
      throw badRequest('The current password is wrong', { currentPassword: 'The current password is wrong' });
    }
    assertAcceptablePassword(req.body.newPassword, 'newPassword', [admin.name, admin.email]);
    const passwordHash = await hashPassword(req.body.newPassword);
    const ended = await ctx.db.transaction(async (tx) => {
      await tx.update(admins).set({ passwordHash, passwordChangedAt: new Date(), updatedAt: new Date() }).where(eq(admins.id, admin.id));
      const n = await revokeAdminSessions(tx, admin.id, 'password changed', req.session!.id);
      await writeAudit(tx, req.actor(), { action: 'password_change', resource: adminResource(admin), recordId: admin.id, after: { otherSessionsEnded: n } });
      return n;
    });
    return done(ended > 0 ? `Password changed; ${countOf(ended, 'other session')} ended` : 'Password changed');
  }, {
    // Guessing the current password through a stolen session: 10 tries per 15 minutes per admin.
    config: { rateLimit: { max: 10, timeWindow: 15 * 60_000, keyGenerator: (req) => `admin:${req.admin?.id ?? req.ip}` } },
  });
}
