import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AxeResults } from 'axe-core';
import bs58 from 'bs58';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPlatformKey, platformResult, reportFailures, resetLinkFrom, SCREENSHOTS, startHarness, type Harness } from './harness';

const PLATFORM_KEY = newPlatformKey();
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ env: { PLATFORM_API_KEY: PLATFORM_KEY } });
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await h?.stop();
});

reportFailures(() => h);

const pathOf = (page: Page) => new URL(page.url()).pathname;
const token = (page: Page) => page.evaluate(() => localStorage.getItem('admin_token'));

/** Fills and sends the login form (without waiting: some tests expect a refusal). */
async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${h.baseUrl}/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** axe-core's own bundle, injected into pages by the accessibility check. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** WCAG 2.0, 2.1 and 2.2, levels A and AA: what the accessibility issue measured. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

interface AxeFinding {
  id: string;
  impact: string | null | undefined;
  help: string;
  nodes: { target: string; html: string; summary: string }[];
  count: number;
}

/**
 * Runs axe on the page as it is now (dialogs and drawers included) and returns its violations, ''
 * when none: each rule, impact and first nodes with axe's failure summary (colours and ratio for contrast).
 */
async function axeViolations(page: Page, what: string): Promise<string> {
  // Evaluated over the DevTools protocol: the app's Content-Security-Policy (script-src 'self')
  // refuses an inline <script> such as page.addScriptTag({ content }) would add.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // Animations (drawers, modals, toasts) finish first: contrast is measured on what stays.
  await page.waitForTimeout(250);
  const h1s = await page.locator('h1').count();
  const findings = await page.evaluate(async (tags): Promise<AxeFinding[]> => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<AxeResults> } }).axe;
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      count: v.nodes.length,
      nodes: v.nodes.slice(0, 4).map((n) => ({ target: n.target.join(' '), html: n.html.slice(0, 160), summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300) })),
    }));
  }, WCAG_TAGS);
  // Not an axe rule for WCAG, but the issue's: every page has exactly one h1, its title.
  if (h1s !== 1) findings.push({ id: 'one-h1', impact: 'moderate', help: `Page must have exactly one h1, has ${h1s}`, count: h1s, nodes: [] });
  if (findings.length === 0) return '';
  const lines = findings.map((f) => [`  ${f.id} (${f.impact ?? '?'}): ${f.help}, ${f.count} node(s)`, ...f.nodes.map((n) => `      ${n.target}  ${n.html}\n        ${n.summary}`)].join('\n'));
  return [`${what}:`, ...lines].join('\n');
}

