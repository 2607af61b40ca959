import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFailures, SCREENSHOTS, startHarness, type Harness } from './harness';

/**
 * Saved views as admins use them: one saves the FAQ list's search, filter and columns under a name
 * and shares it; another, in another browser, opens it from the Views menu, makes it their default
 * and gets it on their next plain visit; an admin of other lists gets no views of this one; a view
 * naming a filter and a column the list no longer has opens without them, and says so.
 */
let h: Harness;
let superToken: string;

beforeAll(async () => {
  h = await startHarness();
  mkdirSync(SCREENSHOTS, { recursive: true });
  superToken = await h.loginToken(h.adminEmail, h.adminPassword);
});
reportFailures(() => h);
afterAll(async () => {
  await h?.stop();
});

const FAQ_VIEWER = [{ name: 'FAQ', canView: true, canEdit: false }];
const ada = { name: 'Ada Views', email: 'ada.views@pitboss.test', password: 'Ada-Views-Strong#2024' };
const ben = { name: 'Ben Views', email: 'ben.views@pitboss.test', password: 'Ben-Views-Strong#2024' };
const cy = { name: 'Cy Tags', email: 'cy.tags@pitboss.test', password: 'Cy-Tags-Strong#2024' };

/** Pages load their chunks and rows at their pace: a poll waits as long as a locator would. */
const WAIT = { timeout: 15_000 };
const rows = (page: Page) => page.locator('main table tbody tr');
const headers = (page: Page) => page.locator('main table thead th').allInnerTexts();
const openViewsMenu = async (page: Page) => {
  // A menu closed just before (Columns) stays in the page while it fades out: wait until it is gone.
  await expect.poll(() => page.getByRole('menu').count(), WAIT).toBe(0);
  await page.getByRole('button', { name: /^Views/ }).click();
  await page.getByRole('menu').waitFor();
};

