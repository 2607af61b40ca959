import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFailures, startHarness, type Harness } from './harness';

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
});
