import { RESOURCES } from '@pitboss/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, DEMO_SUBADMIN_PASSWORD } from '../src/seed/demo.js';
import { call, login, startTestServer, superLogin, type TestServer } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => s?.close());

describe('demo seed', () => {
  it('fills every admin-controller and admin-settings module once, with working sub-admin accounts', async () => {
    expect(await seedDemo(s.database.db, { info: () => undefined })).toBe(true);
    expect(await seedDemo(s.database.db, { info: () => undefined })).toBe(false);
    const token = await superLogin(s);
    for (const [resource, atLeast] of [
      ['sub-admins', 6], ['sub-admin-logins', 50], ['blocked-ips', 8], ['blocked-wallets', 6], ['whitelist-wallets', 5],
      ['faqs', 12], ['tags', 15], ['support-categories', 6], ['audit-log', 20],
    ] as const) {
      const res = await call(s, 'GET', `/api/admin/${resource}`, { token });
      expect(res.body.result.total, resource).toBeGreaterThanOrEqual(atLeast);
    }
    const maya = await login(s, 'maya.support@pitboss.local', DEMO_SUBADMIN_PASSWORD);
    expect((await call(s, 'GET', '/api/admin/faqs', { token: maya })).status).toBe(200);
    expect((await call(s, 'GET', '/api/admin/sub-admins', { token: maya })).status).toBe(403);
    expect((await call(s, 'POST', '/api/admin/login', { body: { email: 'tom.contractor@pitboss.local', password: DEMO_SUBADMIN_PASSWORD } })).status).toBe(401);
  });

  it('answers every declared resource with records that match its record schema exactly', async () => {
    const token = await superLogin(s);
    for (const spec of Object.values(RESOURCES)) {
      expect(spec.record, spec.name).toBeDefined();
      const res = await call(s, 'GET', `/api/admin/${spec.name}`, { token, query: { limit: '200' } });
      expect(res.status, spec.name).toBe(200);
      for (const item of res.body.result.items) {
        const parsed = spec.record!.safeParse(item);
        expect(parsed.success ? null : `${spec.name} ${item._id}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`).toBeNull();
      }
      if (res.body.result.items[0]) {
        const one = await call(s, 'GET', `/api/admin/${spec.name}/${res.body.result.items[0]._id}`, { token });
        expect(spec.record!.safeParse(one.body.result).success, `${spec.name} record`).toBe(true);
      }
    }
  });
});
