import { randomBytes } from 'node:crypto';
import { namedRightsOf, RESOURCES, RESTRICTION_NAMES } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSessions, admins } from '../src/db/schema.js';
import { hashToken } from '../src/lib/tokens.js';
import { call, makeSubAdmin, startTestServer, superLogin, type TestServer } from './helpers.js';

/**
 * The permission matrix: every route the running server registered ×
 * {anonymous, expired token, disabled admin, sub-admin with nothing, view-only,
 * view+edit, every right but this one, super admin}. The view and edit admins
 * hold only the route's own restriction name, so a check that ignored the name
 * would fail; the "all but" admin holds every other right. Authorization runs
 * before validation, so a refused caller gets 401/403 whatever the body; an
 * allowed one gets anything but 401/403 and never a 5xx.
 */
let s: TestServer;
/** The platform's bearer key: platform routes take it and nothing else (no admin session, however privileged). */
const PLATFORM_KEY = randomBytes(32).toString('hex');
const tokens: Record<string, string> = {};
/** Per restriction name: a sub-admin with view only, one with view+edit, and one with every right except it. */
const byName: Record<string, { view: string; edit: string; allBut: string; named: Record<string, string> }> = {};

beforeAll(async () => {
  s = await startTestServer({ PLATFORM_API_KEY: PLATFORM_KEY });
  const superToken = await superLogin(s);
  tokens.super = superToken;
  tokens.none = (await makeSubAdmin(s, [], superToken)).token;
  const all = (except?: string) => RESTRICTION_NAMES.filter((n) => n !== except).map((name) => ({ name, canView: true, canEdit: true }));
  const names = [...new Set(s.built.routes.flatMap((r) => (r.access.kind === 'module' ? [r.access.restriction] : [])))];
  for (const name of names) {
    byName[name] = {
      view: (await makeSubAdmin(s, [{ name, canView: true, canEdit: false }], superToken)).token,
      edit: (await makeSubAdmin(s, [{ name, canView: true, canEdit: true }], superToken)).token,
      allBut: (await makeSubAdmin(s, all(name), superToken)).token,
      // One admin per named right, holding that right (and so view) but not edit.
      named: Object.fromEntries(
        await Promise.all(namedRightsOf(name).map(async (r) => [r.key, (await makeSubAdmin(s, [{ name, canView: true, canEdit: false, rights: [r.key] }], superToken)).token] as const)),
      ),
    };
  }
  const disabled = await makeSubAdmin(s, all(), superToken);
  await s.database.db.update(admins).set({ status: 'disabled' }).where(eq(admins.email, disabled.email));
  tokens.disabled = disabled.token;
  const expired = await makeSubAdmin(s, all(), superToken);
  await s.database.db.update(adminSessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(adminSessions.tokenHash, hashToken(expired.token)));
  tokens.expired = expired.token;
}, 300_000);
afterAll(async () => s?.close());

// Routes whose success would end the caller's own session or is otherwise destructive to the test fixture.
// The overview's stream stays open for an allowed caller (an injected request would never end): its
// refusals are walked here, its allowed answer on a real socket in market-overview.test.ts.
const SKIP_FOR_ALLOWED = new Set(['POST /api/admin/logout', 'GET /api/admin/market-overview/stream', 'GET /api/admin/notifications/stream']);

