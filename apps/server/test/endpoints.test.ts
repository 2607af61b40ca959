import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allEndpoints, ENDPOINTS, PLATFORM_API_PREFIX, type Endpoint } from '@pitboss/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, superLogin, type TestServer } from './helpers.js';

/**
 * Every endpoint is declared in the contract (method, path, access, schemas), and the server's
 * routes are exactly those declarations: none registered by hand beside them, none declared and
 * missing, the same access on both sides. The web calls them by key, never by a hand-typed path.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ PLATFORM_API_KEY: 'k'.repeat(40) });
});
afterAll(async () => s?.close());

const key = (method: string, url: string) => `${method} ${url}`;

describe('endpoints in the contract', () => {
  it('the server registers exactly the declared endpoints, each with its declared access and schemas', () => {
    const declared = new Map(allEndpoints().map((e) => [e.key, e]));
    expect(declared.size, 'no endpoint is declared twice').toBe(allEndpoints().length);
    const registered = s.built.routes.filter((r) => r.url.startsWith('/api/'));
    for (const r of registered) {
      const e = declared.get(key(r.method, r.url));
      expect(e, `${key(r.method, r.url)} is registered but not declared in the contract`).toBeDefined();
      expect(r.access, `${key(r.method, r.url)}: access`).toEqual(e!.access);
      expect(Boolean(r.schema.body), `${e!.key}: body schema`).toBe(Boolean(e!.body));
      expect(Boolean(r.schema.querystring), `${e!.key}: query schema`).toBe(Boolean(e!.query));
      expect(Boolean(r.schema.params), `${e!.key}: params schema`).toBe(Boolean(e!.params));
    }
    const registeredKeys = new Set(registered.map((r) => key(r.method, r.url)));
    for (const e of declared.values()) expect(registeredKeys.has(e.key), `${e.key} is declared but not registered`).toBe(true);
  });

  it('hand-written endpoints are keyed by method and path, platform ones under the platform prefix', () => {
    for (const [k, e] of Object.entries(ENDPOINTS)) {
      expect(k).toBe(`${e.method} ${e.path}`);
      if (e.access.kind === 'platform') expect(e.path.startsWith(`${PLATFORM_API_PREFIX}/`)).toBe(true);
    }
  });

  it('a JSON body with a key its schema does not name is refused with that key, and changes nothing', async () => {
    const token = await superLogin(s);
    const before = (await call(s, 'GET', '/api/admin/profile', { token })).body.result;
    const res = await call(s, 'PUT', '/api/admin/profile', { token, body: { name: 'Renamed Admin', email: before.email, nickname: 'boss' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: 'Invalid input: unknown field "nickname"', errors: { nickname: 'Unknown field' } });
    expect((await call(s, 'GET', '/api/admin/profile', { token })).body.result.name).toBe(before.name);
    // A declared resource's update too (a misspelt field was a 200 that changed nothing).
    const page = await call(s, 'POST', '/api/admin/cms-pages', { token, body: { slug: 'strict-body', title: 'Strict', body: '<p>x</p>' } });
    expect(page.status).toBe(200);
    const patch = await call(s, 'PATCH', `/api/admin/cms-pages/${page.body.result._id}`, { token, body: { titel: 'Typo' } });
    expect(patch.status).toBe(400);
    expect(patch.body.errors).toEqual({ titel: 'Unknown field' });
    // Every endpoint's plain object body is strict; none is left to drop keys silently.
    for (const r of s.built.routes) {
      const body = r.schema.body as { def?: { type?: string; catchall?: { def?: { type?: string } } } } | undefined;
      if (body?.def?.type === 'object') expect(body.def.catchall?.def?.type, `${r.method} ${r.url}: body keys`).toBe('never');
    }
  });

  it('answers match their declared result (the route checks it; a mismatch fails the request under test)', async () => {
    const token = await superLogin(s);
    for (const url of ['/api/admin/getadmindetail', '/api/admin/profile', '/api/admin/dashboard', '/api/admin/permission-catalogue', '/api/health']) {
      const res = await call(s, 'GET', url, { token });
      expect(res.status, url).toBe(200);
      const ep: Endpoint = ENDPOINTS[`GET ${url}` as keyof typeof ENDPOINTS];
      expect(ep.result!.safeParse(res.body.result).success, url).toBe(true);
    }
  });

  it('the web app calls no API path typed by hand: only contract keys (lib/api.ts) and declarations', () => {
    const webSrc = fileURLToPath(new URL('../../web/src', import.meta.url));
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (/\.tsx?$/.test(name)) {
          const text = readFileSync(file, 'utf8');
          // A call by key ('GET /api/…') is typed from the contract; a bare '/api/…' string is not.
          for (const m of text.matchAll(/['"`](\/api\/[^'"`]*)['"`]/g)) offenders.push(`${path.relative(webSrc, file)}: ${m[1]}`);
        }
      }
    };
    walk(webSrc);
    expect(offenders).toEqual([]);
  });
});
