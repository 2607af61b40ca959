import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFailures, startHarness, type Harness } from './harness';

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
