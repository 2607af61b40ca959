import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { reportFailures, SCREENSHOTS, startHarness, type Harness } from './harness';

/**
 * Comfort of the shell: rights changed by another admin follow a signed-in sub-admin without a
 * reload (granted: the sidebar shows it; taken away while on the page: moved, and told why), and a
 * record that does not exist says so without a Retry button.
 */
let h: Harness;
let superToken: string;

beforeAll(async () => {
  h = await startHarness();
  superToken = await h.loginToken(h.adminEmail, h.adminPassword);
});
reportFailures(() => h);
afterAll(async () => {
  await h?.stop();
});

describe('rights and missing records', () => {
  it('a right granted shows in the sidebar at the next call; a right taken away moves the sub-admin and says so', async () => {
    const ria = { name: 'Ria Rights', email: 'ria.rights@pitboss.test', password: 'Ria-Rights-Strong#1' };
    await h.createSubAdmin({ ...ria, restriction: [{ name: 'FAQ', canView: true, canEdit: false }] });
    const listed = await h.api<{ items: { _id: string }[] }>('GET', `/api/admin/sub-admins?q=${encodeURIComponent(ria.email)}`, undefined, superToken);
    const id = listed.body.result!.items[0]!._id;
    const page = await h.newPage();
    await h.signIn(page, ria.email, ria.password);
    await page.goto(`${h.baseUrl}/faq`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'FAQ' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Tags' }).count()).toBe(0);

    // Granted: no 403 to prompt it; the next answer's rights header differs, the sidebar follows.
    await h.api('PATCH', `/api/admin/sub-admins/${id}`, { restriction: [{ name: 'FAQ', canView: true, canEdit: false }, { name: 'Tags', canView: true, canEdit: false }] }, superToken);
    await page.getByRole('textbox', { name: 'Search FAQ' }).fill('anything');
    await nav.getByRole('link', { name: 'Tags' }).waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).pathname).toBe('/faq');

    // Taken away while on the page: moved to the first page she may view, with the reason.
    await h.api('PATCH', `/api/admin/sub-admins/${id}`, { restriction: [{ name: 'Tags', canView: true, canEdit: false }] }, superToken);
    await page.getByRole('textbox', { name: 'Search FAQ' }).fill('other');
    await page.waitForURL('**/tags', { timeout: 15_000 });
    await page.getByText('Your access to that page was removed').waitFor({ timeout: 10_000 });
    expect(await nav.getByRole('link', { name: 'FAQ' }).count()).toBe(0);
  });

  it('a server error is said once: a taken tag name on its field, no toast besides', async () => {
    expect((await h.api('POST', '/api/admin/tags', { name: 'Said Once' }, superToken)).status).toBe(200);
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/add-tag`);
    await page.getByRole('textbox', { name: /^Name/ }).fill('said once');
    await page.getByRole('button', { name: 'Create tag' }).click();
    await page.getByText('A tag with this name exists').waitFor({ timeout: 15_000 });
    await page.waitForTimeout(1_000);
    expect(await page.locator('[data-toast-type="error"]').count()).toBe(0);
    expect(await page.getByText('A tag with this name exists').count()).toBe(1);
  });

  it('a form with unsaved changes asks before the admin leaves it: Stay keeps what was typed, Leave goes and changes nothing', async () => {
    const made = await h.api<{ _id: string }>('POST', '/api/admin/tags', { name: 'Unsaved Edits' }, superToken);
    expect(made.status).toBe(200);
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/update-tag/${made.body.result!._id}`);
    const name = page.getByRole('textbox', { name: /^Name/ });
    await expect.poll(() => name.inputValue()).toBe('Unsaved Edits');
    // Untouched, the form lets the admin go without a question.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQ', exact: true }).click();
    await page.waitForURL('**/faq');
    await page.goBack();
    await expect.poll(() => name.inputValue()).toBe('Unsaved Edits');

    await name.fill('Unsaved Edits, changed');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQ', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Leave without saving?').waitFor();
    await dialog.getByText('Your changes to this tag have not been saved.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(`/update-tag/${made.body.result!._id}`);
    expect(await name.inputValue()).toBe('Unsaved Edits, changed');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQ', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL('**/faq');
    const stored = await h.api<{ name: string }>('GET', `/api/admin/tags/${made.body.result!._id}`, undefined, superToken);
    expect(stored.body.result!.name).toBe('Unsaved Edits');
  });

  it('a record that does not exist says so, with the way back and no Retry', async () => {
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/update-tag/987654321`);
    await page.getByText('This tag does not exist').waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Back to tags' }).click();
    await page.waitForURL('**/tags');
  });
});

describe('filters and values people read', () => {
  it("picks the audit log's resource by its title, submits the API name, and shows titles in the column", async () => {
    expect((await h.api('POST', '/api/admin/tags', { name: 'Picked By Title' }, superToken)).status).toBe(200);
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await h.newPage({ colorScheme });
      await h.signIn(page, h.adminEmail, h.adminPassword);
      await page.goto(`${h.baseUrl}/audit-log`);
      const picker = page.getByRole('combobox', { name: 'Resource' });
      await picker.click();
      await picker.fill('Sub mod');
      await page.getByRole('option', { name: 'Sub modules' }).waitFor();
      await picker.fill('Tag');
      await page.getByRole('option', { name: 'Tags', exact: true }).waitFor();
      if (colorScheme === 'dark') await page.screenshot({ path: path.join(SCREENSHOTS, 'audit-log-resource-picker-dark.png') });
      await page.getByRole('option', { name: 'Tags', exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get('resource') === 'tags');
      const table = page.locator('table').first();
      // The column shows the title (the API name on hover), the action its label.
      await expect.poll(async () => [...new Set((await table.locator('tbody tr td:nth-child(4)').allInnerTexts()).map((t) => t.trim()))], { timeout: 15_000 }).toEqual(['Tags']);
      expect(await table.locator('tbody tr td:nth-child(4) [title="tags"]').count()).toBeGreaterThan(0);
      expect(await table.locator('tbody tr').first().getByText('Created', { exact: true }).count()).toBe(1);
      if (colorScheme === 'light') await page.screenshot({ path: path.join(SCREENSHOTS, 'audit-log-resource-filtered-light.png') });
      await page.close();
    }
  });

  it('filters dates on a calendar, written like every other date, in the URL as days', async () => {
    expect((await h.api('POST', '/api/admin/tags', { name: 'Dated Today' }, superToken)).status).toBe(200);
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/audit-log`);
    const range = page.getByTestId('date-range-createdAt');
    // A single day: today, picked twice on the calendar.
    await range.click();
    const today = page.locator('[data-today]:not([data-outside])').first();
    await today.click();
    await today.click();
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
    await page.waitForURL((url) => url.searchParams.get('createdAt_from') === day && url.searchParams.get('createdAt_to') === day);
    // Today's entries (this run's tag among them).
    await page.keyboard.press('Escape');
    await page.locator('td', { hasText: /^Tags$/ }).first().waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'audit-log-date-range-light.png') });
    // A day with nothing: the list says so.
    await page.goto(`${h.baseUrl}/audit-log?createdAt_from=2026-01-05&createdAt_to=2026-01-05`);
    await page.getByText('No audit log match these filters').waitFor();
    // A link's range reads like every other date.
    await page.goto(`${h.baseUrl}/audit-log?createdAt_from=2026-01-05&createdAt_to=2026-02-03`);
    await range.waitFor();
    expect((await range.innerText()).trim()).toBe('5 Jan 2026 – 3 Feb 2026');
    await page.getByRole('button', { name: /^Clear filters \(/ }).click();
    await page.waitForURL((url) => !url.searchParams.has('createdAt_from'));
    await expect.poll(() => range.innerText()).not.toContain('2026');
  });

  it('shows a sign-in device as browser and OS, the raw user agent on hover', async () => {
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    const ua = await page.evaluate(() => navigator.userAgent);
    await page.goto(`${h.baseUrl}/loginHistory`);
    const cell = page.locator('table tbody tr').first().locator('td', { hasText: / on Linux$/ });
    await cell.waitFor();
    expect((await cell.innerText()).trim()).toMatch(/^Chrome( Headless)? \d+ on Linux$/);
    expect(await cell.locator('[title]').getAttribute('title')).toBe(ua);
  });
});

