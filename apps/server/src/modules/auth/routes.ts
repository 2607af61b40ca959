import { authEndpoints as ep } from '@pitboss/contract';
import type { AppContext } from '../../context.js';
import { done, ok } from '../../http/envelope.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { checkResetToken, FORGOT_MESSAGE, login, requestPasswordReset, resetPassword } from './service.js';
import { revokeSession } from './sessions.js';

/** At most `max` calls a minute from one address. */
const PER_IP = (max: number) => ({ max, timeWindow: 60_000 });

export function authRoutes(app: App, ctx: AppContext): void {
  const client = (req: { ip: string; headers: Record<string, unknown> }) => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

  route(app, ep.login, async (req) => {
    const result = await login(ctx, req.body, client(req));
    return ok(result, 'twoFactorRequired' in result ? 'Enter the code from your authenticator app' : 'Logged in successfully');
  });

  route(app, ep.logout, async (req) => {
    await revokeSession(ctx.db, req.session!.id, 'logout');
    return done('Logged out');
  });

  route(app, ep.forgotPassword, async (req) => {
    // Same answer, at once, whether the email is known or not: the lookup and the mail happen afterwards.
    const info = client(req);
    ctx.background(() => requestPasswordReset(ctx, req.body.email, info));
    return done(FORGOT_MESSAGE);
  }, { config: { rateLimit: PER_IP(10) } });

  route(app, ep.checkAuthToken, async (req, reply) => {
    reply.header('referrer-policy', 'no-referrer');
    await checkResetToken(ctx, req.body.token);
    return done('The link is valid');
  }, { config: { rateLimit: PER_IP(30) } });

  route(app, ep.resetPassword, async (req) => {
    await resetPassword(ctx, req.body, client(req));
    return done('Your password has been reset. Sign in with the new password.');
  }, { config: { rateLimit: PER_IP(10) } });

  route(app, ep.health, async () => ok({ status: 'ok' as const, driver: ctx.config.databaseUrl ? ('postgres' as const) : ('pglite' as const) }));
}
