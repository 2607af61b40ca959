import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFailures, startHarness, type Harness, newPlatformKey, platformResult } from './harness';

/**
 * References and bulk actions, as an operator uses them: the Withdraw list filtered by a user picked
 * by typing part of their name (the link keeps the id, a reload keeps the name), the same filter as a
 * plain id box for an admin who may not view users (and no call to the users API), and a bulk
 * approve over a selection where one request was already rejected: the others are approved, the
 * skipped one is listed with the reason.
 */
const PLATFORM_KEY = newPlatformKey();
let h: Harness;
let superToken: string;
const approver = { name: 'Bea Bulk', email: 'bea.bulk@pitboss.test', password: 'Bea-Bulk-Harbour#42' };
const blind = { name: 'Nia Nousers', email: 'nia.nousers@pitboss.test', password: 'Nia-Sees-Lanterns#51' };
const users: Record<string, string> = {};
/** The page settles after its queries answer: a busy machine may take a few seconds. */
const POLL = { timeout: 15_000 };
const requests: Record<string, string[]> = {};

const platform = <T>(path: string, body: unknown) => platformResult<T>(h, PLATFORM_KEY, 'POST', path, body);

beforeAll(async () => {
  h = await startHarness({ env: { PLATFORM_API_KEY: PLATFORM_KEY } });
  superToken = await h.loginToken(h.adminEmail, h.adminPassword);
  await h.createSubAdmin({ ...approver, restriction: [{ name: 'Withdraw', canView: true, canEdit: false, rights: ['approve'] }, { name: 'Users', canView: true, canEdit: false }] });
  await h.createSubAdmin({ ...blind, restriction: [{ name: 'Withdraw', canView: true, canEdit: false }] });
  // Names that share a prefix: typing part of one must find that one.
  for (const username of ['marlowe_quill', 'marlene_dietz', 'oskar_brandt']) {
    const user = await platform<{ _id: string }>('users', { username, email: `${username}@players.test`, country: 'DE' });
    users[username] = user._id;
    const deposit = await platform<{ _id: string }>('deposits', { userId: user._id, coin: 'USDC', amount: '90000000', txSignature: bs58.encode(randomBytes(64)), fromAddress: bs58.encode(randomBytes(32)) });
    expect((await h.api('POST', `/api/admin/deposits/${deposit._id}/confirm`, {}, superToken)).status).toBe(200);
    requests[username] = [];
    for (const amount of ['3000000', '4000000']) {
      const w = await platform<{ _id: string }>('withdrawals', { userId: user._id, coin: 'USDC', amount, toAddress: bs58.encode(randomBytes(32)) });
      requests[username].push(w._id);
    }
  }
});

reportFailures(() => h);

afterAll(async () => {
  await h?.stop();
});

