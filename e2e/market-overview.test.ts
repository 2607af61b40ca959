import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, startHarness, type Harness, newPlatformKey, platformResult } from './harness';

/**
 * The live market overview as an operator watches it: the page is open, the platform places
 * orders through its API, and the row's bid, ask, last price and volume and the selected market's
 * book change on screen without a reload. Then the event's history shows the market's moves and a
 * price chart of its trades. An admin without the Markets right sees neither the page nor the feed.
 */
const PLATFORM_KEY = newPlatformKey();
let h: Harness;
let superToken: string;
const watcher = { name: 'Walt Watcher', email: 'walt.watch@pitboss.test', password: 'Walt-Watches-Books#5' };
const outsider = { name: 'Olga Outsider', email: 'olga.out@pitboss.test', password: 'Olga-Outside-Ropes#6' };
const HOUR = 3_600_000;
const iso = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
let eventId: string;
let marketId: string;
const TICKER = 'KXOVW-E2E-T50';
const users: string[] = [];

const platform = <T>(method: 'POST' | 'DELETE', p: string, body?: unknown) => platformResult<T>(h, PLATFORM_KEY, method, p, body);

async function api<T>(method: string, apiPath: string, body?: unknown): Promise<T> {
  const res = await h.api<T>(method, apiPath, body, superToken);
  if (res.status !== 200) throw new Error(`${method} ${apiPath}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result as T;
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${h.baseUrl}/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

beforeAll(async () => {
  h = await startHarness({ env: { PLATFORM_API_KEY: PLATFORM_KEY } });
  mkdirSync(SCREENSHOTS, { recursive: true });
  superToken = await h.loginToken(h.adminEmail, h.adminPassword);
  await h.createSubAdmin({ ...watcher, restriction: [{ name: 'Markets', canView: true, canEdit: false }, { name: 'Events', canView: true, canEdit: false }] });
  await h.createSubAdmin({ ...outsider, restriction: [{ name: 'Events', canView: true, canEdit: false }] });
  const event = await api<{ _id: string }>('POST', '/api/admin/events', { ticker: 'KXOVW-E2E', title: 'Overview watch event', openTime: iso(-2), closeTime: iso(72), expectedResolutionTime: iso(73) });
  eventId = event._id;
  await api('POST', `/api/admin/events/${eventId}/open`);
  const market = await api<{ _id: string }>('POST', '/api/admin/markets', { eventId, ticker: TICKER, title: 'Will the overview move before Friday at 5pm ET, as the busy demo markets do every minute?', rules: 'Resolves YES if it moves.' });
  marketId = market._id;
  await api('POST', `/api/admin/markets/${marketId}/open`);
  for (const name of ['ovw_alice', 'ovw_bob']) {
    const user = await platform<{ _id: string }>('POST', 'users', { username: name, email: `${name}@players.test` });
    const deposit = await platform<{ _id: string }>('POST', 'deposits', { userId: user._id, coin: 'USDC', amount: '100000000', txSignature: bs58.encode(randomBytes(64)), fromAddress: bs58.encode(randomBytes(32)) });
    await api('POST', `/api/admin/deposits/${deposit._id}/confirm`, {});
    users.push(user._id);
  }
});

afterEach((ctx) => {
  if (ctx.task.result?.state === 'fail') console.error(`server output (tail):\n${h?.serverOutput().slice(-4000)}`);
});

afterAll(async () => {
  await h?.stop();
});

describe('market overview, end to end', () => {
  it('moves on screen as orders are placed through the platform API, without a reload', async () => {
    const page = await h.newPage();
    await signIn(page, watcher.email, watcher.password);
    await page.goto(`${h.baseUrl}/market-overview`);
    await page.locator('[data-testid="stream-status"][data-status="live"]').waitFor();
    const row = page.getByTestId(`overview-row-${TICKER}`);
    await row.waitFor();
    expect(await row.getByTestId('best-bid').textContent()).toBe('—');
    // A marker on the window: a reload would lose it.
    await page.evaluate(() => {
      (window as unknown as { __noReload: boolean }).__noReload = true;
    });

    await row.click();
    await page.waitForURL((url) => url.searchParams.get('market') === marketId);
    await page.getByTestId('depth-panel').getByText('The book is empty.').waitFor();

    await platform('POST', 'orders', { userId: users[0], market: marketId, outcome: 'YES', side: 'buy', price: 44, quantity: 12, timeInForce: 'GTC' });
    await row.getByTestId('best-bid').getByText('44¢').waitFor();
    await page.getByTestId('depth-table').getByText('44¢').waitFor();
    await page.getByTestId('depth-chart').waitFor();

    await platform('POST', 'orders', { userId: users[1], market: marketId, outcome: 'NO', side: 'buy', price: 52, quantity: 5, timeInForce: 'GTC' });
    await row.getByTestId('best-ask').getByText('48¢').waitFor();
    // A NO buy at 56 meets the YES bid at 44: 5 shares trade at 44.
    await platform('POST', 'orders', { userId: users[1], market: marketId, outcome: 'NO', side: 'buy', price: 56, quantity: 5, timeInForce: 'IOC' });
    await row.getByTestId('last-price').getByText('44¢').waitFor();
    await row.getByTestId('volume-24h').getByText('5', { exact: true }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    // The depth chart has its price axis (0–100¢).
    await page.getByTestId('depth-chart').locator('svg text', { hasText: /^50¢$/ }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'market-overview.png'), fullPage: true });

    // Halting the market shows at once too.
    await api('POST', `/api/admin/markets/${marketId}/halt`, { reasonCode: 'incident' });
    await row.getByText('Halted').waitFor();
    // The state reads whole beside the depth panel, never cut to "Halt…", on a laptop's width too.
    await page.setViewportSize({ width: 1100, height: 800 });
    const label = await row.getByText('Halted', { exact: true }).evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(label.scroll).toBeLessThanOrEqual(label.client);
    await api('POST', `/api/admin/markets/${marketId}/resume`, {});
    await row.getByText('Open', { exact: true }).waitFor();
    await page.close();
  });

  it('shows the event\'s history: the market\'s moves and a price chart of its trades', async () => {
    const page = await h.newPage();
    await signIn(page, watcher.email, watcher.password);
    await page.goto(`${h.baseUrl}/event-history/${eventId}`);
    const timeline = page.getByTestId('event-timeline');
    await timeline.waitFor();
    await timeline.getByText('Halted', { exact: false }).first().waitFor();
    // The watcher may not read the audit log: who acted shows as "an admin".
    await timeline.getByText(/an admin/).first().waitFor();
    await page.getByTestId('price-chart').waitFor();
    await page.getByTestId('event-markets').getByText(TICKER).waitFor();
    // Axes (the 0–100¢ price axis) and a tooltip with the moment in the app's format and the price.
    const chart = page.getByTestId('price-chart');
    await chart.locator('svg text', { hasText: /^50¢$/ }).waitFor();
    const box = (await chart.locator('.recharts-surface').first().boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
    await chart.locator('.recharts-tooltip-wrapper').getByText(/\d+¢/).first().waitFor();
    expect(await chart.locator('.recharts-tooltip-wrapper').innerText()).toMatch(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'event-history.png'), fullPage: true });
    await page.close();
    const dark = await h.newPage({ colorScheme: 'dark' });
    await signIn(dark, watcher.email, watcher.password);
    await dark.goto(`${h.baseUrl}/event-history/${eventId}`);
    await dark.getByTestId('price-chart').locator('svg text', { hasText: /^50¢$/ }).waitFor();
    await dark.screenshot({ path: path.join(SCREENSHOTS, 'event-history-dark.png'), fullPage: true });
    await dark.close();
  });

  it('an admin without the Markets right is refused the page and the feed', async () => {
    const page = await h.newPage();
    await signIn(page, outsider.email, outsider.password);
    await page.goto(`${h.baseUrl}/market-overview`);
    await page.waitForURL((url) => !url.pathname.startsWith('/market-overview'));
    const token = await h.loginToken(outsider.email, outsider.password);
    const res = await fetch(`${h.baseUrl}/api/admin/market-overview/stream`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(403);
    await page.close();
  });
});
