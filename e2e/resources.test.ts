import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, reportFailures, startHarness, type Harness } from './harness';

/**
 * The generic resource pages (list and form built from the contract's
 * declarations) against the real API: a super admin grants rights through
 * the permission matrix, and the sub-admin sees exactly those pages, one
 * read-only and one editable, with CSV export and server field errors.
 */
let h: Harness;
let superToken: string;

const sub = { name: 'Rita Rights', email: 'rita.rights@pitboss.test', password: 'Rita-rights-Strong#2024' };
const blockedAddress = '203.0.113.77';
const faqQuestion = 'How are e2e answers checked?';

beforeAll(async () => {
  h = await startHarness();
  mkdirSync(SCREENSHOTS, { recursive: true });
  superToken = await h.loginToken(h.adminEmail, h.adminPassword);
});

reportFailures(() => h);

afterAll(async () => {
  await h?.stop();
});

const pathOf = (page: Page) => new URL(page.url()).pathname;
const main = (page: Page) => page.locator('main');

/** The app shell's header and navbar are fixed: grow the viewport to the page instead of a stitched full-page shot. */
async function screenshotWholePage(page: Page, file: string): Promise<void> {
  const viewport = page.viewportSize()!;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height });
  await page.waitForTimeout(200);
  await page.screenshot({ path: path.join(SCREENSHOTS, file) });
  await page.setViewportSize(viewport);
}

/** The error message Mantine links to an input (aria-describedby), or null. */
async function errorOf(page: Page, input: ReturnType<Page['getByRole']>): Promise<string | null> {
  if ((await input.getAttribute('aria-invalid')) !== 'true') return null;
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
  for (const id of ids) {
    const el = page.locator(`[id="${id}"]`);
    if ((await el.count()) && (await el.getAttribute('class'))?.includes('error')) return (await el.textContent())?.trim() ?? '';
  }
  return null;
}

