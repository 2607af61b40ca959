import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, reportFailures, startHarness, type Harness, newPlatformKey, platformResult } from './harness';

/**
 * Resolution as an operator does it: a market traded through the platform API (a YES buyer and a NO
 * buyer, matched: 10 pairs in the collateral) is closed; a sub-admin with Markets and the named right
 * `resolve` (nothing else about markets) finds it under /unresolved-markets, resolves it YES with a
 * source and evidence in the action's form; the resolution history names them and the amount paid,
 * the event's resolution page names the event, and the winner's page shows the 10 USDC credited and
 * the position closed.
 */
const PLATFORM_KEY = newPlatformKey();
let h: Harness;
let superToken: string;
const resolver = { name: 'Rita Resolver', email: 'rita.resolver@pitboss.test', password: 'Rita-Resolves-Harbour#3' };
const HOUR = 3_600_000;
const iso = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
let eventId: string;
let marketId: string;
let winnerId: string;
let loserId: string;

const platform = <T>(method: string, apiPath: string, body?: unknown) => platformResult<T>(h, PLATFORM_KEY, method, apiPath, body);

async function admin<T>(method: string, apiPath: string, body?: unknown): Promise<T> {
  const res = await h.api<T>(method, apiPath, body, superToken);
  if (res.status !== 200) throw new Error(`${method} ${apiPath}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result as T;
}

/** A platform user with 100 USDC available. */
async function fundedUser(username: string): Promise<string> {
  const user = await platform<{ _id: string }>('POST', 'users', { username, email: `${username}@players.test`, country: 'DE' });
  const deposit = await platform<{ _id: string }>('POST', 'deposits', { userId: user._id, coin: 'USDC', amount: '100000000', txSignature: bs58.encode(randomBytes(64)), fromAddress: bs58.encode(randomBytes(32)) });
  await admin('POST', `/api/admin/deposits/${deposit._id}/confirm`, {});
  return user._id;
}

const available = async (userId: string): Promise<bigint> => {
  const { balances } = await platform<{ balances: { coin: string; available: string }[] }>('GET', `users/${userId}/balances`);
  return BigInt(balances.find((b) => b.coin === 'USDC')?.available ?? '0');
};

/** Minor units of USDC (6 decimals) as the back office writes them: `110.25 USDC`. */
const usdc = (minor: bigint) => `${(minor / 1_000_000n).toString()}${minor % 1_000_000n ? `.${(minor % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '')}` : ''} USDC`;

beforeAll(async () => {
  h = await startHarness({ env: { PLATFORM_API_KEY: PLATFORM_KEY } });
  mkdirSync(SCREENSHOTS, { recursive: true });
  superToken = await h.loginToken(h.adminEmail, h.adminPassword);
  await h.createSubAdmin({ ...resolver, restriction: [{ name: 'Markets', canView: true, canEdit: false, rights: ['resolve'] }, { name: 'Users', canView: true, canEdit: false }, { name: 'Trade History', canView: true, canEdit: false }] });
  const rain = await admin<{ _id: string }>('POST', '/api/admin/series', { ticker: 'KXRAIN', title: 'Rain in Hamburg', frequency: 'daily', category: 'Climate', settlementSource: 'DWD station Hamburg-Fuhlsbüttel, daily summary' });
  const event = await admin<{ _id: string }>('POST', '/api/admin/events', {
    ticker: 'KXRAIN-E2E', title: 'Rain in Hamburg on Sunday', seriesId: rain._id, openTime: iso(-2), closeTime: iso(48), expectedResolutionTime: iso(49),
  });
  eventId = event._id;
  await admin('POST', `/api/admin/events/${eventId}/open`);
  const market = await admin<{ _id: string }>('POST', '/api/admin/markets', { eventId, ticker: 'KXRAIN-E2E-SUN', title: 'More than 1 mm of rain in Hamburg on Sunday?', rules: 'Resolves YES if DWD station Hamburg-Fuhlsbüttel records more than 1 mm on Sunday.' });
  marketId = market._id;
  await admin('POST', `/api/admin/markets/${marketId}/open`);
  winnerId = await fundedUser('rain_yes_e2e');
  loserId = await fundedUser('rain_no_e2e');
  // A NO bid at 40 rests; a YES buy at 60 crosses it: 10 pairs minted, 10 USDC in the collateral.
  await platform('POST', 'orders', { userId: loserId, market: marketId, outcome: 'NO', side: 'buy', price: 40, quantity: 10, timeInForce: 'GTC' });
  const taker = await platform<{ status: string; filled: number }>('POST', 'orders', { userId: winnerId, market: marketId, outcome: 'YES', side: 'buy', price: 60, quantity: 10, timeInForce: 'IOC' });
  expect(taker).toMatchObject({ status: 'filled', filled: 10 });
  await admin('POST', `/api/admin/markets/${marketId}/close`, { confirm: true });
});

reportFailures(() => h);

afterAll(async () => {
  await h?.stop();
});

describe('resolution and settlement, end to end', () => {
  it('resolves a closed market from the unresolved queue; history, event page and the winner’s page show the payout', async () => {
    const before = await available(winnerId);
    const loserBefore = await available(loserId);
    const page = await h.newPage();
    await h.signIn(page, resolver.email, resolver.password);
    // Closed two days early: the markets list reads when it closed, never when it was to close.
    await page.goto(`${h.baseUrl}/markets`);
    await page.locator(`tr[data-row-id="${marketId}"] [data-moment="past"]`).getByText('Closed just now').waitFor();
    await page.goto(`${h.baseUrl}/unresolved-markets`);
    const row = page.locator(`tr[data-row-id="${marketId}"]`);
    await row.getByText('KXRAIN-E2E-SUN').waitFor();
    await row.getByText('Closed').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'resolution-unresolved.png'), fullPage: true });

    await row.getByRole('button', { name: 'Resolve' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Result/).first().click();
    await page.getByRole('option', { name: 'Yes', exact: true }).click();
    // The source starts on the series' settlement source, never another market's example.
    await expect(dialog.getByRole('textbox', { name: /^Source/ }).inputValue()).resolves.toBe('DWD station Hamburg-Fuhlsbüttel, daily summary');
    await dialog.getByRole('textbox', { name: /^Evidence$/ }).fill('3.4 mm recorded on Sunday (DWD daily climate data).');
    // Evidence links: a YES needs one; each is a full http(s) URL.
    await dialog.getByRole('button', { name: 'Resolve', exact: true }).click();
    await dialog.getByText('Add at least one link to the evidence (paste a URL, then Enter)').waitFor();
    const links = dialog.getByPlaceholder('https://… then Enter');
    await links.fill('https://opendata.dwd.de/climate/daily/10147');
    await links.press('Enter');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'resolution-dialog.png'), fullPage: true });
    await dialog.getByRole('button', { name: 'Resolve', exact: true }).click();
    // Closed early, before its scheduled close: the dialog says how early and asks again; nothing is settled yet.
    await dialog.getByTestId('confirm-required').getByText(/^KXRAIN-E2E-SUN is scheduled to close at .+ early: confirm to resolve it anyway\.$/).waitFor();
    expect((await admin<{ status: string }>('GET', `/api/admin/markets/${marketId}`)).status).toBe('closed');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'resolution-confirm-early.png'), fullPage: true });
    await dialog.getByRole('button', { name: 'Resolve anyway', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Settled: it leaves the queue.
    await row.waitFor({ state: 'detached' });

    const market = await admin<{ status: string; result: string; openInterest: number }>('GET', `/api/admin/markets/${marketId}`);
    expect(market).toMatchObject({ status: 'resolved', result: 'YES', openInterest: 0 });
    // 100¢ a winning share: 10 USDC to the YES holder, nothing to the NO holder.
    expect(await available(winnerId)).toBe(before + 10_000_000n);
    expect(await available(loserId)).toBe(loserBefore);

    await page.goto(`${h.baseUrl}/resolution-history`);
    const history = page.locator('tbody tr').filter({ hasText: 'KXRAIN-E2E-SUN' });
    await history.getByText('Rita Resolver').waitFor();
    await history.getByText('10.00 USDC').waitFor();
    await history.getByText('DWD station Hamburg-Fuhlsbüttel, daily summary').waitFor();
    await expect(history.getByRole('link', { name: 'https://opendata.dwd.de/climate/daily/10147' }).getAttribute('href')).resolves.toBe('https://opendata.dwd.de/climate/daily/10147');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'resolution-history.png'), fullPage: true });

    await page.goto(`${h.baseUrl}/event-resolution/${eventId}`);
    const subject = page.getByTestId('view-subject');
    await subject.getByText('Rain in Hamburg on Sunday').waitFor();
    await subject.getByText('KXRAIN-E2E').waitFor();
    await page.locator(`tr[data-row-id="${marketId}"]`).getByText('Resolved').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'resolution-event.png'), fullPage: true });

    await page.goto(`${h.baseUrl}/user-history/${winnerId}`);
    await page.getByTestId('record-details').getByText(`${usdc(before + 10_000_000n)} available`).waitFor();
    await page.getByRole('tab', { name: 'Closed positions' }).click();
    const position = page.locator('tbody tr').filter({ hasText: 'KXRAIN-E2E-SUN' });
    await position.getByText('Closed').waitFor();
    await position.getByText('10.00 USDC').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'resolution-winner.png'), fullPage: true });

    // Resolving again is refused: it settled once.
    const token = await h.loginToken(resolver.email, resolver.password);
    const again = await h.api('POST', `/api/admin/markets/${marketId}/resolve`, { result: 'NO', source: 'A second tab', evidence: 'Resolving the same market again from another tab.', evidenceUrls: ['https://opendata.dwd.de/climate/daily/10147'] }, token);
    expect(again.status).toBe(409);
  });

  it('with two admins to resolve: Rita proposes, the super admin confirms from the queue, the market settles', async () => {
    // A second market, traded and closed like the first.
    const m = await admin<{ _id: string }>('POST', '/api/admin/markets', { eventId, ticker: 'KXRAIN-E2E-SAT', title: 'More than 1 mm of rain in Hamburg on Saturday?', rules: 'Resolves YES if DWD station Hamburg-Fuhlsbüttel records more than 1 mm on Saturday.' });
    await admin('POST', `/api/admin/markets/${m._id}/open`);
    await platform('POST', 'orders', { userId: loserId, market: m._id, outcome: 'NO', side: 'buy', price: 40, quantity: 5, timeInForce: 'GTC' });
    await platform('POST', 'orders', { userId: winnerId, market: m._id, outcome: 'YES', side: 'buy', price: 60, quantity: 5, timeInForce: 'IOC' });
    await admin('POST', `/api/admin/markets/${m._id}/close`, { confirm: true });
    await admin('POST', '/api/admin/updateSiteDetails', { resolutionTwoAdmins: true, resolutionDisputeHours: 0 });
    const token = await h.loginToken(resolver.email, resolver.password);
    const proposed = await h.api<{ proposedResult: string }>('POST', `/api/admin/markets/${m._id}/resolve`, { result: 'YES', source: 'DWD daily summary', evidence: '2.1 mm recorded on Saturday.', evidenceUrls: ['https://opendata.dwd.de/climate/daily/10147'], confirm: true }, token);
    expect(proposed.status).toBe(200);

    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/awaiting-approval`);
    await page.getByText('Resolve KXRAIN-E2E-SAT YES').click();
    await page.waitForURL(`**/update-market/${m._id}`);
    await page.getByRole('button', { name: 'Confirm resolution' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Confirm YES for KXRAIN-E2E-SAT, proposed by rita.resolver@pitboss.test').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'resolution-confirm.png'), fullPage: true });
    await dialog.getByRole('button', { name: 'Confirm resolution' }).click();
    await page.getByText('Market KXRAIN-E2E-SAT resolved YES: 5 USDC paid to 2 holders').waitFor();
    expect((await admin<{ status: string }>('GET', `/api/admin/markets/${m._id}`)).status).toBe('resolved');
    await admin('POST', '/api/admin/updateSiteDetails', { resolutionTwoAdmins: false });
  });
});