describe('reference filters and bulk actions, end to end', () => {
  it('filters withdrawals by a user picked by typing part of the name; the link keeps the id and a reload the name', async () => {
    const page = await h.newPage();
    await h.signIn(page, approver.email, approver.password);
    await page.goto(`${h.baseUrl}/withdraw`);
    await page.locator(`tr[data-row-id="${requests.oskar_brandt![0]}"]`).waitFor();
    const picker = page.getByRole('combobox', { name: 'User' });
    await picker.click();
    await picker.fill('marlo');
    // The server searched: the matching user, with the id, and not the one sharing only "marl".
    await page.getByRole('option', { name: /marlene_dietz/ }).waitFor({ state: 'detached' });
    const option = page.getByRole('option', { name: /marlowe_quill/ });
    await option.waitFor();
    await expect(option.textContent()).resolves.toContain(`#${users.marlowe_quill}`);
    // The options settle on the server's answer (typing shows interim lists while the search runs).
    await expect.poll(() => page.getByRole('option').count(), POLL).toBe(1);
    await expect(page.getByRole('option').first().textContent()).resolves.toContain('marlowe_quill');
    await page.screenshot({ path: 'e2e/screenshots/reference-picker.png' });
    await option.click();
    await page.waitForURL((url) => url.searchParams.get('userId') === users.marlowe_quill);
    for (const id of requests.marlowe_quill!) await page.locator(`tr[data-row-id="${id}"]`).waitFor();
    await expect.poll(() => page.locator('tbody tr[data-row-id]').count(), POLL).toBe(2);

    await page.reload();
    // The name is read back by id (the link holds only the id).
    await expect.poll(() => page.getByRole('combobox', { name: 'User' }).inputValue(), POLL).toBe('marlowe_quill');
    await page.locator(`tr[data-row-id="${requests.marlowe_quill![0]}"]`).waitFor();
    await expect.poll(() => page.locator('tbody tr[data-row-id]').count(), POLL).toBe(2);
    await page.screenshot({ path: 'e2e/screenshots/reference-filter.png' });
  });

  it('edits a sub-module\'s module in its form: the current one shown by name, another picked by typing', async () => {
    const found = await h.api<{ items: { _id: string; name: string; moduleId: string; moduleName: string }[] }>('GET', '/api/admin/sub-modules?q=Tags', undefined, superToken);
    const tags = found.body.result!.items.find((i) => i.name === 'Tags')!;
    const modules = await h.api<{ items: { _id: string; name: string }[] }>('GET', '/api/admin/modules?q=card', undefined, superToken);
    const card = modules.body.result!.items.find((m) => m.name === 'Card')!;
    expect(tags.moduleId).not.toBe(card._id);

    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/update-sub-modules/${tags._id}`);
    const field = page.getByRole('combobox', { name: 'Module' });
    await expect.poll(() => field.inputValue(), POLL).toBe(tags.moduleName);
    await field.click();
    await field.fill('car');
    await page.getByRole('option', { name: /^Card/ }).click();
    await expect.poll(() => field.inputValue(), POLL).toBe('Card');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Sub module updated').waitFor();
    const after = await h.api<{ moduleId: string }>('GET', `/api/admin/sub-modules/${tags._id}`, undefined, superToken);
    expect(after.body.result!.moduleId).toBe(card._id);
    // Put back, for the other tests.
    expect((await h.api('PATCH', `/api/admin/sub-modules/${tags._id}`, { moduleId: tags.moduleId }, superToken)).status).toBe(200);
  });

  it('offers an admin who may not view users the users by name through the list\'s own choices, and never asks the users API', async () => {
    const page = await h.newPage();
    const usersCalls: string[] = [];
    const choicesCalls: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/admin/users')) usersCalls.push(r.url());
      if (path === '/api/admin/withdrawals/choices/filter/userId') choicesCalls.push(r.url());
    });
    await h.signIn(page, blind.email, blind.password);
    await page.goto(`${h.baseUrl}/withdraw?userId=${users.oskar_brandt}`);
    // The id from the address shows as the user's name.
    const field = page.getByRole('combobox', { name: 'User' });
    await expect.poll(() => field.inputValue(), POLL).toBe('oskar_brandt');
    await page.locator(`tr[data-row-id="${requests.oskar_brandt![1]}"]`).waitFor();
    await expect.poll(() => page.locator('tbody tr[data-row-id]').count(), POLL).toBe(2);
    // Another user, found by part of the name.
    await field.click();
    const searched = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/admin/withdrawals/choices/filter/userId' && new URL(r.url()).searchParams.get('q') === 'marl');
    await field.fill('marl');
    await searched;
    await page.getByRole('option', { name: /^marlene_dietz/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('userId'), POLL).toBe(users.marlene_dietz);
    await page.locator(`tr[data-row-id="${requests.marlene_dietz![0]}"]`).waitFor();
    // A view-only admin gets no bulk bar either: nothing to select.
    await expect(page.getByRole('checkbox', { name: 'Select all on this page' }).count()).resolves.toBe(0);
    expect(usersCalls).toEqual([]);
    // The name from the address was read back by id through the same endpoint.
    expect(choicesCalls.some((u) => new URL(u).searchParams.get('ids') === users.oskar_brandt)).toBe(true);
  });

  it('approves the selected requests in bulk, and lists the one skipped with the reason', async () => {
    const [first, second] = requests.marlene_dietz!;
    const third = requests.oskar_brandt![0]!;
    expect((await h.api('POST', `/api/admin/withdrawals/${second}/reject`, { reasonCode: 'destination_risk', reason: 'Destination not verified' }, superToken)).status).toBe(200);

    const page = await h.newPage();
    await h.signIn(page, approver.email, approver.password);
    await page.goto(`${h.baseUrl}/withdraw`);
    for (const id of [first!, second!, third]) await page.getByRole('checkbox', { name: `Select row ${id}` }).check();
    const bar = page.getByTestId('bulk-bar');
    await bar.getByText('3 withdrawals selected').waitFor();
    // Only the actions this admin holds the right for: approve and reject, not mark failed (edit).
    await expect(bar.locator('[data-bulk-action]').evaluateAll((els) => els.map((e) => e.getAttribute('data-bulk-action')))).resolves.toEqual(['approve', 'reject']);
    await bar.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('The funds stay held until the transfer is completed.', { exact: false }).waitFor();
    // Before it runs: what it acts on (the rejected one would be skipped) and the total per coin.
    const preview = dialog.getByTestId('bulk-preview');
    await preview.getByText('Acts on 2 withdrawals (1 withdrawal skipped: their state does not allow it)').waitFor();
    await preview.getByText(/^Total .* USDC over 2 · largest .* USDC \(#\d+\)$/).waitFor();
    await page.screenshot({ path: 'e2e/screenshots/bulk-approve-preview.png' });
    await dialog.getByRole('button', { name: 'Approve' }).click();

    await page.getByText('Approve: 2 of 3 withdrawals done; 1 skipped').first().waitFor();
    const skipped = page.getByTestId('bulk-skipped');
    await skipped.locator(`[data-skipped-id="${second}"]`).getByText('Withdrawal is rejected: only a requested or awaiting second approval withdrawal can be approved').waitFor();
    await expect(skipped.locator('[data-skipped-id]').count()).resolves.toBe(1);
    await page.screenshot({ path: 'e2e/screenshots/bulk-approve.png' });
    await skipped.getByRole('button', { name: 'Close' }).click();

    for (const id of [first!, third]) await page.locator(`tr[data-row-id="${id}"]`).getByText('Approved').waitFor();
    const states = await Promise.all([first!, second!, third].map(async (id) => (await h.api<{ status: string }>('GET', `/api/admin/withdrawals/${id}`, undefined, superToken)).body.result?.status));
    expect(states).toEqual(['approved', 'rejected', 'approved']);

    // One record's own action opens the same form: a reason code is asked for before anything is sent.
    const last = page.locator(`tr[data-row-id="${requests.marlowe_quill![0]}"]`);
    await last.getByRole('button', { name: 'Reject' }).click();
    const form = page.getByRole('dialog');
    await form.getByRole('button', { name: 'Reject' }).click();
    await form.getByText('Pick a reason').waitFor();
    // A code of the action's list, then an optional note ("Other" needs one).
    await form.getByPlaceholder('Choose reason').click();
    await page.getByRole('option', { name: 'Other (say what in the note)' }).click();
    await form.getByRole('button', { name: 'Reject' }).click();
    await form.getByText('Say what happened (at least 3 characters)').waitFor();
    await form.getByLabel('Note').fill('Duplicate of an earlier request');
    await form.getByRole('button', { name: 'Reject' }).click();
    await last.getByText('Rejected').waitFor();
    const rejected = await h.api<{ reasonCode: string; reason: string }>('GET', `/api/admin/withdrawals/${requests.marlowe_quill![0]}`, undefined, superToken);
    expect(rejected.body.result).toMatchObject({ reasonCode: 'other', reason: 'Duplicate of an earlier request' });
  });
});
