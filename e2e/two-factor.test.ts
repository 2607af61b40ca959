import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { reportFailures, SCREENSHOTS, startHarness, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.stop();
});

reportFailures(() => h);

/** What an authenticator app shows `steps` 30 s steps from now (the same library the server uses). */
const codeOf = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + steps * 30_000 });

async function signOut(page: Page) {
  await page.getByTestId('admin-name').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
}

/** The password step: with 2FA on, the page stays on /login and asks for the code. */
async function passwordStep(page: Page, email: string, password: string) {
  await page.goto(`${h.baseUrl}/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
}

describe('two-factor authentication in the browser', () => {
  it('enrols with a computed code, signs in with a code, refuses it again, and takes a recovery code', async () => {
    const email = 'totp-admin@pitboss.test';
    const password = 'Totp-e2e-Strong#2024';
    await h.createSubAdmin({ name: 'Totp Admin', email, password, restriction: [{ name: 'FAQ', canView: true, canEdit: false }] });
    const page = await h.newPage();
    await h.signIn(page, email, password);

    // Enrol: password, QR code and key, first code.
    await page.goto(`${h.baseUrl}/2fa-settings`);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]+$/);
    await page.getByLabel('Code from the app').fill(codeOf(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    const recovery = await page.locator('[data-recovery-code]').evaluateAll((els) => els.map((e) => e.getAttribute('data-recovery-code') ?? ''));
    expect(recovery).toHaveLength(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('10 recovery codes left').waitFor();
    await signOut(page);

    // Password, then a code (the enrolment used this step's: the next one).
    const code = codeOf(secret, 1);
    await passwordStep(page, email, password);
    expect(await page.evaluate(() => Object.keys(localStorage).length)).toBe(0);
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await signOut(page);

    // The same code again: refused.
    await passwordStep(page, email, password);
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('This code is wrong or was already used').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');

    // A recovery code instead.
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(recovery[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.goto(`${h.baseUrl}/2fa-settings`);
    await page.getByText('9 recovery codes left').waitFor();
  });

  // Last in this file: it leaves the site requiring 2FA (the super admin, without it, is confined too).
  it('a forced-2FA admin without it sees only the 2FA page in the sidebar, menu and palette, until enrolled', async () => {
    const email = 'confined-admin@pitboss.test';
    const password = 'Confined-e2e-Strong#1';
    await h.createSubAdmin({ name: 'Confined Admin', email, password, restriction: [{ name: 'FAQ', canView: true, canEdit: false }] });
    const superToken = await h.loginToken(h.adminEmail, h.adminPassword);
    expect((await h.api('POST', '/api/admin/updateSiteDetails', { requireTwoFactor: true }, superToken)).status).toBe(200);

    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await h.newPage({ colorScheme });
      if (colorScheme === 'light') await h.signIn(page, email, password);
      else await h.signIn(page, h.adminEmail, h.adminPassword);
      await page.waitForURL('**/2fa-settings');
      const nav = page.getByRole('navigation', { name: 'Main' });
      await page.getByTestId('confined-note').waitFor();
      expect(await nav.getByRole('link').allInnerTexts()).toEqual(['2FA settings']);
      // No search, no bell; the account menu offers the 2FA page, appearance and sign-out only.
      expect(await page.getByTestId('open-palette').count()).toBe(0);
      await page.keyboard.press('Control+K');
      await page.waitForTimeout(300);
      expect(await page.getByPlaceholder(/Search/).count()).toBe(0);
      await page.getByTestId('admin-name').click();
      await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
      const items = await page.getByRole('menuitem').allInnerTexts();
      expect(items.map((t) => t.trim())).toEqual(['2FA settings', 'Light', 'Dark', 'As the system', 'Logout']);
      await page.screenshot({ path: path.join(SCREENSHOTS, `two-factor-confined-${colorScheme}.png`) });
      await page.keyboard.press('Escape');
      // A page they hold the right to still brings them back here.
      await page.goto(`${h.baseUrl}/faq`);
      await page.waitForURL('**/2fa-settings');
      if (colorScheme === 'light') {
        // Enrolled: the sidebar offers their pages again, without a reload.
        await page.getByLabel('Password', { exact: true }).fill(password);
        await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
        const secret = (await page.getByTestId('totp-secret').innerText()).trim();
        await page.getByLabel('Code from the app').fill(codeOf(secret));
        await page.getByRole('button', { name: 'Turn on' }).click();
        await page.getByRole('button', { name: 'I have saved them' }).click();
        // FAQ's group (closed until opened) and the dashboard are back.
        await nav.getByText('Admin Settings').waitFor({ timeout: 15_000 });
        await nav.getByRole('link', { name: 'Dashboard' }).waitFor();
        expect(await page.getByTestId('confined-note').count()).toBe(0);
      }
      // The next sign-in (dark) is the super admin's: confined as well, having no 2FA.
      await page.close();
    }
  });
});
