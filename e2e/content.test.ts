import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, reportFailures, startHarness, type Harness } from './harness';

/**
 * Mail and content, done when: an admin edits a template, previews it (the preview cannot run
 * script), sends a test mail and sees it arrive at the SMTP server; creates a CMS page, publishes
 * it, and the platform reads it from /api/public/cms/:slug.
 */
let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startHarness();
  mkdirSync(SCREENSHOTS, { recursive: true });
  token = await h.loginToken(h.adminEmail, h.adminPassword);
});

reportFailures(() => h);

afterAll(async () => {
  await h?.stop();
});

const main = (page: Page) => page.locator('main');

/** Script that would leave a trace if it ever ran: a console message, a title or a DOM change in the app. */
const HOSTILE =
  '<p>Hi {{username}}</p><script>console.log("PWNED-script"); parent.document.title = "PWNED";</script>' +
  '<img src="x" onerror="console.log(\'PWNED-onerror\'); parent.document.body.setAttribute(\'data-pwned\', \'1\')">' +
  '<a href="javascript:console.log(\'PWNED-href\')">link</a>';

describe('email templates and CMS pages', () => {
  it('edits a template, previews it in a sandbox where nothing runs, sends a test mail that arrives', async () => {
    const page = await h.newPage();
    const consoleLines: string[] = [];
    page.on('console', (m) => consoleLines.push(m.text()));
    page.on('pageerror', (e) => consoleLines.push(e.message));
    await h.signIn(page, h.adminEmail, h.adminPassword);

    await page.goto(`${h.baseUrl}/email-template-list`);
    await main(page).getByRole('cell', { name: 'Withdrawal approved' }).click();
    await page.waitForURL(/\/updatetemplate\/\d+/);
    const id = new URL(page.url()).pathname.split('/').pop()!;

    // Edit: a new subject, and a body that tries to run script.
    const subject = page.getByRole('textbox', { name: /^Subject/ });
    await subject.fill('Approved: {{amount}} is on its way, {{username}}');
    const body = page.getByRole('textbox', { name: /^Body \(HTML\)/ });
    await body.fill(HOSTILE);

    // Preview the unsaved edit.
    await page.getByRole('tab', { name: 'Preview' }).click();
    await expect.poll(() => page.getByTestId('preview-subject').textContent(), { timeout: 10_000 }).toBe('Approved: 125.5 USDC is on its way, luna_trader');
    const frame = page.getByTestId('sandboxed-preview');
    await expect(frame.getAttribute('sandbox')).resolves.toBe('');
    expect(await frame.getAttribute('srcdoc')).toContain("script-src 'none'");
    const inner = page.frameLocator('[data-testid="sandboxed-preview"]');
    await expect.poll(() => inner.locator('body').innerText()).toContain('Hi luna_trader');
    // Change a sample value: the preview follows, escaped.
    await page.getByRole('textbox', { name: /username/ }).fill('<b>Mallory</b>');
    await expect.poll(() => inner.locator('body').innerText()).toContain('Hi <b>Mallory</b>');

    // The sandbox itself: even markup the sanitiser would never let through runs nothing in this frame.
    await frame.evaluate((el, html) => {
      (el as HTMLIFrameElement).srcdoc = (el as HTMLIFrameElement).srcdoc.replace(/<body([^>]*)>/, `<body$1>${html}`);
    }, HOSTILE);
    await expect.poll(() => inner.locator('a').count()).toBeGreaterThan(0);
    await page.waitForTimeout(500);
    expect(consoleLines.filter((l) => l.includes('PWNED'))).toEqual([]);
    await expect(page.title()).resolves.not.toBe('PWNED');
    await expect(page.locator('body').getAttribute('data-pwned')).resolves.toBeNull();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'content-template-preview.png'), fullPage: true });

    // Save: the body is sanitised on the server.
    await page.getByRole('tab', { name: 'Details' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Email template updated').first().waitFor();
    const saved = await h.api<{ html: string; subject: string }>('GET', `/api/admin/email-templates/${id}`, undefined, token);
    expect(saved.body.result!.html).toBe('<p>Hi {{username}}</p><img src="x" /><a>link</a>');

    // Send a test mail from the template's page; it arrives at the SMTP server.
    await page.goto(`${h.baseUrl}/updatetemplate/${id}`);
    await page.getByRole('textbox', { name: /^Subject/ }).waitFor();
    const before = h.mails.length;
    await page.getByRole('button', { name: 'Send test mail' }).first().click();
    await page.getByRole('dialog').getByLabel('Send to').fill('qa.inbox@pitboss.test');
    await page.getByRole('dialog').getByRole('button', { name: 'Send test mail' }).click();
    await page.getByText(/Test mail queued for qa.inbox@pitboss.test/).first().waitFor();
    const mail = await h.waitForMail('qa.inbox@pitboss.test', { after: before });
    expect(mail.text).toContain('[Test] Approved: 125.5 USDC is on its way, luna_trader');
    expect(mail.text).toContain('Hi luna_trader');
    expect(mail.text).not.toContain('<script');
    expect(consoleLines.filter((l) => l.includes('PWNED'))).toEqual([]);

    // The outbox page lists it as sent.
    await page.goto(`${h.baseUrl}/mail-outbox?q=qa.inbox`);
    await main(page).getByRole('cell', { name: 'qa.inbox@pitboss.test' }).first().waitFor();
    await expect.poll(() => main(page).locator('tbody tr').first().innerText()).toMatch(/\bSent\b/i);
  });

  it('creates a CMS page, publishes it, and the platform reads it from /api/public/cms/:slug', async () => {
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/cms-list`);
    await main(page).getByRole('link', { name: /Add CMS page/ }).first().click();
    await page.waitForURL('**/add-cms');
    await page.getByRole('textbox', { name: /^Title/ }).fill('Fees and limits');
    await page.getByRole('textbox', { name: /^Slug/ }).fill('Fees and limits');
    const bodyBox = page.getByRole('textbox', { name: /^Body/ });
    await bodyBox.click();
    await page.keyboard.type('Trading costs 1% per fill.');
    await page.getByRole('textbox', { name: /^Meta description/ }).fill('What trading costs on Pitboss.');
    await page.getByRole('button', { name: 'Create CMS page' }).click();
    // The slug must be lowercase words joined by dashes: refused, nothing created.
    await page.getByText(/Lowercase letters and digits/).first().waitFor();
    await page.getByRole('textbox', { name: /^Slug/ }).fill('fees-and-limits');
    await page.getByRole('button', { name: 'Create CMS page' }).click();
    await page.waitForURL('**/cms-list');
    expect((await h.api('GET', '/api/public/cms/fees-and-limits')).status).toBe(404);

    await main(page).getByRole('cell', { name: 'Fees and limits' }).click();
    await page.waitForURL(/\/update-cms\/\d+/);
    await page.getByRole('tab', { name: 'Preview' }).click();
    const inner = page.frameLocator('[data-testid="sandboxed-preview"]');
    await expect.poll(() => inner.locator('body').innerText()).toContain('Trading costs 1% per fill.');
    await page.getByRole('button', { name: 'Publish' }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Publish' }).click();
    await page.getByTestId('record-state').filter({ hasText: 'Published' }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'content-cms-page.png'), fullPage: true });

    const res = await fetch(`${h.baseUrl}/api/public/cms/fees-and-limits`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=60/);
    const json = (await res.json()) as { result: { title: string; body: string; metaDescription: string } };
    expect(json.result).toMatchObject({ title: 'Fees and limits', metaDescription: 'What trading costs on Pitboss.' });
    expect(json.result.body).toBe('<p>Trading costs 1% per fill.</p>');
  });
  it('opens a saved page with a link, a list and a closing quote unchanged: no "Unsaved changes", nothing to save, leaving asks nothing', async () => {
    // The editor writes such HTML its own way (target="_blank", <li><p>, a paragraph after a final
    // quote); making the field editable once loaded must not hand that back to the form as an edit.
    const body = '<p>Write to <a href="mailto:help@pitboss.local">support</a>.</p><ul><li>One</li><li>Two</li></ul><blockquote><p>Quoted</p></blockquote>';
    const created = await h.api<{ _id: string }>('POST', '/api/admin/cms-pages', { title: 'Help', slug: 'help-normalised', body }, token);
    expect(created.status).toBe(200);
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/update-cms/${created.body.result!._id}`);
    await page.getByRole('textbox', { name: /^Body/ }).getByText('Quoted').waitFor();
    await page.waitForTimeout(500);
    expect(await main(page).getByText('Unsaved changes').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
    await page.getByRole('link', { name: 'CMS pages' }).first().click();
    await page.waitForURL('**/cms-list');
    // A real edit still counts.
    await page.goto(`${h.baseUrl}/update-cms/${created.body.result!._id}`);
    const bodyBox = page.getByRole('textbox', { name: /^Body/ });
    await bodyBox.getByText('Quoted').click();
    await page.keyboard.type(' more');
    await main(page).getByText('Unsaved changes').waitFor();
  });
});
