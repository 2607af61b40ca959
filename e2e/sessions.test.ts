import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, reportFailures, startHarness, type Harness } from './harness';

/**
 * Sessions as an admin sees them: two browsers signed in as the same admin, one ends the other from
 * its profile's Sessions tab, and the other is sent to /login at its next request. The super admin
 * ends a sub-admin's session from that admin's page.
 */
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  mkdirSync(SCREENSHOTS, { recursive: true });
});

reportFailures(() => h);

afterAll(async () => {
  await h?.stop();
});

describe('sessions', () => {
  it('ends another session of mine from the sessions page: that browser goes to /login', async () => {
    const laptop = await h.newPage();
    const phone = await h.newPage();
    await h.signIn(phone, h.adminEmail, h.adminPassword);
    await h.signIn(laptop, h.adminEmail, h.adminPassword);

    // Reached from the account menu.
    await laptop.getByTestId('admin-name').click();
    await laptop.getByRole('menuitem', { name: 'Sessions' }).click();
    await laptop.waitForURL((u) => u.pathname === '/profile' && u.search === '?tab=sessions');
    const rows = laptop.getByTestId('session-row');
    await expect.poll(() => rows.count()).toBe(2);
    const mine = laptop.locator('[data-testid="session-row"][data-current="true"]');
    await expect.poll(() => mine.count()).toBe(1);
    expect((await mine.innerText()).toLowerCase()).toContain('this session');
    expect(await mine.innerText()).toContain('This machine');
    expect(await mine.innerText()).toMatch(/Chrome|Chromium/);
    await laptop.screenshot({ path: path.join(SCREENSHOTS, 'sessions-own.png') });

    const other = laptop.locator('[data-testid="session-row"]:not([data-current])');
    await other.getByRole('button', { name: 'End session' }).click();
    await laptop.getByRole('dialog').getByRole('button', { name: 'End session' }).click();
    await expect.poll(() => rows.count()).toBe(1);

    // The other browser's next request finds its session over.
    await phone.reload();
    await phone.waitForURL((u) => u.pathname === '/login');
    // This one goes on.
    await laptop.reload();
    await laptop.waitForURL((u) => u.pathname === '/profile');
    await expect.poll(() => laptop.getByTestId('session-row').count()).toBe(1);

    // Login history shows where and on what, with the database's credit.
    await laptop.goto(`${h.baseUrl}/loginHistory`);
    const table = laptop.locator('main table');
    await expect.poll(() => table.innerText().catch(() => '')).toContain('This machine');
    expect(await table.innerText()).toMatch(/(Chrome|Chromium) \d+ on Linux/);
    expect(await laptop.getByTestId('list-footnote').innerText()).toContain('IP Geolocation by DB-IP');
    await laptop.screenshot({ path: path.join(SCREENSHOTS, 'login-history-located.png') });
  });

  it('the super admin ends a sub-admin\'s session from their page', async () => {
    const sub = { name: 'Sam Sessions', email: 'sam.sessions@pitboss.test', password: 'Sam-sessions-Strong#2024' };
    await h.createSubAdmin({ ...sub, restriction: [] });
    const subToken = await h.loginToken(sub.email, sub.password);
    const superToken = await h.loginToken(h.adminEmail, h.adminPassword);
    const list = await h.api<{ items: { _id: string; email: string }[] }>('GET', `/api/admin/sub-admins?q=${encodeURIComponent(sub.email)}`, undefined, superToken);
    const id = list.body.result!.items[0]!._id;

    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/update-admin/${id}`);
    await page.getByRole('tab', { name: 'Sessions' }).click();
    const rows = page.getByTestId('session-row');
    await expect.poll(() => rows.count()).toBe(1);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'sessions-sub-admin.png') });
    await rows.first().getByRole('button', { name: 'End session' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'End session' }).click();
    await expect.poll(() => rows.count()).toBe(0);
    expect((await h.api('GET', '/api/admin/profile', undefined, subToken)).status).toBe(401);
  });
});
