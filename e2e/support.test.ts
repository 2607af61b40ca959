import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFailures, startHarness, type Harness, newPlatformKey, platformResult } from './harness';

/**
 * Support, as people do it: the platform reports a user's new ticket (platform API); it shows in
 * a support sub-admin's bell at once (server-sent events, nothing reloaded) and in the ticket list;
 * the sub-admin takes it, writes an internal note and a reply; the reply reaches the user's inbox
 * (the harness's SMTP server), the note does not; the platform's view of the ticket has no note.
 */
const PLATFORM_KEY = newPlatformKey();
let h: Harness;
const agent = { name: 'Sue Support', email: 'sue.support@pitboss.test', password: 'Sue-Supports-Lantern#7' };
const userEmail = 'hodler@players.test';
let userId: string;

const platform = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => platformResult<T>(h, PLATFORM_KEY, method, path, body);

beforeAll(async () => {
  h = await startHarness({ env: { PLATFORM_API_KEY: PLATFORM_KEY } });
  await h.createSubAdmin({
    ...agent,
    restriction: [
      { name: 'Support Ticket', canView: true, canEdit: true }, { name: 'Support Reply', canView: true, canEdit: true },
      { name: 'Notification', canView: true, canEdit: false }, { name: 'Users', canView: true, canEdit: false },
    ],
  });
  userId = (await platform<{ _id: string }>('POST', 'users', { username: 'hodler_e2e', email: userEmail, country: 'DE' }))._id;
});

reportFailures(() => h);

afterAll(async () => {
  await h?.stop();
});

