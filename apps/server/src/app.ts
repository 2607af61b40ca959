import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { canUseApi, DEFAULT_ERROR_MESSAGE, ERROR_CODES, findUncleanText, isSuperAdmin, RIGHTS_HEADER, type ApiEnvelope } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import Fastify, { LogController, type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { adminActor, type AdminActor, type AppContext } from './context.js';
import { ASSET, type RegisteredRoute } from './http/access.js';
import { AppError, badRequest, forbidden, unauthenticated } from './http/errors.js';
import type { App } from './http/types.js';
import { writeAudit } from './lib/audit.js';
import { normaliseTimezone, setDatabaseTimezones } from './lib/timezone.js';
import { queryRows } from './db/client.js';
import { authenticateToken, rightsFingerprint, SessionAddressCache } from './modules/auth/sessions.js';
import { registerModules } from './modules/index.js';
import { BlockedIpGuard } from './modules/blocked-ips/guard.js';
import { assertPlatformKey } from './modules/platform/routes.js';
import { registerProbes } from './http/probes.js';
import { twoFactorRequiredError, twoFactorSetupRequired } from './modules/two-factor/service.js';
import { openGeoDb } from './lib/geoip.js';
import { postgresRateLimitStore } from './http/rate-limit-store.js';
import { registerMetrics } from './lib/metrics.js';

export interface BuiltApp {
  app: App;
  routes: RegisteredRoute[];
  /** Resolves when background work started so far has finished. */
  idle(): Promise<void>;
  /** From now on `/readyz` answers 503 (shutting down), so a load balancer stops sending requests. */
  drain(): void;
}

const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1]! : null;
}

/**
 * Whether a raw URL names the API however it is spelled (percent-encoded, any case, doubled
 * slashes, dot segments, `;` parameters): such a miss is a JSON 404, never the app's page.
 */
export function isApiPath(rawUrl: string): boolean {
  let p = rawUrl.split('?')[0] ?? '';
  for (let i = 0; i < 3; i++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(p);
    } catch {
      break;
    }
    if (decoded === p) break;
    p = decoded;
  }
  const segments: string[] = [];
  for (const raw of p.toLowerCase().replace(/\\/g, '/').split('/')) {
    const seg = raw.replace(/;.*$/, '');
    if (seg === '' || seg === '.') continue;
    if (seg === '..') segments.pop();
    else segments.push(seg);
  }
  return segments[0] === 'api';
}