describe('the shell, end to end', () => {
  it('sends a browser without a token to /login', async () => {
    const page = await h.newPage();
    await page.goto(`${h.baseUrl}/dashboard`);
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'login.png') });
    expect(await token(page)).toBeNull();
  });

  it('signs in to /dashboard, stores the token and shows the figures', async () => {
    const page = await h.newPage();
    await submitLogin(page, h.adminEmail, h.adminPassword);
    await page.waitForURL('**/dashboard');
    expect(await token(page)).toMatch(/\S{20,}/);
    await page.getByTestId('card-activeAdmins').waitFor();
    await page.getByTestId('series-signIns').waitFor();
    await expect(page.getByTestId('admin-name').textContent()).resolves.toBe('Super Admin');
    await expect(page.getByTestId('site-name').textContent()).resolves.toBe('Pitboss');
    // Every sidebar group of the seed is there for the super admin.
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const group of ['Dashboard', 'User Management', 'Crypto Payment', 'Templates & CMS', 'Admin Settings', 'Admin controller', 'Markets & Trading', 'Reports']) {
      await expect(nav.getByText(group, { exact: true }).first().isVisible()).resolves.toBe(true);
    }
    // The success toast leaves after 2 s; the screenshot shows the page itself.
    await page.locator('[data-toast-type="success"]').first().waitFor({ state: 'detached', timeout: 5000 });
    // The charts (their own chunk, after the figures) with their axes.
    await page.getByTestId('bar-chart').first().locator('svg.recharts-surface').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard.png') });
  });

  it('redirects a signed-in admin from /login to /dashboard', async () => {
    const page = await h.newPage();
    await submitLogin(page, h.adminEmail, h.adminPassword);
    await page.waitForURL('**/dashboard');
    await page.goto(`${h.baseUrl}/login`);
    await page.waitForURL('**/dashboard');
    await page.goto(`${h.baseUrl}/forgetPassword`);
    await page.waitForURL('**/dashboard');
    expect(pathOf(page)).toBe('/dashboard');
  });

  it('sends unknown paths to /login when signed out and renders them as the 404 page when signed in, and every route-table page by its title', async () => {
    const page = await h.newPage();
    await page.goto(`${h.baseUrl}/no-such-page`);
    await page.waitForURL('**/login?next=%2Fno-such-page');
    // Signing in on that page comes back to the path asked for: signed in, it is the 404 page.
    await page.getByLabel('Email', { exact: true }).fill(h.adminEmail);
    await page.getByLabel('Password', { exact: true }).fill(h.adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/no-such-page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(pathOf(page)).toBe('/no-such-page');
    // Notifications, the last page of the route table to be built, shows its own screen (a route without a page fails the routes unit test).
    await page.goto(`${h.baseUrl}/notification`);
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    await page.getByRole('button', { name: /mark all read/i }).or(page.getByText('No notifications')).first().waitFor();
    // A built account page: two-factor settings, not yet turned on for this admin.
    await page.goto(`${h.baseUrl}/2fa-settings`);
    await page.getByText('Set up two-factor authentication').first().waitFor();
  });

  it('sends a sub-admin to the first page they may view', async () => {
    const email = 'faq.viewer@pitboss.test';
    const password = 'Faq-viewer-Strong#2024';
    await h.createSubAdmin({ name: 'Faq Viewer', email, password, restriction: [{ name: 'FAQ', canView: true, canEdit: false }] });
    const page = await h.newPage();
    await submitLogin(page, email, password);
    await page.waitForURL('**/dashboard');
    await page.goto(`${h.baseUrl}/sub-admin`);
    await page.waitForURL('**/faq');
    expect(pathOf(page)).toBe('/faq');
    // The sidebar holds only what they may view.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'FAQ' }).waitFor();
    await expect(nav.getByText('Admin controller').count()).resolves.toBe(0);
    await expect(nav.getByText('Site Setting').count()).resolves.toBe(0);
    // Client-side navigation is checked too.
    await page.evaluate(() => {
      window.history.pushState({}, '', '/site-setting');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.waitForURL('**/faq');
    // Pages open to every admin stay open.
    await page.goto(`${h.baseUrl}/profile`);
    await page.getByRole('heading', { name: 'Profile', exact: true }).first().waitFor();
    expect(pathOf(page)).toBe('/profile');
  });

  it('shows site settings read-only to a sub-admin without the edit right', async () => {
    const email = 'settings.viewer@pitboss.test';
    const password = 'Settings-viewer-Strong#2024';
    await h.createSubAdmin({ name: 'Settings Viewer', email, password, restriction: [{ name: 'Site Setting', canView: true, canEdit: false }] });
    const page = await h.newPage();
    await submitLogin(page, email, password);
    await page.waitForURL('**/dashboard');
    await page.goto(`${h.baseUrl}/site-setting`);
    await page.getByLabel('Site name').waitFor();
    await page.getByText('View only').waitFor();
    await expect(page.getByRole('button', { name: 'Save settings' }).count()).resolves.toBe(0);
    await expect(page.getByLabel('Site name').getAttribute('readonly')).resolves.not.toBeNull();
  });

  it('lets the super admin change the site name, shown in the header', async () => {
    const page = await h.newPage();
    await submitLogin(page, h.adminEmail, h.adminPassword);
    await page.waitForURL('**/dashboard');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Site Setting' }).click();
    await page.waitForURL('**/site-setting');
    await page.getByLabel('Site name').fill('Pitboss Test');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Site settings updated').waitFor();
    await page.getByTestId('site-name').getByText('Pitboss Test').waitFor();
    const reset = await h.api('POST', '/api/admin/updateSiteDetails', { siteName: 'Pitboss' }, await h.loginToken(h.adminEmail, h.adminPassword));
    expect(reset.body.success).toBe(true);
  });

  it('goes to /login after a 401 (session revoked on the server)', async () => {
    const page = await h.newPage();
    await submitLogin(page, h.adminEmail, h.adminPassword);
    await page.waitForURL('**/dashboard');
    await page.getByTestId('card-activeAdmins').waitFor();
    const stored = await token(page);
    expect(stored).toBeTruthy();
    const out = await h.api('POST', '/api/admin/logout', {}, stored!);
    expect(out.status).toBe(200);
    // Any call now answers 401: the dashboard's refresh makes one.
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForURL('**/login', { timeout: 5000 });
    expect(await token(page)).toBeNull();
    await page.getByText('Your session has ended', { exact: false }).first().waitFor();
  });

  it('signs out from the account menu', async () => {
    const page = await h.newPage();
    await submitLogin(page, h.adminEmail, h.adminPassword);
    await page.waitForURL('**/dashboard');
    const stored = await token(page);
    await page.getByTestId('admin-menu').click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    expect(await token(page)).toBeNull();
    // The session is gone on the server too.
    const after = await h.api('GET', '/api/admin/getadmindetail', undefined, stored!);
    expect(after.status).toBe(401);
  });

  it('follows the system colour scheme until the admin picks one in the header menu, and remembers the choice', async () => {
    const scheme = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
    const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    // A system in dark mode: dark from the sign-in page on, before any choice.
    const page = await h.newPage({ colorScheme: 'dark' });
    await page.goto(`${h.baseUrl}/login`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await scheme(page)).toBe('dark');
    await submitLogin(page, h.adminEmail, h.adminPassword);
    await page.waitForURL('**/dashboard');
    const dark = await background(page);
    await page.getByText(/signups today/i).waitFor();
    await page.getByTestId('bar-chart').first().locator('svg.recharts-surface').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-dark.png') });

    // Light, chosen in the menu, wins over the system and survives a reload.
    await page.getByTestId('admin-menu').click();
    await page.getByRole('menuitem', { name: 'Light' }).click();
    await expect.poll(() => scheme(page), { timeout: 10_000 }).toBe('light');
    expect(await background(page)).not.toBe(dark);
    await page.reload();
    await page.getByTestId('admin-menu').waitFor();
    expect(await scheme(page)).toBe('light');
    await page.getByTestId('admin-menu').click();
    expect(await page.getByRole('menuitem', { name: 'Light' }).getAttribute('aria-current')).toBe('true');

    // Back to the system's choice.
    await page.getByRole('menuitem', { name: 'As the system' }).click();
    await expect.poll(() => scheme(page), { timeout: 10_000 }).toBe('dark');
    expect(await background(page)).toBe(dark);
  });

  it('opens the command palette with Ctrl+K: finds a page and goes there, finds a record only in modules the admin may view', async () => {
    const superToken = await h.loginToken(h.adminEmail, h.adminPassword);
    const tag = await h.api<{ _id: string }>('POST', '/api/admin/tags', { name: 'Zephyr elections' }, superToken);
    expect(tag.status).toBe(200);

    const page = await h.newPage();
    await submitLogin(page, h.adminEmail, h.adminPassword);
    await page.waitForURL('**/dashboard');
    await page.getByTestId('admin-menu').waitFor();
    await page.keyboard.press('Control+K');
    const search = page.getByRole('textbox', { name: 'Search pages and records' });
    await search.fill('audit');
    await page.getByRole('button', { name: /Audit Log/ }).click();
    await page.waitForURL('**/audit-log');

    // Reopened at any moment of the closing animation (200 ms): what the admin types stays.
    // (Mantine's own clear-on-close ran at the end of that animation and wiped it.)
    // Each round goes to another page, so the click is known to have closed the palette (the URL
    // changed) before the pause starts: on a loaded machine a Ctrl+K pressed before the click was
    // handled toggled the still-open palette shut instead.
    for (const [i, pause] of [30, 60, 100, 150].entries()) {
      const to = i % 2 ? { query: 'audit', name: /Audit Log/, url: '**/audit-log' } : { query: 'faq', name: /^FAQ/, url: '**/faq' };
      await page.keyboard.press('Control+K');
      await search.fill(to.query);
      await page.getByRole('button', { name: to.name }).first().click();
      await page.waitForURL(to.url);
      await page.waitForTimeout(pause);
      await page.keyboard.press('Control+K');
      await search.fill('zephyr');
      await page.waitForTimeout(400);
      expect(await search.inputValue(), `reopened ${pause} ms after closing`).toBe('zephyr');
      await page.keyboard.press('Escape');
      await search.waitFor({ state: 'hidden' });
    }
    await page.keyboard.press('Control+K');
    await search.fill('zephyr');
    await page.getByRole('button', { name: /Zephyr elections/ }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'palette.png') });
    await page.getByRole('button', { name: /Zephyr elections/ }).click();
    await page.waitForURL(`**/update-tag/${tag.body.result!._id}`);

    // A sub-admin who may view FAQs only: pages of their own, no tag search at all.
    const email = 'palette@pitboss.test';
    const password = 'Palette-Only#2024';
    await h.createSubAdmin({ name: 'Palette Sub', email, password, restriction: [{ name: 'FAQ', canView: true, canEdit: false }] });
    const sub = await h.newPage();
    const asked: string[] = [];
    sub.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/admin/tags')) asked.push(r.url());
    });
    await submitLogin(sub, email, password);
    await sub.waitForURL((url) => !url.pathname.startsWith('/login'));
    await sub.getByTestId('open-palette').click();
    await sub.getByRole('textbox', { name: 'Search pages and records' }).fill('zephyr');
    await sub.getByText('Nothing found').waitFor();
    await sub.getByRole('textbox', { name: 'Search pages and records' }).fill('faq');
    await sub.getByRole('button', { name: /FAQ/ }).first().waitFor();
    expect(await sub.getByRole('button', { name: /Audit Log/ }).count()).toBe(0);
    expect(asked).toEqual([]);
  });

  it('shows "Unexpected Application Error!" with a way back, when a page fails to load', async () => {
    const page = await h.newPage();
    await submitLogin(page, h.adminEmail, h.adminPassword);
    await page.waitForURL('**/dashboard');
    // The notifications page's chunk cannot be fetched (as after a deployment removed it).
    await page.getByTestId('admin-menu').waitFor();
    await page.route(/\/assets\/NotificationsPage-[^/]*\.js$/, (route) => route.abort());
    // Opened directly: the app reloads once for a missing chunk (after a deployment the new
    // index.html names new chunks), then shows the error.
    await page.goto(`${h.baseUrl}/notification`);
    await page.getByRole('heading', { name: 'Unexpected Application Error!' }).waitFor();
    await page.getByTestId('route-error-detail').getByText(/NotificationsPage/).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'route-error.png') });
    await page.unroute(/\/assets\/NotificationsPage-[^/]*\.js$/);
    await page.getByRole('button', { name: 'Go to the dashboard' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText(/signups today/i).waitFor();
  });

  it('shows an error toast on a wrong password and removes it after about 4 s', async () => {
    const page = await h.newPage();
    await submitLogin(page, h.adminEmail, 'not-the-password');
    const toast = page.locator('[data-toast-type="error"]').filter({ hasText: 'Invalid email or password' });
    await toast.waitFor({ state: 'visible', timeout: 3000 });
    const shownAt = Date.now();
    await page.waitForTimeout(2500);
    await expect(toast.isVisible()).resolves.toBe(true);
    await toast.waitFor({ state: 'detached', timeout: 4000 });
    const gone = Date.now() - shownAt;
    expect(gone).toBeGreaterThan(3000);
    expect(gone).toBeLessThan(6500);
    expect(pathOf(page)).toBe('/login');
  });

  it('resets a forgotten password through the mailed link, then signs in with the new one', async () => {
    const email = 'forgetful@pitboss.test';
    const oldPassword = 'Forgetful-Old#2024';
    const newPassword = 'Forgetful-New#2025';
    await h.createSubAdmin({ name: 'Forgetful Admin', email, password: oldPassword, restriction: [] });
    const page = await h.newPage();
    const before = h.mails.length;
    await page.goto(`${h.baseUrl}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgetPassword');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    // Once (CI, 2026-11-25, API suites running beside) this took over 30 s; the failure report
    // (reportFailures) now shows the page's API answers and text if it happens again.
    await page.getByText('Check your mail').waitFor({ timeout: 60_000 });
    const mail = await h.waitForMail(email, { after: before });
    const link = resetLinkFrom(mail);
    expect(link.startsWith(`${h.baseUrl}/verification/forgotPassword?token=`)).toBe(true);

    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL('**/login');
    expect(await token(page)).toBeNull();

    // The link works once.
    await page.goto(link);
    await page.getByText('This link cannot be used').waitFor();
    await page.getByRole('link', { name: 'Request a new link' }).waitFor();

    await submitLogin(page, email, newPassword);
    await page.waitForURL('**/dashboard');
    expect(await token(page)).toBeTruthy();
  });

  // Once per CI run: the second Node pass (.ci/run sets CI_SECOND_PASS) drives the same bundle.
  it.skipIf(process.env.CI_SECOND_PASS === '1')('passes axe (WCAG 2.2 A and AA) in light and dark: sign-in, dashboard, a list with badges and pager, a drawer, a confirm dialog, a form, the palette', async () => {
    const superToken = await h.loginToken(h.adminEmail, h.adminPassword);
    const platform = <T,>(p: string, body: unknown) => platformResult<T>(h, PLATFORM_KEY, 'POST', p, body);
    // Withdrawals in two states (badges "Awaiting review" and "Completed"), three of them on pages of two.
    const user = await platform<{ _id: string }>('users', { username: 'axe_e2e', email: 'axe@players.test', country: 'FR' });
    const deposit = await platform<{ _id: string }>('deposits', { userId: user._id, coin: 'USDC', amount: '50000000', txSignature: bs58.encode(randomBytes(64)), fromAddress: bs58.encode(randomBytes(32)) });
    expect((await h.api('POST', `/api/admin/deposits/${deposit._id}/confirm`, {}, superToken)).status).toBe(200);
    const withdraw = () => platform<{ _id: string }>('withdrawals', { userId: user._id, coin: 'USDC', amount: '2000000', toAddress: bs58.encode(randomBytes(32)) });
    await withdraw();
    const completed = await withdraw();
    expect((await h.api('POST', `/api/admin/withdrawals/${completed._id}/approve`, {}, superToken)).status).toBe(200);
    expect((await h.api('POST', `/api/admin/withdrawals/${completed._id}/complete`, { txSignature: bs58.encode(randomBytes(64)) }, superToken)).status).toBe(200);
    const requested = await withdraw();
    for (const name of ['Axe alpha', 'Axe beta']) expect((await h.api('POST', '/api/admin/tags', { name }, superToken)).status).toBe(200);

    // Every page is checked before failing, so one run lists all that is wrong.
    const found: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      const page = await h.newPage({ colorScheme: scheme });
      await page.goto(`${h.baseUrl}/login`);
      await page.getByLabel('Email', { exact: true }).waitFor();
      found.push(await axeViolations(page, `${scheme}: the sign-in page`));

      await submitLogin(page, h.adminEmail, h.adminPassword);
      await page.waitForURL('**/dashboard');
      await page.getByTestId('bar-chart').first().locator('svg.recharts-surface').waitFor();
      found.push(await axeViolations(page, `${scheme}: the dashboard`));

      await page.goto(`${h.baseUrl}/withdraw?limit=2`);
      await page.locator(`tr[data-row-id="${requested._id}"]`).getByText('Awaiting review').waitFor();
      await page.locator(`tr[data-row-id="${completed._id}"]`).getByText('Completed').waitFor();
      found.push(await axeViolations(page, `${scheme}: the withdrawals list`));
      await page.screenshot({ path: `/tmp/a11y-withdraw-${scheme}.png` });

      await page.locator(`tr[data-row-id="${completed._id}"]`).getByRole('button', { name: 'Details' }).click();
      await page.getByRole('dialog').getByTestId('record-details').waitFor();
      found.push(await axeViolations(page, `${scheme}: a withdrawal's drawer`));
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });

      await page.locator(`tr[data-row-id="${requested._id}"]`).getByRole('button', { name: 'Approve' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).waitFor();
      found.push(await axeViolations(page, `${scheme}: the approve confirmation`));
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'hidden' });

      await page.goto(`${h.baseUrl}/tags?limit=1`);
      await page.locator('.mantine-Pagination-root').waitFor();
      found.push(await axeViolations(page, `${scheme}: the tags list, paged by number`));

      await page.goto(`${h.baseUrl}/add-tag`);
      await page.getByRole('textbox', { name: /^Name/ }).fill('Axe alpha');
      await page.getByRole('button', { name: 'Create tag' }).click();
      await page.getByText('A tag with this name exists').waitFor();
      found.push(await axeViolations(page, `${scheme}: the add-tag form with a field error`));

      await page.keyboard.press('Control+K');
      await page.getByRole('textbox', { name: 'Search pages and records' }).fill('axe');
      await page.getByRole('button', { name: /Axe alpha/ }).waitFor();
      found.push(await axeViolations(page, `${scheme}: the command palette`));
      await page.screenshot({ path: `/tmp/a11y-palette-${scheme}.png` });
      await page.close();
    }
    expect(found.filter(Boolean).join('\n')).toBe('');
  });

  it('takes the keyboard: "Skip to content" first, then to the page; sidebar groups open and close with Enter and Space', async () => {
    const page = await h.newPage();
    await submitLogin(page, h.adminEmail, h.adminPassword);
    await page.waitForURL('**/dashboard');
    // From the top of a freshly loaded page (no toast): the first Tab stop is the skip link, shown when focused.
    await page.reload();
    await page.getByTestId('card-activeAdmins').waitFor();
    const focused = () => page.evaluate(() => ({ id: document.activeElement?.id ?? '', text: (document.activeElement as HTMLElement | null)?.innerText?.trim() ?? '' }));
    await page.keyboard.press('Tab');
    expect((await focused()).text).toBe('Skip to content');
    await expect(page.getByRole('link', { name: 'Skip to content' }).isVisible()).resolves.toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'skip-link.png') });
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused()).id).toBe('main');
    expect(await page.locator('h1').allInnerTexts()).toEqual(['Dashboard']);

    // A group header is a button Tab reaches, saying whether it is open; Enter opens it, Space closes it.
    const nav = page.getByRole('navigation', { name: 'Main' });
    const group = nav.getByRole('button', { name: 'User Management' });
    await expect(group.getAttribute('aria-expanded')).resolves.toBe('false');
    await page.getByRole('link', { name: 'Skip to content' }).focus();
    for (let i = 0; i < 40 && (await focused()).text !== 'User Management'; i++) await page.keyboard.press('Tab');
    expect((await focused()).text).toBe('User Management');
    await page.keyboard.press('Enter');
    await expect.poll(() => group.getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'Users', exact: true }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'sidebar-keyboard.png') });
    await page.keyboard.press('Space');
    await expect.poll(() => group.getAttribute('aria-expanded')).toBe('false');
    await nav.getByRole('link', { name: 'Users', exact: true }).waitFor({ state: 'hidden' });
  });

  it('loads at most 137 kB of gzip JavaScript before the sign-in form', async () => {
    const page = await h.newPage();
    const scripts = new Set<string>();
    page.on('response', (res) => {
      const p = new URL(res.url()).pathname;
      if (p.endsWith('.js')) scripts.add(p);
    });
    await page.goto(`${h.baseUrl}/login`);
    await page.getByLabel('Email', { exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    let gzip = 0;
    for (const p of scripts) gzip += gzipSync(readFileSync(path.join(h.webDist, p)), { level: 9 }).length;
    console.log(`sign-in page first load: ${scripts.size} JS files, ${(gzip / 1000).toFixed(1)} kB gzip`);
    expect(gzip).toBeLessThanOrEqual(137_000);
  });
});