describe('permission matrix', () => {
  it('every API route declares its access', () => {
    expect(s.built.routes.length).toBeGreaterThan(10);
    for (const r of s.built.routes) expect(r.access, `${r.method} ${r.url}`).toBeDefined();
  });

  it('declarations agree with the method and the resource: reads are GET (or a declared view action, which changes nothing), changes are writes, restriction names match the contract', () => {
    const viewActions = new Set(Object.values(RESOURCES).flatMap((spec) => (spec.actions ?? []).filter((a) => a.right === 'view').map((a) => `POST /api/admin/${spec.name}/:id/${a.name}`)));
    // Previews: POST only because they take the text being edited; they render it and store nothing.
    for (const preview of ['POST /api/admin/email-templates/:id/preview', 'POST /api/admin/cms-pages/preview']) viewActions.add(preview);
    const byKey = new Map(s.built.routes.map((r) => [`${r.method} ${r.url}`, r]));
    for (const r of s.built.routes) {
      if (r.access.kind !== 'module') continue;
      // An action field's choices (a GET) take the action's own access: whoever may run it may pick its values.
      const actionChoices = /^\/api\/admin\/([a-z-]+)\/choices\/action\/([a-z-]+)\//.exec(r.url);
      if (actionChoices) {
        expect(r.access, `${r.method} ${r.url}`).toEqual(byKey.get(`POST /api/admin/${actionChoices[1]}/:id/${actionChoices[2]}`)?.access);
        continue;
      }
      expect(r.access.access, `${r.method} ${r.url}`).toBe(r.method === 'GET' || viewActions.has(`${r.method} ${r.url}`) ? 'read' : 'write');
      const resource = /^\/api\/admin\/([a-z-]+)/.exec(r.url)?.[1];
      const spec = resource ? RESOURCES[resource] : undefined;
      if (spec) expect(r.access.restriction, `${r.method} ${r.url}`).toBe(spec.restriction);
    }
    // The unauthenticated routes are exactly these.
    expect(s.built.routes.filter((r) => r.access.kind === 'public').map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'GET /api/docs', 'GET /api/docs/:file', 'GET /api/health', 'GET /api/openapi.json', 'GET /api/public/cms/:slug', 'GET /api/uploads/:file', 'GET /healthz', 'GET /metrics', 'GET /readyz', 'POST /api/admin/checkauthtoken', 'POST /api/admin/forgotPassword', 'POST /api/admin/login', 'POST /api/admin/login/2fa', 'POST /api/admin/resetPassword',
    ]);
    // The platform API, and only it, is the platform's: under its own prefix, never an admin route.
    for (const r of s.built.routes) expect(r.access.kind === 'platform', `${r.method} ${r.url}`).toBe(r.url.startsWith('/api/platform/'));
  });

  it('walks every declared action and its bulk form: each has its route, the bulk one with the single one\'s access', () => {
    const byKey = new Map(s.built.routes.map((r) => [`${r.method} ${r.url}`, r]));
    let bulkRoutes = 0;
    for (const spec of Object.values(RESOURCES)) {
      for (const action of spec.actions ?? []) {
        const single = byKey.get(`POST /api/admin/${spec.name}/:id/${action.name}`);
        expect(single, `${spec.name}.${action.name}`).toBeDefined();
        const bulk = byKey.get(`POST /api/admin/${spec.name}/bulk/${action.name}`);
        expect(Boolean(bulk), `${spec.name}.${action.name} bulk`).toBe(action.bulk === true);
        if (bulk) {
          expect(bulk.access, `${spec.name}.${action.name} bulk`).toEqual(single!.access);
          bulkRoutes += 1;
        }
      }
    }
    expect(bulkRoutes).toBeGreaterThanOrEqual(8);
  });

  it('a route without a declaration cannot be registered', async () => {
    const { buildApp } = await import('../src/app.js');
    const ctx = { config: s.config, db: s.database.db, mailer: s.mailer };
    await expect(buildApp(ctx, { logger: false, extend: (app) => app.get('/api/admin/undeclared', async () => 'x') })).rejects.toThrow(/no access declaration/);
    const declared = await buildApp(ctx, { logger: false, extend: (app) => app.get('/api/admin/declared', { config: { access: { kind: 'account' } } }, async () => 'x') });
    expect(declared.routes.some((r) => r.url === '/api/admin/declared')).toBe(true);
    await declared.app.close();
  });

  it('answers each caller as the route declares', async () => {
    const failures: string[] = [];
    // The web app's file routes serve no data (the path-spelling test covers them).
    for (const route of s.built.routes.filter((r) => r.access.kind !== 'asset')) {
      const url = route.url.replace(/:(\w+)/g, '1');
      const key = `${route.method} ${route.url}`;
      const expectFor = (who: string): 'refused401' | 'refused403' | 'allowed' => {
        const a = route.access;
        if (a.kind === 'public') return 'allowed';
        // The platform key opens platform routes only; an admin session (even the super admin's) opens none of them.
        if (a.kind === 'platform') return who === 'platform' ? 'allowed' : 'refused401';
        if (who === 'platform') return 'refused401';
        if (who === 'anon' || who === 'expired' || who === 'disabled') return 'refused401';
        if (a.kind === 'account') return 'allowed';
        if (who === 'super') return 'allowed';
        if (a.kind === 'module' && a.right) return who === 'named' ? 'allowed' : 'refused403';
        if (who === 'edit') return 'allowed';
        if (who === 'view') return a.kind === 'module' && a.access === 'read' ? 'allowed' : 'refused403';
        return 'refused403';
      };
      const who8 = ['anon', 'expired', 'disabled', 'none', 'view', 'edit', 'allBut', 'super', 'platform'];
      for (const who of route.access.kind === 'module' && route.access.right ? [...who8, 'named'] : who8) {
        const expected = who === 'allBut' && route.access.kind !== 'platform' ? (route.access.kind === 'module' ? 'refused403' : 'allowed') : expectFor(who);
        if (expected === 'allowed' && (SKIP_FOR_ALLOWED.has(key) || route.access.kind === 'public')) continue;
        const named = route.access.kind === 'module' ? byName[route.access.restriction]! : undefined;
        const token =
          who === 'anon' ? null
          : who === 'platform' ? PLATFORM_KEY
          : who === 'named' && named && route.access.kind === 'module' ? named.named[route.access.right!]!
          : named && (who === 'view' || who === 'edit' || who === 'allBut') ? named[who]
          : tokens[who === 'allBut' || who === 'view' || who === 'edit' ? 'none' : who]!;
        const res = await call(s, route.method, url, { token, body: route.method === 'GET' ? undefined : {} });
        const ok =
          expected === 'refused401' ? res.status === 401 : expected === 'refused403' ? res.status === 403 : res.status !== 401 && res.status !== 403 && res.status < 500;
        if (!ok) failures.push(`${key} as ${who}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)?.slice(0, 120)}`);
        if (expected !== 'allowed') expect(res.body).toMatchObject({ success: false });
      }
    }
    expect(failures).toEqual([]);
  });
});