export async function buildApp(ctx: Omit<AppContext, 'log' | 'blockedIps' | 'background'>, opts: { logger?: boolean | object; /** Extra routes (tests). */ extend?: (app: App, ctx: AppContext) => void } = {}): Promise<BuiltApp> {
  // The IP database opens now: a missing or broken GEOIP_CITY_DB stops the start, not a sign-in.
  openGeoDb(ctx.config.geoipCityDb);
  const app = Fastify({
    logger: opts.logger ?? { level: ctx.config.logLevel },
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    // One line per request only when asked for (LOG_LEVEL=debug): `npm start` output stays readable.
    logController: new LogController({ disableRequestLogging: !['debug', 'trace'].includes(ctx.config.logLevel) }),
    genReqId: () => crypto.randomUUID(),
    // A URL the router cannot even decode (`/api/%ZZ`) gets the envelope too.
    frameworkErrors: (err, _req, reply: FastifyReply) => {
      void reply.status(400).send({ success: false, message: `Bad request: ${err.message}`, code: ERROR_CODES.VALIDATION });
    },
  }).withTypeProvider() as unknown as App;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  setDatabaseTimezones((await queryRows<{ name: string }>(ctx.db, sql`select name from pg_timezone_names`)).map((r) => r.name));
  const pending = new Set<Promise<unknown>>();
  const background = (task: () => Promise<unknown>) => {
    const p = task()
      .catch((err) => app.log.error({ err }, 'background task failed'))
      .finally(() => pending.delete(p));
    pending.add(p);
  };
  const idle = async () => {
    while (pending.size) await Promise.all([...pending]);
  };
  app.addHook('onClose', idle);
  const fullCtx: AppContext = { ...ctx, log: app.log, blockedIps: new BlockedIpGuard(ctx.db), background };

  // Every route (API or not) must declare its access; the registry feeds the permission and fuzz tests.
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${String(route.method)} ${route.url} has no access declaration`);
    const schema = (route.schema ?? {}) as RegisteredRoute['schema'];
    for (const method of ([] as string[]).concat(route.method as string | string[])) {
      if (method === 'HEAD') continue;
      routes.push({ method, url: route.url, access, schema: { body: schema.body, querystring: schema.querystring, params: schema.params } });
    }
  });

  app.decorateRequest('timezone', 'UTC');
  app.decorateRequest('admin', null);
  app.decorateRequest('session', null);
  // The signed-in admin as the actor of a write (only routes that require a session call it).
  app.decorateRequest('actor', function (this: FastifyRequest): AdminActor {
    if (!this.admin) throw new Error('actor() on a request without a signed-in admin');
    return adminActor(this.admin, this.ip);
  });

  // Security headers, helmet's middleware built once (@fastify/helmet rebuilt it, parsing the CSP,
  // on every request: about 5% of a platform order's CPU in the server). A route may still set its own
  // header after it (uploads and ticket attachments send a sandboxing CSP).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes its CSS variables in a <style> element: inline styles, never inline script.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: { maxAge: 31536000, includeSubDomains: true },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (req, reply, done) => securityHeaders(req.raw, reply.raw, (err) => done(err as Error | undefined)));

  // Per-route request limits (sign-in mail and token endpoints, password checks), counted where every
  // instance sees them: in Redis when REDIS_URL is set, in PostgreSQL otherwise.
  if (ctx.config.redisUrl) {
    const redis = new Redis(ctx.config.redisUrl, { connectTimeout: 2_000, maxRetriesPerRequest: 1 });
    redis.on('error', (err) => app.log.warn({ err: err.message }, 'redis connection error'));
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
    await app.register(rateLimit, { global: false, hook: 'preHandler', redis, nameSpace: 'pitboss-rl:' });
  } else {
    await app.register(rateLimit, { global: false, hook: 'preHandler', store: postgresRateLimitStore(ctx.db, app.log) });
  }

  const sessionAddresses = new SessionAddressCache();
  // Request flow: timezone → blocked IP → authenticate → authorize; validation follows.
  // Everything is decided on the route the router matched (it matches the decoded path), never on
  // the raw URL: `/%61pi/admin/…` is the API route it decodes to, with its declaration.
  app.addHook('onRequest', async (req, reply) => {
    req.timezone = normaliseTimezone(req.headers.timezone);
    const access = req.routeOptions.config?.access;
    if (access?.kind !== 'asset' || isApiPath(req.url)) reply.header('cache-control', 'no-store');
    if (await fullCtx.blockedIps.isBlocked(req.ip)) throw new AppError(403, ERROR_CODES.BLOCKED_IP, 'Access from your address is blocked');
    // Nothing matched: the not-found handler answers 404 or the app's page, never data.
    if (req.is404) return;
    if (access?.kind === 'public' || access?.kind === 'asset') return;
    // The user-facing platform: its API key only, never an admin session (the services get `{ kind: 'platform', ip }`).
    if (access?.kind === 'platform') return assertPlatformKey(fullCtx.config.platformApiKey, bearer(req));
    const token = bearer(req);
    const auth = token ? await authenticateToken(fullCtx.db, fullCtx.config, token, { ip: req.ip, addresses: sessionAddresses }) : null;
    if (!auth) throw unauthenticated();
    req.admin = auth.admin;
    req.session = auth.session;
    // The rights this answer was decided with: a tab that loaded other ones re-reads them (a right
    // granted shows in the sidebar at the next call, without a reload).
    reply.header(RIGHTS_HEADER, rightsFingerprint(auth.admin));
    // Closed by default: a matched route without a declaration is the super admin's alone.
    if (!access) {
      if (!isSuperAdmin(auth.admin)) throw forbidden();
      return;
    }
    if (access.kind === 'account') return;
    // The site requires 2FA and this admin has none yet: only the own account (and enrolment) answers.
    if (await twoFactorSetupRequired(fullCtx.db, auth.admin.id)) throw twoFactorRequiredError();
    if (!canUseApi(auth.admin, access.restriction, access.access, access.right)) throw forbidden();
  });

  // One rule for every string a request carries (body, query, params; values and keys): no
  // control characters. PostgreSQL refuses NUL, and none of them belongs in admin input.
  app.addHook('preValidation', async (req) => {
    for (const [part, value] of [['body', req.body], ['query', req.query], ['params', req.params]] as const) {
      const path = findUncleanText(value);
      if (path !== null) {
        const field = path || part;
        throw badRequest(`Invalid input: ${field} contains control characters`, { [field]: 'Control characters are not allowed' });
      }
    }
  });

  app.setErrorHandler(async (err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      if (err.status === 403 && req.admin) {
        // Every refusal of a signed-in admin is audited: the route check and the services' own rules alike.
        const access = req.routeOptions.config?.access;
        // Same vocabulary as the changes: the API resource (`faqs`, `sub-admins`…); the right asked for goes in `after`.
        const resource = /^\/api\/admin\/([^/?]+)/.exec(req.routeOptions.url ?? req.url)?.[1] ?? 'unknown';
        await writeAudit(fullCtx.db, req.actor(), {
          action: 'denied',
          resource,
          after: { method: req.method, url: req.routeOptions.url ?? req.url, restriction: access?.kind === 'module' ? access.restriction : access?.kind, reason: err.message },
        }).catch((e) => req.log.error({ err: e }, 'audit of a denied request failed'));
      }
      if (err.headers) reply.headers(err.headers);
      const body: ApiEnvelope = { success: false, message: err.message };
      if (err.errors) body.errors = err.errors;
      return reply.status(err.status).send({ ...body, code: err.code });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors: Record<string, string> = {};
      for (const v of err.validation) {
        const key = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
        // A key the schema does not name: an error on that key, so the caller sees which.
        const unknown = v.keyword === 'unrecognized_keys' ? ((v.params as { keys?: string[] }).keys ?? []) : [];
        for (const k of unknown) errors[key ? `${key}.${k}` : k] ??= 'Unknown field';
        if (unknown.length === 0) errors[key || (err.validationContext ?? 'body')] ??= v.message ?? 'Invalid value';
      }
      const [firstKey, firstError] = Object.entries(errors)[0] ?? [];
      const first = firstError === 'Unknown field' ? `unknown field "${firstKey}"` : firstError;
      return reply.status(400).send({ success: false, message: first ? `Invalid input: ${first}` : 'Invalid input', errors, code: ERROR_CODES.VALIDATION });
    }
    // Bad values that only the database could judge (e.g. a filter on a numeric column): the caller's fault.
    const pgCode = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
    if (pgCode && ['22P02', '22003', '22007', '22008', '22023'].includes(pgCode)) {
      return reply.status(400).send({ success: false, message: 'Invalid value in the request', code: ERROR_CODES.VALIDATION });
    }
    const status = (err as FastifyError).statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ success: false, message: 'Too many requests, try again later', code: ERROR_CODES.THROTTLED });
    if (status >= 500) {
      req.log.error({ err }, 'request failed');
      return reply.status(500).send({ success: false, message: DEFAULT_ERROR_MESSAGE, code: ERROR_CODES.INTERNAL });
    }
    // Fastify's and its plugins' own 4xx (bad JSON, body too large, unsupported media type, a refused file path).
    const code = status === 403 ? ERROR_CODES.FORBIDDEN : status === 404 ? ERROR_CODES.NOT_FOUND : ERROR_CODES.VALIDATION;
    return reply.status(status).send({ success: false, message: err.message || DEFAULT_ERROR_MESSAGE, code });
  });

  await app.register(async (api) => {
    registerModules(api as App, fullCtx);
    opts.extend?.(api as App, fullCtx);
  });

  let draining = false;
  registerProbes(app, fullCtx, () => draining);
  registerMetrics(app, fullCtx);

  // The built web app: hashed assets cached for good, index.html for every other non-API path.
  // The file route is our own (not the static plugin's), so it carries its access declaration.
  const webDist = ctx.config.webDist ? path.resolve(ctx.config.webDist) : DEFAULT_WEB_DIST;
  const hasWeb = fs.existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      serve: false,
      index: false,
      setHeaders(res, file) {
        res.header("cache-control", file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.get('/*', { config: { access: ASSET } }, (req, reply) => {
      const file = (req.params as { '*': string })['*'];
      // Dot segments and dotfiles are never files of the app; files are looked up per request,
      // so a rebuild under a running server serves the new assets.
      if (!file || file.includes('\\') || file.split('/').some((seg) => seg === '' || seg.startsWith('.'))) return reply.callNotFound();
      // Sent, not returned: a returned reply is awaited (one listener on the response each time),
      // and a path that is no file goes on to the not-found handler's index.html on the same reply.
      void reply.sendFile(file);
    });
    // The app's own address.
    app.get('/', { config: { access: ASSET } }, (_req, reply) => {
      void reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  }
  app.setNotFoundHandler((req, reply) => {
    if (isApiPath(req.url)) {
      return reply.status(404).send({ success: false, message: 'Not found', code: ERROR_CODES.NOT_FOUND });
    }
    // A missing asset (an old chunk after a rebuild) is a 404, never the HTML page in its place.
    if (req.url.startsWith('/assets/') || /\.(js|css|map)(\?|$)/.test(req.url)) return reply.status(404).type('text/plain').send('Not found');
    if (!hasWeb) return reply.status(503).type('text/plain').send('The web app is not built: run `npm run build`.');
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply.status(404).send();
    void reply.header('cache-control', 'no-cache').sendFile('index.html');
  });

  return { app, routes, idle, drain: () => { draining = true; } };
}
