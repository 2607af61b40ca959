import { Validator } from '@seriousme/openapi-schema-validator';
import { PLATFORM_API_PREFIX } from '@pitboss/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../../../test/helpers.js';

let s: TestServer;
// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
let doc: any;
beforeAll(async () => {
  s = await startTestServer({ PLATFORM_API_KEY: 'k'.repeat(40) });
  const res = await call(s, 'GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(async () => s?.close());

const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('OpenAPI document', () => {
  it('is public JSON and validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('names every route the server registered under /api/, with its method', () => {
    const registered = s.built.routes.filter((r) => r.url.startsWith('/api/'));
    expect(registered.length).toBeGreaterThan(100);
    const missing = registered.filter((r) => !doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()]).map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    // And nothing beyond them.
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${p}`));
    expect(documented.length).toBe(registered.length);
  });

  it('describes the admin and platform auth, the envelope and the Idempotency-Key', () => {
    expect(doc.components.securitySchemes.adminSession).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.platformApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const users = doc.paths['/api/admin/users'].get;
    expect(users.security).toEqual([{ adminSession: [] }]);
    expect(users.responses['403'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    const envelope = users.responses['200'].content['application/json'].schema;
    expect(envelope.required).toEqual(['success', 'message', 'result']);
    expect(envelope.properties.result.properties.items.type).toBe('array');
    expect(users.parameters.some((p: { in: string; name: string }) => p.in === 'query' && p.name === 'limit')).toBe(true);
    const login = doc.paths['/api/admin/login'].post;
    expect(login.security).toEqual([]);
    expect(login.requestBody.content['application/json'].schema.properties.email).toBeDefined();
    const signup = doc.paths[`${PLATFORM_API_PREFIX}/users`].post;
    expect(signup.security).toEqual([{ platformApiKey: [] }]);
    expect(signup.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: true });
  });
});

describe('API docs page', () => {
  it('is served from this server under the CSP, with no inline script', async () => {
    const page = await call(s, 'GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline\'; script');
    // Every script has a src on this server; none has a body.
    const scripts = [...page.raw.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/src="\/api\/docs\//);
      expect(body!.trim()).toBe('');
    }
    for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js']) {
      const res = await call(s, 'GET', `/api/docs/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.raw.length, file).toBeGreaterThan(50);
    }
    expect((await call(s, 'GET', '/api/docs/package.json')).status).toBe(400);
  });
});
