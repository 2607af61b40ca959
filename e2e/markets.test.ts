import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, reportFailures, startHarness, type Harness } from './harness';

/**
 * The markets catalogue as an operator works it: events listed (and filtered by tag), an event's
 * page with its markets tab where markets are opened, halted, resumed and added (the event chosen),
 * an event created through the form (local times, tags), fields fixed once a market is open, and no
 * buttons for someone who may only look.
 */
let h: Harness;
let superToken: string;
const operator = { name: 'Otto Operator', email: 'otto.markets@pitboss.test', password: 'Otto-Opens-Markets#9' };
const watcher = { name: 'Wanda Watcher', email: 'wanda.watch@pitboss.test', password: 'Wanda-Watches-Tides#4' };
const HOUR = 3_600_000;
const iso = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
let eventId: string;
let marketId: string;
let cryptoTag: string;

async function api<T>(method: string, apiPath: string, body?: unknown): Promise<T> {
  const res = await h.api<T>(method, apiPath, body, superToken);
  if (res.status !== 200) throw new Error(`${method} ${apiPath}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result as T;
}

/** Clicks an action on a row, then its button in the dialog that asks. */
async function act(page: Page, row: ReturnType<Page['locator']>, label: string, reason?: string): Promise<void> {
  await row.getByRole('button', { name: label, exact: true }).click();
  const dialog = page.getByRole('dialog');
  if (reason) {
    // A reason-coded action (Halt): its code is picked from the action's list.
    await dialog.getByPlaceholder('Choose reason').click();
    await page.getByRole('option', { name: reason }).click();
  }
  await dialog.getByRole('button', { name: label, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

beforeAll(async () => {
  h = await startHarness();
  mkdirSync(SCREENSHOTS, { recursive: true });
  superToken = await h.loginToken(h.adminEmail, h.adminPassword);
  await h.createSubAdmin({ ...operator, restriction: [{ name: 'Events', canView: true, canEdit: true }, { name: 'Markets', canView: true, canEdit: true }, { name: 'Series', canView: true, canEdit: false }, { name: 'Tags', canView: true, canEdit: false }] });
  await h.createSubAdmin({ ...watcher, restriction: [{ name: 'Events', canView: true, canEdit: false }, { name: 'Markets', canView: true, canEdit: false }] });
  cryptoTag = (await api<{ _id: string }>('POST', '/api/admin/tags', { name: 'Crypto' }))._id;
  await api('POST', '/api/admin/tags', { name: 'Weather' });
  const series = await api<{ _id: string }>('POST', '/api/admin/series', { ticker: 'KXBTCW', title: 'Bitcoin weekly close', frequency: 'weekly', category: 'Crypto', settlementSource: 'CF Benchmarks BRTI, Friday 17:00 ET', tagIds: [cryptoTag] });
  const event = await api<{ _id: string }>('POST', '/api/admin/events', {
    ticker: 'KXBTCW-E2E', title: 'Bitcoin price this Friday', seriesId: series._id, tagIds: [cryptoTag], openTime: iso(-2), closeTime: iso(72), expectedResolutionTime: iso(73),
  });
  eventId = event._id;
  await api('POST', `/api/admin/events/${eventId}/open`);
  const market = await api<{ _id: string }>('POST', '/api/admin/markets', { eventId, ticker: 'KXBTCW-E2E-T100000', title: 'Bitcoin above $100,000 on Friday?', rules: 'Resolves YES if the BRTI is above $100,000 at 17:00 ET on Friday.' });
  marketId = market._id;
  // Another event, untagged, to see the tag filter at work.
  await api('POST', '/api/admin/events', { ticker: 'KXHIGHNY-E2E', title: 'NYC high on Friday', openTime: iso(1), closeTime: iso(30), expectedResolutionTime: iso(40) });
});

reportFailures(() => h);

afterAll(async () => {
  await h?.stop();
});

describe('markets catalogue, end to end', () => {
  it('lists real events, filters them by tag, and works the markets tab: open, halt, resume', async () => {
    const page = await h.newPage();
    await h.signIn(page, operator.email, operator.password);
    await page.goto(`${h.baseUrl}/events`);
    const row = page.locator(`tr[data-row-id="${eventId}"]`);
    await row.getByText('KXBTCW-E2E').waitFor();
    await row.getByText('Open', { exact: true }).waitFor();
    await row.getByText('Crypto').waitFor();
    await page.getByText('KXHIGHNY-E2E').waitFor();
    await page.goto(`${h.baseUrl}/events?tags=crypto`);
    await page.getByTestId('list-total').getByText('1').waitFor();
    await expect(page.getByText('KXHIGHNY-E2E').count()).resolves.toBe(0);

    await page.locator(`tr[data-row-id="${eventId}"]`).click();
    await page.waitForURL(`**/update-event/${eventId}`);
    await page.getByTestId('record-state').getByText('Open').waitFor();
    await page.getByRole('tab', { name: 'Markets' }).click();
    const market = page.locator(`tr[data-row-id="${marketId}"]`);
    await market.getByText('KXBTCW-E2E-T100000').waitFor();
    await market.getByText('Draft').waitFor();

    await act(page, market, 'Open');
    await page.getByText('Market KXBTCW-E2E-T100000 is open for trading').waitFor();
    await market.getByRole('button', { name: 'Halt' }).waitFor();
    await expect(market.getByRole('button', { name: 'Open', exact: true }).count()).resolves.toBe(0);
    await act(page, market, 'Halt', 'Material news pending');
    await market.getByText('Halted').waitFor();
    await act(page, market, 'Resume');
    await market.getByRole('button', { name: 'Halt' }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'markets-event-tab.png'), fullPage: true });
    expect((await api<{ status: string }>('GET', `/api/admin/markets/${marketId}`)).status).toBe('open');
  });

  it('adds a market from the tab with the event chosen, and comes back to the tab', async () => {
    const page = await h.newPage();
    await h.signIn(page, operator.email, operator.password);
    await page.goto(`${h.baseUrl}/update-event/${eventId}?tab=child:markets`);
    await page.locator(`tr[data-row-id="${marketId}"]`).waitFor();
    await page.getByRole('link', { name: 'Add market' }).click();
    await page.waitForURL((url) => url.pathname === '/add-market' && url.searchParams.get('eventId') === eventId);
    await expect.poll(() => page.getByRole('combobox', { name: /^Event/ }).inputValue()).toBe('Bitcoin price this Friday');
    await page.getByRole('textbox', { name: /^Ticker/ }).fill('kxbtcw-e2e-t105000');
    await page.getByRole('textbox', { name: /^Title/ }).fill('Bitcoin above $105,000 on Friday?');
    await page.getByRole('textbox', { name: /^Rules/ }).fill('Resolves YES if the BRTI is above $105,000 at 17:00 ET on Friday.');
    await page.getByRole('button', { name: 'Create market' }).click();
    await page.waitForURL(`**/update-event/${eventId}?tab=child:markets`);
    await page.getByText('KXBTCW-E2E-T105000').waitFor();
    await expect(page.getByRole('tab', { name: 'Markets' }).getAttribute('aria-selected')).resolves.toBe('true');
  });

  it('fixes the ticker, event and rules of an open market on its page', async () => {
    const page = await h.newPage();
    await h.signIn(page, operator.email, operator.password);
    await page.goto(`${h.baseUrl}/update-market/${marketId}`);
    await page.getByTestId('record-state').getByText('Open').waitFor();
    const ticker = page.getByRole('textbox', { name: /^Ticker/ });
    await expect(ticker.getAttribute('readonly')).resolves.not.toBeNull();
    await page.getByText('Fixed: the market is open').first().waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'markets-market-page.png'), fullPage: true });
    const title = page.getByRole('textbox', { name: /^Title/ });
    await expect(title.getAttribute('readonly')).resolves.toBeNull();
    await title.fill('Bitcoin above $100k this Friday?');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL('**/markets');
    await page.getByText('Bitcoin above $100k this Friday?').waitFor();
  });

  it('creates an event through the form: local times in order, a tag picked from the tags', async () => {
    const page = await h.newPage();
    await h.signIn(page, operator.email, operator.password);
    await page.goto(`${h.baseUrl}/add-event`);
    await page.getByRole('textbox', { name: /^Ticker/ }).fill('KXSOLW-E2E');
    await page.getByRole('textbox', { name: /^Title/ }).fill('Solana price this Friday');
    // The browser runs in Europe/Paris (the harness): the form takes its local time and sends the instant.
    const local = (hours: number) => {
      const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
        .formatToParts(new Date(Date.now() + hours * HOUR));
      const part = (type: string) => parts.find((p) => p.type === type)!.value;
      return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
    };
    await page.getByLabel(/^Open time/).fill(local(48));
    await page.getByLabel(/^Close time/).fill(local(24));
    await page.getByLabel(/^Expected resolution/).fill(local(50));
    await page.getByRole('button', { name: 'Create event' }).click();
    await page.getByText('The close time must be after the open time').waitFor();
    await page.getByLabel(/^Close time/).fill(local(49));
    await page.getByRole('combobox', { name: /^Tags/ }).click();
    await page.getByRole('option', { name: 'Crypto' }).click();
    await page.keyboard.press('Escape');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'markets-event-form.png'), fullPage: true });
    await page.getByRole('button', { name: 'Create event' }).click();
    await page.waitForURL('**/events');
    const row = page.locator('tr', { hasText: 'KXSOLW-E2E' });
    await row.getByText('Draft').waitFor();
    await row.getByText('Crypto').waitFor();
    const created = (await api<{ items: { ticker: string; openTime: string; closeTime: string; tags: string[] }[] }>('GET', '/api/admin/events?q=KXSOLW-E2E')).items[0]!;
    expect(created.tags).toEqual(['Crypto']);
    expect(Math.abs(Date.parse(created.openTime) - (Date.now() + 48 * HOUR))).toBeLessThan(5 * 60_000);
  });

  it('shows no action buttons to an admin who may only view, and the API refuses them', async () => {
    const page = await h.newPage();
    await h.signIn(page, watcher.email, watcher.password);
    await page.goto(`${h.baseUrl}/update-event/${eventId}`);
    await page.getByTestId('read-only-notice').waitFor();
    await page.getByRole('tab', { name: 'Markets' }).click();
    const market = page.locator(`tr[data-row-id="${marketId}"]`);
    await market.getByText('KXBTCW-E2E-T100000').waitFor();
    await expect(market.getByRole('button').count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'Add market' }).count()).resolves.toBe(0);
    const token = await h.loginToken(watcher.email, watcher.password);
    expect((await h.api('POST', `/api/admin/markets/${marketId}/halt`, {}, token)).status).toBe(403);
    // Editing markets is not pulling the kill switch: no button, and 403 from the API.
    await page.goto(`${h.baseUrl}/kill-switch`);
    await page.getByTestId('list-total').waitFor();
    await expect(page.getByRole('link', { name: 'Engage the kill switch' }).count()).resolves.toBe(0);
    const otto = await h.loginToken(operator.email, operator.password);
    expect((await h.api('POST', '/api/admin/kill-switches', { reasonCode: 'incident', confirmation: 'HALT ALL' }, otto)).status).toBe(403);
  });

  it('the kill switch halts every open market after HALT ALL is typed, and its release resumes them', async () => {
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/kill-switch`);
    await page.getByRole('link', { name: 'Engage the kill switch' }).first().click();
    await page.waitForURL('**/engage-kill-switch');
    await page.getByPlaceholder('Choose reason').click();
    await page.getByRole('option', { name: 'Operational incident' }).click();
    await page.getByRole('textbox', { name: /^Note/ }).fill('Feed outage drill');
    await page.getByRole('textbox', { name: /^Type HALT ALL/ }).fill('halt');
    await page.getByRole('button', { name: 'Halt and stop now' }).click();
    await page.getByText('Type HALT ALL exactly, in capitals').waitFor();
    expect((await api<{ status: string }>('GET', `/api/admin/markets/${marketId}`)).status).toBe('open');
    await page.getByRole('textbox', { name: /^Type HALT ALL/ }).fill('HALT ALL');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'kill-switch-engage.png'), fullPage: true });
    await page.getByRole('button', { name: 'Halt and stop now' }).click();
    await page.waitForURL('**/kill-switch');
    const row = page.locator('tbody tr').first();
    await row.getByText('Engaged').waitFor();
    expect(await api<{ status: string; haltReasonCode: string }>('GET', `/api/admin/markets/${marketId}`)).toMatchObject({ status: 'halted', haltReasonCode: 'kill_switch' });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'kill-switch-list.png'), fullPage: true });
    await row.getByRole('button', { name: 'Resume what it halted' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Resume what it halted' }).click();
    await page.getByText(/Kill switch released: \d+ markets? resumed/).waitFor();
    await row.getByText('Released').waitFor();
    expect((await api<{ status: string }>('GET', `/api/admin/markets/${marketId}`)).status).toBe('open');
  });
});
