import fs from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../src/http/access.js';
import { allEndpoints } from '@pitboss/contract';
import { startTestServer, type TestServer } from './helpers.js';

/** Public endpoints that answer their own format, not the envelope (the OpenAPI document, the docs page). */
const RAW_ANSWERS = new Set(allEndpoints().filter((e) => e.raw).map((e) => e.key));

/**
 * Every API route, its path spelled the ways a proxy, a browser or an attacker might spell it,
 * sent anonymously over a real socket (inject would normalise some spellings away). The router
 * matches the decoded path, so `/%61pi/admin/sub-admins` IS the sub-admins route: whatever the
 * spelling, an anonymous caller gets 401 (it reached the route, which wants a session) or the
 * API's JSON 404 (it did not), never data, a redirect, the web app's page or a 5xx.
 *
 * Run twice: with a built web app (its catch-all file route sees every unmatched GET) and without
 * one. The web app is a small stand-in written to a temporary directory, so the test depends on
 * neither `apps/web/dist` nor its absence.
 */

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** Sends the path exactly as given (node:http writes it verbatim into the request line). */
function rawRequest(port: number, method: string, rawPath: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = method === 'GET' || method === 'HEAD' ? undefined : '{}';
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: rawPath,
        agent: false,
        headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs `tasks` with at most `limit` in flight. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

const hex = (ch: string, upper: boolean) => {
  const h = ch.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${upper ? h.toUpperCase() : h.toLowerCase()}`;
};

/**
 * Other spellings of a concrete API path (`/api/admin/faqs/1`), every one naming that same path
 * once decoded and resolved (so the API, never the web app, owns the answer).
 */
function spellings(p: string): string[] {
  const segs = p.split('/').slice(1);
  const at = (from: number) => segs.slice(from).join('/');
  const join = (xs: string[]) => `/${xs.join('/')}`;
  const out = new Set<string>([p]);
  // One letter percent-encoded, lower- and upper-case hex: every letter of the first two segments, the first of the others.
  segs.forEach((seg, i) => {
    const positions = i < 2 ? [...seg].map((_, j) => j) : [0];
    for (const j of positions) {
      const ch = seg[j]!;
      if (!/[a-z]/i.test(ch)) continue;
      for (const upper of [false, true]) out.add(join(segs.map((x, k) => (k === i ? x.slice(0, j) + hex(ch, upper) + x.slice(j + 1) : x))));
    }
  });
  // Every character encoded.
  out.add(join(segs.map((x) => [...x].map((c) => hex(c, true)).join(''))));
  out.add(join(segs.map((x, k) => (k < 2 ? [...x].map((c) => hex(c, false)).join('') : x))));
  // Dot segments, encoded and not.
  out.add(`/${segs[0]}/${segs[1]}/%2e/${at(2)}`);
  out.add(`/${segs[0]}/${segs[1]}/%2E/${at(2)}`);
  out.add(`/${segs[0]}/%2e/${at(1)}`);
  out.add(`/${segs[0]}/%2e%2e/${at(0)}`);
  out.add(`/${segs[0]}/%2E%2E/${at(0)}`);
  out.add(`/x/%2e%2e/${at(0)}`);
  out.add(`/x/%2E%2e/${at(0)}`);
  out.add(`/x/y/%2e%2e/%2e%2e/${at(0)}`);
  out.add(`/${segs[0]}/${segs[1]}/x/%2e%2e/${at(2)}`);
  out.add(`/x/../${at(0)}`);
  out.add(`/${segs[0]}/./${at(1)}`);
  out.add(`/%2e/${at(0)}`);
  // Doubled slashes, trailing slash.
  out.add(`/${p}`);
  out.add(`/${segs[0]}//${at(1)}`);
  out.add(`/${segs[0]}/${segs[1]}//${at(2)}`);
  out.add(`${p}/`);
  out.add(`${p}//`);
  // Case.
  out.add(p.toUpperCase());
  out.add(`/${segs[0]!.toUpperCase()}/${at(1)}`);
  out.add(join(segs.map((x, k) => (k < 2 ? x.charAt(0).toUpperCase() + x.slice(1) : x))));
  out.add(`/${segs[0]}/${segs[1]!.toUpperCase()}/${at(2)}`);
  // `;` parameters.
  out.add(`/${segs[0]};x=1/${at(1)}`);
  out.add(`/${segs[0]}/${segs[1]};x=1/${at(2)}`);
  out.add(`${p};jsessionid=1`);
  out.add(`/${segs[0]};/${at(1)}`);
  // Backslashes, literal and encoded.
  out.add(`/${segs.join('\\')}`);
  out.add(`/${segs[0]}\\${at(1)}`);
  out.add(`/${segs[0]}/${segs[1]}\\${at(2)}`);
  out.add(`/${segs[0]}%5c${at(1)}`);
  out.add(`/${segs[0]}%5C${segs.slice(1).join('%5C')}`);
  // Encoded slashes.
  out.add(`/${segs[0]}%2f${at(1)}`);
  out.add(`/${segs[0]}%2F${segs.slice(1).join('%2F')}`);
  out.add(`/${segs[0]}/${segs[1]}%2f${at(2)}`);
  // A few together.
  out.add(`//%61pi/Admin/${at(2)};x=1`);
  out.add(`/x/%2e%2e/%41PI//${at(1)}/`);
  out.add(`/%2561pi/${at(1)}`);
  return [...out];
}

interface Outcome {
  route: string;
  path: string;
  method: string;
  answer: Answer;
}

function isEnvelope(a: Answer, success: boolean): boolean {
  if (!a.contentType.startsWith('application/json')) return false;
  try {
    return (JSON.parse(a.body) as { success?: unknown }).success === success;
  } catch {
    return false;
  }
}

/** Failures as a count and the first few (a systematic miss repeats over every route). */
const summary = (failures: string[]) => ({ count: failures.length, first: failures.slice(0, 15) });
const NONE = { count: 0, first: [] };

const show = (o: Outcome) => `${o.method} ${o.path} (${o.route}) → ${o.answer.status} ${o.answer.contentType} ${o.answer.body.slice(0, 120)}`;

for (const withWeb of [true, false]) {
  describe(`path spellings, ${withWeb ? 'with the web app built' : 'without a web app'}`, () => {
    let s: TestServer;
    let port = 0;
    let webDir = '';
    let outcomes: Outcome[] = [];
    let apiRoutes: RegisteredRoute[] = [];

    beforeAll(async () => {
      webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pitboss-web-'));
      if (withWeb) {
        fs.mkdirSync(path.join(webDir, 'assets'));
        fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html><head><title>Pitboss</title></head><body><div id="root"></div></body></html>');
        fs.writeFileSync(path.join(webDir, 'assets', 'app.js'), 'console.log("app");');
      }
      // The platform API switched on, so its routes are walked as the live API they are.
      s = await startTestServer({ WEB_DIST: webDir, PLATFORM_API_KEY: 'paths-test-platform-key-0123456789abcdef' });
      await s.app.listen({ port: 0, host: '127.0.0.1' });
      port = (s.app.server.address() as AddressInfo).port;
      apiRoutes = s.built.routes.filter((r) => r.url.startsWith('/api/'));
      const tasks: (() => Promise<Outcome>)[] = [];
      for (const route of apiRoutes) {
        const concrete = route.url.replace(/:(\w+)/g, '1');
        for (const p of spellings(concrete)) {
          tasks.push(async () => ({ route: `${route.method} ${route.url}`, path: p, method: route.method, answer: await rawRequest(port, route.method, p) }));
        }
      }
      outcomes = await pool(tasks, 8);
    }, 120_000);

    afterAll(async () => {
      await s?.close();
      if (webDir) fs.rmSync(webDir, { recursive: true, force: true });
    });

    it('walks every API route the server registered, with dozens of spellings each', () => {
      expect(apiRoutes.length).toBeGreaterThan(40);
      expect(s.built.routes.some((r) => r.access.kind === 'asset')).toBe(withWeb);
      expect(new Set(outcomes.map((o) => o.route)).size).toBe(apiRoutes.length);
      expect(outcomes.length).toBeGreaterThan(apiRoutes.length * 30);
    });

    it('a percent-encoded letter still reaches the route, which refuses an anonymous caller with 401', () => {
      const failures: string[] = [];
      for (const route of apiRoutes.filter((r) => r.access.kind !== 'public')) {
        const concrete = route.url.replace(/:(\w+)/g, '1');
        // Every route: an encoded letter of `api`; admin routes also of `admin`.
        const encoded = [`/%61pi${concrete.slice(4)}`, `/ap%69${concrete.slice(4)}`];
        if (concrete.startsWith('/api/admin/')) encoded.push(`/api/%61dmin${concrete.slice(10)}`, `/api/a%64min${concrete.slice(10)}`);
        for (const p of [concrete, ...encoded]) {
          const o = outcomes.find((x) => x.route === `${route.method} ${route.url}` && x.path === p);
          if (o?.answer.status !== 401 || !isEnvelope(o.answer, false)) failures.push(o ? show(o) : `${route.method} ${p}: not sent`);
        }
      }
      expect(summary(failures)).toEqual(NONE);
    });

    it('however the path is spelled, an anonymous caller of a non-public route gets 401 or the JSON 404: never data, a redirect, the page or a 5xx', () => {
      const failures = outcomes
        .filter((o) => apiRoutes.find((r) => `${r.method} ${r.url}` === o.route)?.access.kind !== 'public')
        .filter((o) => !((o.answer.status === 401 || o.answer.status === 404) && isEnvelope(o.answer, false)))
        .map(show);
      expect(summary(failures)).toEqual(NONE);
    });

    it('public routes, however spelled, answer from the API (its envelope) or the JSON 404: never a redirect, the page or a 5xx', () => {
      const failures = outcomes
        .filter((o) => apiRoutes.find((r) => `${r.method} ${r.url}` === o.route)?.access.kind === 'public')
        .filter(
          (o) =>
            o.answer.status >= 500 ||
            (o.answer.status >= 300 && o.answer.status < 400) ||
            // A raw endpoint's success is its own format; its refusals are still the envelope.
            !((o.answer.status < 300 && RAW_ANSWERS.has(o.route)) || isEnvelope(o.answer, o.answer.status < 300)),
        )
        .map(show);
      expect(summary(failures)).toEqual(NONE);
    });

    it('the web app’s own addresses are not a 5xx: its page when built, otherwise the “not built” notice', async () => {
      for (const p of ['/', '/dashboard', '/sub-admins/1']) {
        const a = await rawRequest(port, 'GET', p);
        if (withWeb) {
          expect(a.status, p).toBe(200);
          expect(a.contentType, p).toMatch(/^text\/html/);
        } else {
          // By design: 503 with a plain-text hint to run the build, not an internal error.
          expect(a.status, p).toBe(503);
          expect(a.body, p).toMatch(/not built/);
        }
      }
      const missingAsset = await rawRequest(port, 'GET', '/assets/missing-0123.js');
      expect(missingAsset.status).toBe(404);
    });
  });
}
