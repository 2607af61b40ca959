import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, newPlatformKey, platformResult } from './harness';

/**
 * A trade bot as an operator runs it, against the real server and its job: a bot set up on a fresh
 * market is started from its page, and its quotes appear in its Orders tab (placed by the job, not
 * by the test); its figures show them resting; Stop cancels them.
 */
const PLATFORM_KEY = newPlatformKey();
const HOUR = 3_600_000;
const iso = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
let h: Harness;
let superToken: string;
let botId: string;

const platform = <T>(path: string, body: unknown) => platformResult<T>(h, PLATFORM_KEY, 'POST', path, body);

async function api<T>(method: string, apiPath: string, body?: unknown): Promise<T> {
  const res = await h.api<T>(method, apiPath, body, superToken);
  if (res.status !== 200) throw new Error(`${method} ${apiPath}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result as T;
}

beforeAll(async () => {
  h = await startHarness({ env: { PLATFORM_API_KEY: PLATFORM_KEY } });
  superToken = await h.loginToken(h.adminEmail, h.adminPassword);
  const user = await platform<{ _id: string }>('users', { username: 'maker_e2e', email: 'maker@makers.test', country: 'IE' });
  const deposit = await platform<{ _id: string }>('deposits', { userId: user._id, coin: 'USDC', amount: '1000000000', txSignature: bs58.encode(randomBytes(64)), fromAddress: bs58.encode(randomBytes(32)) });
  await api('POST', `/api/admin/deposits/${deposit._id}/confirm`, {});
  // A bot trades only as a house account.
  await api('POST', `/api/admin/users/${user._id}/make-house`, { reason: 'Market-making account' });
  const event = await api<{ _id: string }>('POST', '/api/admin/events', { ticker: 'KXBOT-E2E', title: 'Bot event', openTime: iso(-1), closeTime: iso(48), expectedResolutionTime: iso(49) });
  await api('POST', `/api/admin/events/${event._id}/open`, {});
  const market = await api<{ _id: string }>('POST', '/api/admin/markets', { eventId: event._id, ticker: 'KXBOT-E2E-M1', title: 'A fresh market?', rules: 'Resolves YES if it happens.' });
  await api('POST', `/api/admin/markets/${market._id}/open`, {});
  const bot = await api<{ _id: string }>('POST', '/api/admin/trade-bots', { name: 'E2E maker', userId: user._id, marketIds: [market._id], spread: 4, size: 10, levels: 2, maxPosition: 100, refreshSeconds: 5 });
  botId = bot._id;
}, 120_000);
afterAll(async () => h?.stop());

describe('trade bots in the browser', () => {
  it('starts a bot from its page; the job quotes its fresh market and the Orders tab shows the quotes; Stop cancels them', async () => {
    const page = await h.newPage();
    await page.goto(`${h.baseUrl}/login`);
    await page.getByLabel('Email', { exact: true }).fill(h.adminEmail);
    await page.getByLabel('Password', { exact: true }).fill(h.adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.goto(`${h.baseUrl}/update-trade-bot/${botId}`);
    await page.getByTestId('record-state').filter({ hasText: 'Stopped' }).waitFor();
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start', exact: true }).click();
    await page.getByTestId('record-state').filter({ hasText: 'Running' }).waitFor();
    // The job (every second) places the quotes: four GTC buys around 50¢, listed under the bot's Orders tab.
    await expect.poll(async () => (await api<{ openOrders: number }>('GET', `/api/admin/trade-bots/${botId}`)).openOrders, { timeout: 20_000 }).toBe(4);
    await page.getByRole('tab', { name: 'Orders' }).click();
    await page.getByRole('cell', { name: 'KXBOT-E2E-M1' }).first().waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'KXBOT-E2E-M1' }).count()).toBe(4);
    // The figures above the form, read again: four quotes resting, the last run's summary.
    await page.reload();
    await page.getByRole('row', { name: /Quotes resting\s*4/ }).waitFor();
    await page.getByRole('row', { name: /Last run did\s*1 open market/ }).waitFor();
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByTestId('record-state').filter({ hasText: 'Stopped' }).waitFor();
    expect((await api<{ openOrders: number }>('GET', `/api/admin/trade-bots/${botId}`)).openOrders).toBe(0);
  }, 60_000);
});
