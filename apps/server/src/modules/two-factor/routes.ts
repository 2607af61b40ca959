import { twoFactorEndpoints as ep } from '@pitboss/contract';
import type { AppContext } from '../../context.js';
import { done, ok } from '../../http/envelope.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { disable, enable, loginTwoFactor, regenerateCodes, startSetup, twoFactorStatus } from './service.js';

/** Password (or code) guessing through a stolen session: at most 10 tries per 15 minutes per admin. */
const PER_ADMIN = { rateLimit: { max: 10, timeWindow: 15 * 60_000, keyGenerator: (req: { admin?: { id: number } | null; ip: string }) => `2fa:${req.admin?.id ?? req.ip}` } };

/** TOTP two-factor authentication: the own account's enrolment and the second sign-in step. */
export function twoFactorRoutes(app: App, ctx: AppContext): void {
  const client = (req: { ip: string; headers: Record<string, unknown> }) => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

  route(app, ep.loginTwoFactor, async (req) => ok(await loginTwoFactor(ctx, req.body, client(req)), 'Logged in successfully'), {
    config: { rateLimit: { max: 30, timeWindow: 60_000 } },
  });

  route(app, ep.status, async (req) => ok(await twoFactorStatus(ctx.db, req.admin!.id)));

  route(app, ep.setup, async (req) => ok(await startSetup(ctx, req.actor(), req.body.password), 'Scan the QR code, then enter the code your app shows'), { config: PER_ADMIN });

  route(app, ep.enable, async (req) => ok({ recoveryCodes: await enable(ctx, req.actor(), req.session!.id, req.body.code) }, 'Two-factor authentication is on'));

  route(app, ep.disable, async (req) => {
    await disable(ctx, req.actor(), req.session!.id, req.body);
    return done('Two-factor authentication is off');
  }, { config: PER_ADMIN });

  route(app, ep.regenerateCodes, async (req) => ok({ recoveryCodes: await regenerateCodes(ctx, req.actor(), req.body) }, 'New recovery codes made; the old ones no longer work'), {
    config: PER_ADMIN,
  });
}