describe('resource pages, end to end', () => {
  it('lets the super admin create a sub-admin with the permission matrix', async () => {
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/sub-admin`);
    // The header's button (an empty list offers one too).
    await main(page).getByRole('link', { name: 'Add sub admin' }).first().click();
    await page.waitForURL('**/add-admin');

    await page.getByRole('textbox', { name: /^Name/ }).fill(sub.name);
    await page.getByRole('textbox', { name: /^Email/ }).fill(sub.email);
    await page.locator('input[name="password"]').fill(sub.password);

    const matrix = page.getByTestId('permission-matrix');
    await matrix.getByRole('checkbox', { name: 'Ip Address view', exact: true }).waitFor();
    await matrix.getByRole('checkbox', { name: 'Ip Address view', exact: true }).check();
    // Ticking edit ticks view.
    await matrix.getByRole('checkbox', { name: 'FAQ edit', exact: true }).check();
    await expect(matrix.getByRole('checkbox', { name: 'FAQ view', exact: true }).isChecked()).resolves.toBe(true);
    await expect(matrix.getByRole('checkbox', { name: 'Ip Address edit', exact: true }).isChecked()).resolves.toBe(false);
    // Unticking view unticks edit; ticking edit again restores both.
    await matrix.getByRole('checkbox', { name: 'FAQ view', exact: true }).uncheck();
    await expect(matrix.getByRole('checkbox', { name: 'FAQ edit', exact: true }).isChecked()).resolves.toBe(false);
    await matrix.getByRole('checkbox', { name: 'FAQ edit', exact: true }).check();
    await screenshotWholePage(page, 'resources-sub-admin-form.png');

    await page.getByRole('button', { name: 'Create sub admin' }).click();
    await page.waitForURL('**/sub-admin');
    await main(page).getByRole('cell', { name: sub.email }).waitFor();

    const listed = await h.api<{ items: { email: string; restriction: { name: string; canView: boolean; canEdit: boolean }[] }[] }>(
      'GET',
      `/api/admin/sub-admins?q=${encodeURIComponent(sub.email)}`,
      undefined,
      superToken,
    );
    const rights = listed.body.result!.items[0]!.restriction.map((r) => `${r.name}:${r.canView ? 'v' : ''}${r.canEdit ? 'e' : ''}`).sort();
    expect(rights).toEqual(['FAQ:ve', 'Ip Address:v']);
  });

  it('shows the sub-admin only their pages, Block IP read-only', async () => {
    const created = await h.api('POST', '/api/admin/blocked-ips', { address: blockedAddress, reason: 'e2e block' }, superToken);
    expect(created.body.success).toBe(true);

    const page = await h.newPage();
    await h.signIn(page, sub.email, sub.password);

    // A page they may not view sends them to the first one they may.
    await page.goto(`${h.baseUrl}/sub-admin`);
    await page.waitForURL('**/ip-address');
    expect(pathOf(page)).toBe('/ip-address');

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Block IP' }).waitFor();
    const links = await nav.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(links).toEqual(['/dashboard', '/ip-address', '/faq']);

    // The list: rows, but no Add, no selection, no bulk actions.
    const row = main(page).getByRole('row', { name: new RegExp(blockedAddress.replace(/\./g, '\\.')) });
    await row.waitFor();
    await expect(main(page).getByRole('link', { name: /^Add / }).count()).resolves.toBe(0);
    await expect(main(page).getByRole('checkbox').count()).resolves.toBe(0);
    await expect(page.getByTestId('bulk-bar').count()).resolves.toBe(0);

    // A record opens read-only (legible, not editable) with no Save or Delete.
    await row.click();
    await page.waitForURL('**/update-block-ip/*');
    const address = page.getByRole('textbox', { name: /^Address or CIDR range/ });
    await address.waitFor();
    await expect(address.inputValue()).resolves.toBe(`${blockedAddress}/32`);
    await expect(address.isEditable()).resolves.toBe(false);
    await expect(page.getByRole('textbox', { name: /^Reason/ }).isEditable()).resolves.toBe(false);
    await page.getByTestId('read-only-notice').waitFor();
    await expect(page.getByRole('button', { name: /save/i }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Delete' }).count()).resolves.toBe(0);
    // No Audit Log right: no History tab.
    await expect(page.getByRole('tab', { name: 'History' }).count()).resolves.toBe(0);
  });

  it('lets the sub-admin add an FAQ, find it through a link, and export the list as CSV', async () => {
    const page = await h.newPage();
    await h.signIn(page, sub.email, sub.password);
    await page.goto(`${h.baseUrl}/faq`);
    await main(page).getByRole('link', { name: 'Add FAQ' }).first().click();
    await page.waitForURL('**/add-faq');

    // The contract's schema runs in the browser first.
    await page.getByRole('button', { name: 'Create FAQ' }).click();
    const question = page.getByRole('textbox', { name: /^Question/ });
    await expect.poll(() => errorOf(page, question)).toBe('At least 3 characters');
    expect(pathOf(page)).toBe('/add-faq');

    await question.fill(faqQuestion);
    // The answer is rich text: type, then make a word bold with the toolbar.
    const answer = page.getByRole('textbox', { name: /^Answer/ });
    await answer.click();
    await page.keyboard.type('By a browser test.');
    await page.keyboard.press('Shift+Home');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.getByRole('textbox', { name: /^Category/ }).fill('Testing');
    await page.getByRole('textbox', { name: /^Order/ }).fill('42');
    await page.getByRole('button', { name: 'Create FAQ' }).click();
    await page.waitForURL('**/faq');
    await main(page).getByRole('cell', { name: faqQuestion }).waitFor();
    const saved = await h.api<{ items: { question: string; answer: string }[] }>('GET', `/api/admin/faqs?q=${encodeURIComponent(faqQuestion)}`, undefined, superToken);
    expect(saved.body.result!.items[0]!.answer).toBe('<p><strong>By a browser test.</strong></p>');

    // The list state lives in the URL: a link reproduces a filtered, sorted view.
    await page.goto(`${h.baseUrl}/faq?q=${encodeURIComponent('e2e answers')}&sort=-sortOrder`);
    await main(page).getByRole('cell', { name: faqQuestion }).waitFor();
    await expect(page.getByRole('textbox', { name: 'Search FAQ' }).inputValue()).resolves.toBe('e2e answers');
    await expect(main(page).locator('tbody tr').count()).resolves.toBe(1);
    await expect(main(page).getByRole('columnheader', { name: /Order/ }).getAttribute('aria-sort')).resolves.toBe('descending');

    // Export: the same query as a CSV download.
    await page.goto(`${h.baseUrl}/faq`);
    await main(page).getByRole('cell', { name: faqQuestion }).waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'resources-faq-list.png'), fullPage: true });
    const [download] = await Promise.all([page.waitForEvent('download'), main(page).getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^faqs-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8').replace(/^\ufeff/, '');
    const lines = csv.split(/\r?\n/).filter(Boolean);
    expect(lines[0]).toBe('Question,Category,Order,Status,Updated');
    const row = lines.find((l) => l.startsWith(faqQuestion));
    expect(row).toBeDefined();
    expect(row).toContain(',Testing,42,active,');
    // Dates as ISO 8601 with the browser zone's offset (spreadsheet-ready exports).
    expect(row).toMatch(/,active,\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    await page.getByText(/Exported faqs-/).waitFor();
  });

  it('puts a server field error on its field (a tag name that exists)', async () => {
    const first = await h.api('POST', '/api/admin/tags', { name: 'Esports' }, superToken);
    expect(first.body.success).toBe(true);

    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/add-tag`);
    const name = page.getByRole('textbox', { name: /^Name/ });
    await name.fill('Esports');
    await page.getByRole('button', { name: 'Create tag' }).click();
    await expect.poll(() => errorOf(page, name)).toBe('A tag with this name exists');
    expect(pathOf(page)).toBe('/add-tag');
    // Typing clears the field's error.
    await name.fill('Esports league');
    await expect.poll(() => errorOf(page, name)).toBeNull();
  });

  it('archives a support category from its page, hides it from the list, and restores it', async () => {
    const created = await h.api<{ _id: string }>('POST', '/api/admin/support-categories', { name: 'Chargebacks' }, superToken);
    const id = created.body.result!._id;
    // A category that stays: once it shows, the list has loaded (an empty list shows no table, and a
    // loading one shows no rows, so neither proves the archived one is hidden).
    expect((await h.api('POST', '/api/admin/support-categories', { name: 'Refunds' }, superToken)).status).toBe(200);
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/update-support-category/${id}`);
    await main(page).getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
    await page.waitForURL('**/support-category');
    await main(page).getByRole('table').getByText('Refunds').waitFor();
    expect(await main(page).getByText('Chargebacks').count()).toBe(0);
    await page.goto(`${h.baseUrl}/support-category?archived=true`);
    await main(page).getByText('Chargebacks').waitFor();
    await page.goto(`${h.baseUrl}/update-support-category/${id}`);
    await page.getByText(/is archived/).waitFor();
    await main(page).getByRole('button', { name: 'Restore' }).click();
    await expect.poll(async () => (await h.api<{ archivedAt: string | null }>('GET', `/api/admin/support-categories/${id}`, undefined, superToken)).body.result?.archivedAt).toBeNull();
    await page.goto(`${h.baseUrl}/support-category`);
    await main(page).getByText('Chargebacks').waitFor();
  });

  it('runs declared actions from the record page: a weak password is refused on its field, a strong one ends the sessions', async () => {
    const listed = await h.api<{ items: { _id: string }[] }>('GET', `/api/admin/sub-admins?q=${encodeURIComponent(sub.email)}`, undefined, superToken);
    const id = listed.body.result!.items[0]!._id;
    const subToken = await h.loginToken(sub.email, sub.password);
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/update-admin/${id}`);
    await expect(page.getByTestId('record-state').textContent()).resolves.toBe('Active');

    await main(page).getByRole('button', { name: 'Set new password' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Their current sessions end').waitFor();
    const input = dialog.locator('input[name="password"]');
    await input.fill('Password1!');
    await dialog.getByRole('button', { name: 'Set new password' }).click();
    await dialog.getByText(/commonly used password/).waitFor();
    await input.fill('Quartz-Lantern-Otter-31');
    await dialog.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Password set; the sub-admin must sign in again').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    // Their old session is over; the new password works.
    expect((await h.api('GET', '/api/admin/getadmindetail', undefined, subToken)).status).toBe(401);
    sub.password = 'Quartz-Lantern-Otter-31';
    await h.loginToken(sub.email, sub.password);

    await main(page).getByRole('button', { name: 'End sessions' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'End sessions' }).click();
    await page.getByText(/\d+ sessions? ended/).waitFor();
    await screenshotWholePage(page, 'resources-record-actions.png');

    // A child list: the sub-admin's own sign-ins, as a tab of their page, scoped to them.
    await main(page).getByRole('tab', { name: 'Sign-ins' }).click();
    const panel = main(page).getByRole('tabpanel');
    // (The table shows skeleton rows while it loads: wait for the rows themselves.)
    await panel.locator('tbody tr td:nth-child(2)', { hasText: sub.email }).first().waitFor();
    const emails = await panel.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(emails.length).toBeGreaterThan(1);
    expect(new Set(emails)).toEqual(new Set([sub.email]));
    await screenshotWholePage(page, 'resources-child-list.png');
  });

  it('follows a change of rights while the sub-admin is signed in, and returns to a deep link after sign-in', async () => {
    const tia = { name: 'Tia Turnover', email: 'tia.turnover@pitboss.test', password: 'Tia-Turnover-Strong#1' };
    await h.createSubAdmin({ ...tia, restriction: [{ name: 'FAQ', canView: true, canEdit: false }] });
    const listed = await h.api<{ items: { _id: string; email: string }[] }>('GET', `/api/admin/sub-admins?q=${encodeURIComponent(tia.email)}`, undefined, superToken);
    const tiaId = listed.body.result!.items[0]!._id;

    // Signed out, a shared link leads to sign-in, then back to the same view.
    const page = await h.newPage();
    await page.goto(`${h.baseUrl}/faq?q=anything`);
    await page.waitForURL(/\/login\?next=/);
    await page.getByLabel('Email', { exact: true }).fill(tia.email);
    await page.getByLabel('Password', { exact: true }).fill(tia.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/faq?q=anything');
    await expect(page.getByRole('textbox', { name: 'Search FAQ' }).inputValue()).resolves.toBe('anything');

    // The super admin swaps FAQ for Tags; the next refused call re-reads the rights and the route check moves her.
    await h.api('PATCH', `/api/admin/sub-admins/${tiaId}`, { restriction: [{ name: 'Tags', canView: true, canEdit: false }] }, superToken);
    await page.getByRole('textbox', { name: 'Search FAQ' }).fill('other');
    await page.waitForURL('**/tags', { timeout: 15000 });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Tags' }).waitFor();
    expect(await nav.getByRole('link', { name: 'FAQ' }).count()).toBe(0);
  });
  it('pages a keyset list forward and back: Previous shows the same rows again, and the position says where it is', async () => {
    for (let i = 0; i < 26; i++) {
      const res = await h.api('POST', '/api/admin/tags', { name: `Keyset walk ${String(i).padStart(2, '0')}` }, superToken);
      expect(res.status).toBe(200);
    }
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/audit-log?limit=10`);
    const rows = async () => {
      // Until the page's rows have arrived the table shows the last ones, dimmed and busy.
      await page.locator('main table[aria-busy="false"] tbody tr').first().waitFor();
      return page.locator('main tbody tr').allInnerTexts();
    };
    const position = page.getByTestId('list-position');
    await expect.poll(() => position.innerText(), { timeout: 15_000 }).toMatch(/^Page 1 · 1–10 of/);
    const first = await rows();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => position.innerText(), { timeout: 15_000 }).toMatch(/^Page 2 · 11–20 of/);
    const second = await rows();
    expect(second).not.toEqual(first);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => position.innerText(), { timeout: 15_000 }).toMatch(/^Page 3 · 21–30 of/);
    const third = await rows();
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => position.innerText(), { timeout: 15_000 }).toMatch(/^Page 2 · 11–20 of/);
    expect(await rows()).toEqual(second);
    // The address keeps the place: a reload shows the same page.
    await page.reload();
    await expect.poll(() => position.innerText(), { timeout: 15_000 }).toMatch(/^Page 2 · 11–20 of/);
    expect(await rows()).toEqual(second);
    await page.getByRole('button', { name: 'Previous' }).click();
    await expect.poll(() => position.innerText(), { timeout: 15_000 }).toMatch(/^Page 1 · 1–10 of/);
    expect(await rows()).toEqual(first);
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    expect(third).not.toEqual(second);
  });
});
