import { checkAuthTokenBody, forgotPasswordBody, loginBody, resetPasswordBody } from '@pitboss/contract';
import type { AppContext } from '../../context.js';
import { PUBLIC, ACCOUNT } from '../../http/access.js';
import { done, ok } from '../../http/envelope.js';
import type { App } from '../../http/types.js';
import { checkResetToken, FORGOT_MESSAGE, login, requestPasswordReset, resetPassword } from './service.js';
import { revokeSession } from './sessions.js';

/** At most `max` calls a minute from one address. */
const PER_IP = (max: number) => ({ max, timeWindow: 60_000 });

export function authRoutes(app: App, ctx: AppContext): void {
  const client = (req: { ip: string; headers: Record<string, unknown> }) => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

  app.post('/api/admin/login', { config: { access: PUBLIC }, schema: { body: loginBody } }, async (req) => {
    return ok(await login(ctx, req.body, client(req)), 'Logged in successfully');
  });

  app.post('/api/admin/logout', { config: { access: ACCOUNT } }, async (req) => {
    await revokeSession(ctx.db, req.session!.id, 'logout');
    return done('Logged out');
  });

  app.post('/api/admin/forgotPassword', { config: { access: PUBLIC, rateLimit: PER_IP(10) }, schema: { body: forgotPasswordBody } }, async (req) => {
    // Same answer, at once, whether the email is known or not: the lookup and the mail happen afterwards.
    const info = client(req);
    ctx.background(() => requestPasswordReset(ctx, req.body.email, info));
    return done(FORGOT_MESSAGE);
  });

  app.post('/api/admin/checkauthtoken', { config: { access: PUBLIC, rateLimit: PER_IP(30) }, schema: { body: checkAuthTokenBody } }, async (req, reply) => {
    reply.header('referrer-policy', 'no-referrer');
    await checkResetToken(ctx, req.body.token);
    return done('The link is valid');
  });

  app.post('/api/admin/resetPassword', { config: { access: PUBLIC, rateLimit: PER_IP(10) }, schema: { body: resetPasswordBody } }, async (req) => {
    await resetPassword(ctx, req.body, client(req));
    return done('Your password has been reset. Sign in with the new password.');
  });

  app.get('/api/health', { config: { access: PUBLIC } }, async () => ok({ status: 'ok', driver: ctx.config.databaseUrl ? 'postgres' : 'pglite' }));
}