describe('saved views', () => {
  it('saves and shares a view; another admin opens it, makes it their default and gets it on the next visit', async () => {
    for (const [question, category] of [['How do refunds work?', 'Billing'], ['Refund of a cancelled order', 'Orders'], ['How do I sign up?', 'Account']] as const) {
      const res = await h.api('POST', '/api/admin/faqs', { question, answer: `<p>${question}</p>`, category }, superToken);
      expect(res.status).toBe(200);
    }
    await h.createSubAdmin({ ...ada, restriction: FAQ_VIEWER });
    await h.createSubAdmin({ ...ben, restriction: FAQ_VIEWER });
    await h.createSubAdmin({ ...cy, restriction: [{ name: 'Tags', canView: true, canEdit: false }] });

    // Ada narrows the list: a search, a filter, a column hidden.
    const page = await h.newPage();
    await h.signIn(page, ada.email, ada.password);
    await page.goto(`${h.baseUrl}/faq?category=Billing`);
    await page.getByRole('textbox', { name: 'Search FAQ' }).fill('refund');
    await page.waitForURL((u) => u.searchParams.get('q') === 'refund');
    await expect.poll(() => rows(page).count(), WAIT).toBe(1);
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Order' }).uncheck();
    await page.keyboard.press('Escape');
    await expect.poll(() => headers(page), WAIT).not.toContain('Order');

    await openViewsMenu(page);
    await page.getByRole('menuitem', { name: 'Save current view…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save current view' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Billing refunds');
    await dialog.getByRole('checkbox', { name: /^Share with every admin/ }).check();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'saved-views-save.png') });
    await dialog.getByRole('button', { name: 'Save view' }).click();
    await page.getByText('View "Billing refunds" saved').waitFor();
    await page.getByRole('button', { name: 'Views (open: Billing refunds)' }).waitFor();

    // Ben, in his own browser, finds it shared with him and opens it.
    const other = await h.newPage({ colorScheme: 'dark' });
    await h.signIn(other, ben.email, ben.password);
    await other.goto(`${h.baseUrl}/faq`);
    await expect.poll(() => rows(other).count(), WAIT).toBe(3);
    await openViewsMenu(other);
    expect(await other.getByRole('menu').innerText()).toContain('Shared with me');
    await other.waitForTimeout(400);
    await other.screenshot({ path: path.join(SCREENSHOTS, 'saved-views-menu-dark.png') });
    await other.getByRole('menuitem', { name: /Billing refunds/ }).click();
    await other.waitForURL((u) => u.searchParams.get('q') === 'refund' && u.searchParams.get('category') === 'Billing');
    await expect.poll(() => rows(other).count(), WAIT).toBe(1);
    expect(await rows(other).innerText()).toContain('How do refunds work?');
    await expect.poll(() => headers(other), WAIT).not.toContain('Order');

    // Not his to rename or delete; his to make his default.
    await openViewsMenu(other);
    await other.getByRole('menuitem', { name: 'Manage views…' }).click();
    const manage = other.getByRole('dialog', { name: 'Saved views' });
    const row = manage.getByTestId('saved-view-row').filter({ hasText: 'Billing refunds' });
    expect(await row.innerText()).toContain('by Ada Views');
    expect(await row.getByRole('button', { name: /^Rename/ }).count()).toBe(0);
    expect(await row.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    await row.getByRole('button', { name: 'Set Billing refunds as my default' }).click();
    await row.getByRole('button', { name: 'Clear Billing refunds as my default' }).waitFor();
    await other.screenshot({ path: path.join(SCREENSHOTS, 'saved-views-manage-dark.png') });
    await other.keyboard.press('Escape');

    // His next plain visit, in a fresh browser, opens his default.
    const later = await h.newPage();
    await h.signIn(later, ben.email, ben.password);
    await later.goto(`${h.baseUrl}/faq`);
    await later.waitForURL((u) => u.searchParams.get('q') === 'refund' && u.searchParams.get('category') === 'Billing');
    await expect.poll(() => rows(later).count(), WAIT).toBe(1);
    await later.getByRole('button', { name: 'Views (open: Billing refunds)' }).waitFor();
    // A link with its own parameters is not overridden.
    await later.goto(`${h.baseUrl}/faq?category=Account`);
    await expect.poll(() => rows(later).count(), WAIT).toBe(1);
    expect(await rows(later).innerText()).toContain('How do I sign up?');
    expect(new URL(later.url()).searchParams.get('q')).toBeNull();
    // The button names a view only while the list shows it.
    await later.getByRole('button', { name: 'Views', exact: true }).waitFor();

    // An admin of other lists gets neither the list's views nor a menu to find them.
    const cyToken = await h.loginToken(cy.email, cy.password);
    expect((await h.api('GET', '/api/admin/saved-views?list=%2Ffaq', undefined, cyToken)).status).toBe(403);
  });

  it('a view naming a filter and a column the list no longer has opens without them and says so', async () => {
    const adaToken = await h.loginToken(ada.email, ada.password);
    const saved = await h.api('POST', '/api/admin/saved-views', {
      list: '/faq',
      name: 'From before',
      state: { filters: { region: 'EU', category: 'Orders' }, sort: '-question', q: '', columns: ['question', 'legacyScore', 'category'] },
    }, adaToken);
    expect(saved.status).toBe(200);

    for (const scheme of ['light', 'dark'] as const) {
      const page = await h.newPage({ colorScheme: scheme });
      await h.signIn(page, ada.email, ada.password);
      await page.goto(`${h.baseUrl}/faq`);
      await openViewsMenu(page);
      await page.getByRole('menuitem', { name: /From before/ }).click();
      await page.waitForURL((u) => u.searchParams.get('category') === 'Orders');
      const url = new URL(page.url());
      expect(url.searchParams.get('region')).toBeNull();
      expect(url.searchParams.get('sort')).toBe('-question');
      const notice = page.getByTestId('saved-view-notice');
      await notice.waitFor();
      const text = await notice.innerText();
      expect(text).toContain('View "From before" opened without what this list no longer has');
      expect(text).toContain('filter "region"');
      expect(text).toContain('column "legacyScore"');
      await expect.poll(() => rows(page).count(), WAIT).toBe(1);
      expect(await rows(page).innerText()).toContain('Refund of a cancelled order');
      await expect.poll(() => headers(page), WAIT).toEqual(expect.arrayContaining(['Question', 'Category']));
      expect(await headers(page)).not.toContain('Status');
      await page.screenshot({ path: path.join(SCREENSHOTS, `saved-views-dropped-${scheme}.png`) });
    }
  });
});