describe('support tickets, end to end', () => {
  it('a ticket created through the platform API appears in the list and in the bell; a sub-admin assigns it, writes an internal note and a reply; the reply is in the SMTP inbox', async () => {
    const page = await h.newPage();
    await h.signIn(page, agent.email, agent.password);
    await page.goto(`${h.baseUrl}/ticket-list`);
    const bell = page.getByTestId('bell-count');
    await page.waitForFunction(() => document.querySelector('[data-testid="bell-count"]')?.getAttribute('data-count') === '0');

    // The platform reports the ticket; the bell counts it without any reload.
    const ticket = await platform<{ _id: string; status: string }>('POST', 'tickets', { userId, subject: 'Where is my deposit?', message: 'I sent 40 USDC an hour ago.', priority: 'high' });
    expect(ticket.status).toBe('open');
    await page.waitForFunction(() => document.querySelector('[data-testid="bell-count"]')?.getAttribute('data-count') === '1', undefined, { timeout: 15_000 });
    await expect(bell.getAttribute('data-count')).resolves.toBe('1');
    await page.getByTestId('bell').click();
    await page.getByTestId('bell-item').filter({ hasText: 'New ticket from hodler_e2e' }).waitFor();
    await page.keyboard.press('Escape');

    // In the list (the Assignment filter offers "unassigned"); the row opens the conversation.
    await page.goto(`${h.baseUrl}/ticket-list?assignment=unassigned`);
    const row = page.locator(`tr[data-row-id="${ticket._id}"]`);
    await row.getByText('Where is my deposit?').waitFor();
    await page.screenshot({ path: 'e2e/screenshots/support-ticket-list.png' });
    await row.getByText('Where is my deposit?').click();
    await page.waitForURL(`**/support-reply/${ticket._id}`);
    await page.getByText('I sent 40 USDC an hour ago.').waitFor();

    // Assign to me.
    await page.getByTestId('assign-me').click();
    await page.getByText('Ticket assigned').waitFor();

    // An internal note: shown apart, no change of status.
    const editor = page.locator('[data-field="body"]');
    await page.getByTestId('internal-switch').check({ force: true });
    await editor.click();
    await page.keyboard.type('Checked the hot wallet: the transfer is still unconfirmed. Do not promise a time.');
    await page.getByTestId('send-reply').click();
    await page.getByTestId('internal-note').getByText('Do not promise a time.').waitFor();
    await expect(page.getByTestId('ticket-status').getAttribute('data-status')).resolves.toBe('open');

    // The reply: answered, and mailed.
    await editor.click();
    await page.keyboard.type('Your deposit is confirmed now and credited to your balance.');
    await page.getByTestId('send-reply').click();
    await page.getByTestId('admin-reply').getByText('Your deposit is confirmed now').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="ticket-status"]')?.getAttribute('data-status') === 'answered');
    await page.screenshot({ path: 'e2e/screenshots/support-conversation.png', fullPage: true });

    const mail = await h.waitForMail(userEmail, { timeoutMs: 20_000 });
    expect(mail.text).toContain('Your deposit is confirmed now and credited to your balance.');
    expect(mail.text).toContain('Where is my deposit?');
    expect(mail.text).not.toContain('hot wallet');

    // The user's view (platform API) has the reply, never the note.
    const view = await platform<{ status: string; messages: { author: string; body: string }[] }>('GET', `tickets/${ticket._id}`);
    expect(view.status).toBe('answered');
    expect(view.messages.map((m) => m.author)).toEqual(['user', 'support']);
    expect(JSON.stringify(view)).not.toContain('hot wallet');
  });
  it('a reply typed on one ticket does not follow the agent to the user\'s other ticket: leaving asks first, the other ticket opens with an empty box', async () => {
    const first = await platform<{ _id: string }>('POST', 'tickets', { userId, subject: 'Card missing after opening', message: 'My third card is not in my collection.' });
    const second = await platform<{ _id: string }>('POST', 'tickets', { userId, subject: 'Change my email', message: 'Please use my new address.' });
    const page = await h.newPage();
    await h.signIn(page, agent.email, agent.password);
    await page.goto(`${h.baseUrl}/support-reply/${first._id}`);
    await page.getByText('My third card is not in my collection.').waitFor();
    const editor = page.locator('[data-field="body"]');
    await editor.click();
    await page.keyboard.type('We re-minted your card: it is in your collection now.');
    await page.getByTestId('internal-switch').check({ force: true });

    // The other ticket, from the sidebar: the unsent reply is not carried along silently.
    await page.getByRole('link', { name: 'Change my email' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Leave without sending?').waitFor();
    await dialog.getByRole('button', { name: 'Stay' }).click();
    expect(new URL(page.url()).pathname).toBe(`/support-reply/${first._id}`);
    await page.getByRole('link', { name: 'Change my email' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL(`**/support-reply/${second._id}`);
    await page.getByText('Please use my new address.').waitFor();
    expect(await page.getByRole('heading', { name: 'Change my email' }).count()).toBe(1);
    expect((await editor.innerText()).trim()).toBe('');
    expect(await page.getByTestId('internal-switch').isChecked()).toBe(false);
    expect(await page.getByTestId('send-reply').isDisabled()).toBe(true);
  });
  it('the notifications page\'s Unread tab: once all are read it says so (not "No notifications" while All lists them), the address keeps it, and a new notification arrives live', async () => {
    await platform('POST', 'tickets', { userId, subject: 'Pack not delivered', message: 'I paid but got no pack.' });
    const page = await h.newPage();
    await h.signIn(page, agent.email, agent.password);
    await page.goto(`${h.baseUrl}/notification`);
    await page.getByTestId('notification-row').first().waitFor();
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByText('0 unread.', { exact: false }).waitFor();
    await page.getByText('Unread', { exact: true }).click();
    await page.getByText('No unread notifications').waitFor();
    expect(await page.getByText('No notifications', { exact: true }).count()).toBe(0);

    // The tab is in the address: a reload keeps it.
    await page.waitForURL('**/notification?unread=1');
    await page.reload();
    await page.getByText('No unread notifications').waitFor();
    // A new ticket's notification arrives while the page is open, without a reload.
    await platform('POST', 'tickets', { userId, subject: 'Card shows twice', message: 'One card, two entries.' });
    await page.getByTestId('notification-row').filter({ hasText: 'Card shows twice' }).waitFor();
    await page.getByText('1 unread.', { exact: false }).waitFor();
    expect(await page.getByText('No unread notifications').count()).toBe(0);
  });
});
