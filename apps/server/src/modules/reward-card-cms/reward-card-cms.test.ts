import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, serverFile, type TestServer } from '../../../test/helpers.js';

/** The reward-card page's blocks: written by admins (sanitised), read by the platform with its key (active ones, in order). */
const KEY = `pk_${randomBytes(24).toString('hex')}`;
let s: TestServer;
let token: string;

serverFile((m) => ({ s, token } = m), { PLATFORM_API_KEY: KEY });

const page = (key: string | null = KEY) => call(s, 'GET', '/api/platform/v1/reward-card-page', { ...(key ? { token: key } : {}), ip: '198.51.100.7' });

describe('the reward-card page for the platform', () => {
  it('answers the active blocks by order with their sanitised text; inactive ones are left out; only with the platform key', async () => {
    expect((await page()).body.result).toEqual({ blocks: [], updatedAt: null });
    const add = (body: Record<string, unknown>) => call(s, 'POST', '/api/admin/reward-card-cms', { token, body });
    const third = await add({ title: 'Fine print', body: '<p>Rewards are granted once.</p>', sortOrder: 30 });
    const first = await add({ title: 'How it works', body: '<p>Trade, <strong>open</strong> packs</p><script>alert(1)</script>', sortOrder: 10 });
    await add({ title: 'Hidden draft', body: '<p>Not yet</p>', sortOrder: 5, status: 'inactive' });
    const second = await add({ title: 'Prizes', body: '<p>USDC and rare cards</p>', imageUrl: '', sortOrder: 20 });
    for (const r of [first, second, third]) expect(r.status, JSON.stringify(r.body)).toBe(200);

    const res = await page();
    expect(res.status).toBe(200);
    expect(res.body.result.blocks.map((b: { title: string }) => b.title)).toEqual(['How it works', 'Prizes', 'Fine print']);
    expect(res.body.result.blocks[0].body).toContain('<strong>open</strong>');
    expect(res.body.result.blocks[0].body).not.toContain('script');
    expect(res.body.result.updatedAt).toBe(res.body.result.blocks.map((b: { updatedAt: string }) => b.updatedAt).sort().at(-1));

    // Deactivated, a block leaves the page.
    expect((await call(s, 'PATCH', `/api/admin/reward-card-cms/${second.body.result._id}`, { token, body: { status: 'inactive' } })).status).toBe(200);
    expect((await page()).body.result.blocks.map((b: { title: string }) => b.title)).toEqual(['How it works', 'Fine print']);

    // The platform's key, not an admin session, not nothing.
    expect((await page(null)).status).toBe(401);
    expect((await page('pk_wrong')).status).toBe(401);
    expect((await call(s, 'GET', '/api/platform/v1/reward-card-page', { token })).status).toBe(401);
  });
});
