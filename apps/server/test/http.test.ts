import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makeSubAdmin, startTestServer, superLogin, type TestServer } from './helpers.js';

let s: TestServer;
let token: string;
const web = fs.mkdtempSync(path.join(os.tmpdir(), 'pitboss-web-'));
beforeAll(async () => {
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>Pitboss</title><div id="root"></div>');
  fs.mkdirSync(path.join(web, 'assets'));
  fs.writeFileSync(path.join(web, 'assets', 'app-abc123.js'), 'console.log(1)');
  s = await startTestServer({ WEB_DIST: web });
  token = await superLogin(s);
});
afterAll(async () => s?.close());

describe('HTTP surface', () => {
  it('sends security headers and no-store on the API', async () => {
    const res = await call(s, 'GET', '/api/admin/getadmindetail', { token });
    const csp = String(res.headers['content-security-policy']);
    for (const d of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "script-src 'self'"]) expect(csp).toContain(d);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toContain('max-age=');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('serves the web app for any non-API path, and a JSON 404 for unknown API paths', async () => {
    const page = await call(s, 'GET', '/update-admin/5');
    expect(page.status).toBe(200);
    expect(page.raw).toContain('<div id="root">');
    const asset = await call(s, 'GET', '/assets/app-abc123.js');
    expect(asset.headers['cache-control']).toContain('immutable');
    const root = await call(s, 'GET', '/');
    expect(root.status).toBe(200);
    expect(root.raw).toContain('<div id="root">');
    // An old chunk after a rebuild is a 404, not the HTML page.
    expect((await call(s, 'GET', '/assets/gone-123.js')).status).toBe(404);
    const api = await call(s, 'GET', '/api/admin/nope', { token });
    expect(api.status).toBe(404);
    expect(api.body).toMatchObject({ success: false });
  });

  it('serves a page of the app without piling listeners on the response (no MaxListenersExceededWarning)', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      for (const p of ['/dashboard', '/sub-admins/1', '/update-admin/5', '/user-history/12']) {
        const page = await call(s, 'GET', p);
        expect(page.status).toBe(200);
        expect(page.raw).toContain('<div id="root">');
      }
      // A warning is emitted on the next tick.
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
  });

  it('reads the timezone header, falling back to UTC when invalid', async () => {
    const paris = await call(s, 'GET', '/api/admin/dashboard', { token, headers: { timezone: 'Europe/Paris' } });
    expect(paris.body.result.timezone).toBe('Europe/Paris');
    // Known to Intl but not to the database: UTC as well, not a 500.
    const legacy = await call(s, 'GET', '/api/admin/dashboard', { token, headers: { timezone: 'US/Pacific-New' } });
    expect(legacy.status).toBe(200);
    expect((await call(s, 'GET', '/api/admin/faqs', { token, query: { updatedAt_from: '2026-01-01' }, headers: { timezone: 'Canada/East-Saskatchewan' } })).status).toBe(200);
    const bad = await call(s, 'GET', '/api/admin/dashboard', { token, headers: { timezone: 'Mars/Olympus' } });
    expect(bad.body.result.timezone).toBe('UTC');
    expect(bad.body.result.series[0].points).toHaveLength(14);
    const signIns = bad.body.result.cards.find((c: { key: string }) => c.key === 'signInsToday');
    expect(signIns.value).toBeGreaterThanOrEqual(1);
  });

  it('shows each dashboard figure only to admins who may view its source', async () => {
    const sub = await makeSubAdmin(s, [{ name: 'FAQ', canView: true, canEdit: true }], token);
    const mine = await call(s, 'GET', '/api/admin/dashboard', { token: sub.token });
    expect(mine.body.result.cards).toEqual([]);
    expect(mine.body.result.series).toEqual([]);
    const auditor = await makeSubAdmin(s, [{ name: 'Audit Log', canView: true, canEdit: false }], token);
    const theirs = await call(s, 'GET', '/api/admin/dashboard', { token: auditor.token });
    expect(theirs.body.result.cards.map((c: { key: string }) => c.key)).toEqual(['auditToday']);
    // A markets and trading sub-admin, and a support one, get the figures of their own work.
    const trader = await makeSubAdmin(s, [{ name: 'Markets', canView: true, canEdit: false }, { name: 'Trade History', canView: true, canEdit: false }], token);
    const desk = (await call(s, 'GET', '/api/admin/dashboard', { token: trader.token })).body.result;
    expect(desk.cards.map((c: { key: string }) => c.key)).toEqual(['marketsOpen', 'marketsHalted', 'marketsUnresolved', 'tradesToday', 'orderHolds']);
    expect(desk.series.map((x: { key: string }) => x.key)).toEqual(['trades']);
    const support = await makeSubAdmin(s, [{ name: 'Support Ticket', canView: true, canEdit: false }, { name: 'Booster Packs', canView: true, canEdit: false }], token);
    const helpdesk = (await call(s, 'GET', '/api/admin/dashboard', { token: support.token })).body.result;
    expect(helpdesk.cards.map((c: { key: string }) => c.key)).toEqual(['ticketsOpen', 'ticketsWaiting', 'packsSoldToday']);
    expect(helpdesk.series.map((x: { key: string }) => x.key)).toEqual(['tickets', 'packsSold']);
  });

  it('turns malformed JSON into a 400 envelope', async () => {
    const res = await s.app.inject({ method: 'POST', url: '/api/admin/login', headers: { 'content-type': 'application/json' }, payload: '{bad' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false });
  });
});
