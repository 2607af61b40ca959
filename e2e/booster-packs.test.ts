import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness, newPlatformKey, platformCall } from './harness';

/**
 * Booster packs as an operator and the platform use them, on the real server: odds set on a pack's
 * page (the browser refuses a sum other than 100.00 %), the pack put on sale, bought and opened through
 * the platform API, the opening shown in the pack's history and verified in the browser (not yet, then
 * after the seed's reveal); a store's codes generated in the browser (shown once, CSV downloaded) and
 * one redeemed twice through the platform API (the second refused).
 */
const PLATFORM_KEY = newPlatformKey();
let h: Harness;
let token: string;
const tiers: { _id: string; name: string }[] = [];

const platform = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => platformCall<T>(h, PLATFORM_KEY, method, path, body);

async function api<T>(method: string, apiPath: string, body?: unknown): Promise<T> {
  const res = await h.api<T>(method, apiPath, body, token);
  if (res.status !== 200) throw new Error(`${method} ${apiPath}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result as T;
}

beforeAll(async () => {
  h = await startHarness({ env: { PLATFORM_API_KEY: PLATFORM_KEY } });
  token = await h.loginToken(h.adminEmail, h.adminPassword);
  const category = await api<{ _id: string }>('POST', '/api/admin/card-categories', { name: 'Heroes', slug: 'heroes' });
  for (const [i, name] of ['Common', 'Rare', 'Epic'].entries()) {
    const tier = await api<{ _id: string; name: string }>('POST', '/api/admin/card-tiers', { name, color: ['#9e9e9e', '#2196f3', '#9c27b0'][i], dropWeight: [70, 25, 5][i], sortOrder: i + 1 });
    tiers.push(tier);
    for (let k = 1; k <= 3; k++) await api('POST', '/api/admin/card-characters', { name: `${name} hero ${k}`, categoryId: category._id, tierId: tier._id, maxSupply: 100 });
  }
  await api('PATCH', '/api/admin/booster-pack-settings', { cardsPerPack: 3, tierOdds: tiers.map((t, i) => ({ tierId: t._id, percent: ['70', '25', '5'][i] })) });
}, 120_000);
afterAll(async () => h?.stop());

describe('booster packs in the browser', () => {
  it('odds on the pack page must sum to 100.00 %; bought and opened through the platform; the opening verifies after the reveal', async () => {
    const usdc = (await api<{ items: { _id: string; symbol: string }[] }>('GET', '/api/admin/coins?q=USDC')).items.find((c) => c.symbol === 'USDC')!;
    const pack = await api<{ _id: string }>('POST', '/api/admin/booster-packs', { name: 'Genesis pack', coinId: usdc._id, price: '5000000', supply: 100 });
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/booster-pack-cards/${pack._id}`);
    await page.getByLabel('Common (%)').fill('60');
    await page.getByLabel('Rare (%)').fill('30');
    await page.getByLabel('Epic (%)').fill('9.99');
    await page.getByText('The odds sum to 99.99 %, not 100.00 %').first().waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/sum to 99\.99 %/).first().waitFor();
    expect((await api<{ oddsOverride: unknown }>('GET', `/api/admin/booster-packs/${pack._id}`)).oddsOverride).toBeNull();
    await page.getByLabel('Epic (%)').fill('10');
    await page.getByTestId('oddsOverride-total').filter({ hasText: '100.00 %' }).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await api<{ oddsOverride: { percent: string }[] | null }>('GET', `/api/admin/booster-packs/${pack._id}`)).oddsOverride?.map((o) => o.percent)).toEqual(['60.00', '30.00', '10.00']);
    // Saving goes back to the list: the pack's page again for its action.
    await page.goto(`${h.baseUrl}/booster-pack-cards/${pack._id}`);
    await page.getByTestId('record-state').filter({ hasText: 'Draft' }).waitFor();
    // The price reads in the coin's units and is posted as minor units.
    const price = page.getByRole('textbox', { name: 'Price' });
    await expect.poll(() => price.inputValue()).toBe('5');
    await price.fill('4.99');
    await page.getByText('= 4.990000 USDC').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await api<{ price: string }>('GET', `/api/admin/booster-packs/${pack._id}`)).price).toBe('4990000');
    await page.goto(`${h.baseUrl}/booster-pack-cards/${pack._id}`);
    await page.getByTestId('record-state').filter({ hasText: 'Draft' }).waitFor();
    await page.getByRole('button', { name: 'Put on sale' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Put on sale' }).click();
    await page.getByTestId('record-state').filter({ hasText: 'On sale' }).waitFor();

    const user = (await platform<{ _id: string }>('POST', 'users', { username: 'collector_e2e', email: 'collector@players.test', country: 'FR' })).result;
    const deposit = (await platform<{ _id: string }>('POST', 'deposits', { userId: user._id, coin: 'USDC', amount: '20000000', txSignature: bs58.encode(randomBytes(64)), fromAddress: bs58.encode(randomBytes(32)) })).result;
    await api('POST', `/api/admin/deposits/${deposit._id}/confirm`, {});
    const seed = await platform<{ serverSeedHash: string }>('GET', `users/${user._id}/seed`);
    const bought = await platform<{ _id: string }>('POST', `packs/${pack._id}/purchase`, { userId: user._id });
    expect(bought.status).toBe(200);
    const opened = await platform<{ _id: string; cards: { character: string }[] }>('POST', `packs/${pack._id}/openings`, { userId: user._id, purchaseId: bought.result._id, clientSeed: 'e2e-client-seed' });
    expect(opened.status, opened.message).toBe(200);
    expect(opened.result.cards).toHaveLength(3);

    await page.goto(`${h.baseUrl}/booster-pack-cards/${pack._id}?tab=child:pack-purchases`);
    await page.getByRole('cell', { name: 'collector_e2e' }).first().waitFor();
    await page.goto(`${h.baseUrl}/booster-pack-cards/${pack._id}?tab=child:pack-openings`);
    const row = page.getByRole('row').filter({ hasText: 'collector_e2e' });
    await row.getByText(opened.result.cards[0]!.character).first().waitFor();
    await row.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Verify' }).click();
    await page.getByTestId('action-output').getByText(/Not verifiable yet/).waitFor();
    await page.getByTestId('action-output').getByRole('button', { name: 'Close' }).click();

    const rotated = await platform<{ revealed: { serverSeedHash: string } }>('POST', `users/${user._id}/seed/rotate`, {});
    expect(rotated.result.revealed.serverSeedHash).toBe(seed.result.serverSeedHash);
    await row.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Verify' }).click();
    const output = page.getByTestId('action-output');
    await output.getByText(/^Verified: SHA-256 of the revealed server seed is the committed hash/).waitFor();
    expect(await output.getByRole('cell', { name: 'yes', exact: true }).count()).toBe(3);
    await page.screenshot({ path: 'e2e/screenshots/booster-pack-verify.png' });
  }, 120_000);

  it('generates a store’s codes in the browser (shown once, CSV downloaded); a code redeems once', async () => {
    const packs = await api<{ items: { _id: string }[] }>('GET', '/api/admin/booster-packs?q=Genesis');
    const store = await api<{ _id: string }>('POST', '/api/admin/offline-stores', { name: 'Le Comptoir', address: '1 rue de Rivoli', city: 'Paris', country: 'FR', latitude: '48.8566', longitude: '2.3522', contact: 'comptoir@example.test' });
    const alloc = await api<{ _id: string }>('POST', '/api/admin/store-allocations', { storeId: store._id, packId: packs.items[0]!._id, quantity: 5, price: '4500000' });
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/update-pack-offline-store/${alloc._id}`);
    await page.getByRole('button', { name: 'Generate codes' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('How many codes').fill('3');
    await dialog.getByRole('button', { name: 'Generate codes' }).click();
    const output = page.getByTestId('action-output');
    await output.getByText(/3 codes generated/).waitFor();
    const codes = (await output.locator('td').allInnerTexts()).filter((t) => /^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/.test(t));
    expect(codes).toHaveLength(3);
    const [download] = await Promise.all([page.waitForEvent('download'), output.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    for (const c of codes) expect(csv).toContain(c);
    // Named for the store, the pack and the time: two stores' files do not overwrite each other.
    expect(download.suggestedFilename()).toMatch(/^codes-le-comptoir-genesis[a-z0-9-]*-\d{8}-\d{6}\.csv$/);
    await page.getByTestId('action-output').getByRole('button', { name: 'Close' }).click();
    // Shown once: the allocation's Codes tab has only the last four characters.
    await page.goto(`${h.baseUrl}/update-pack-offline-store/${alloc._id}?tab=child:store-codes`);
    await page.getByRole('cell', { name: `…${codes[0]!.slice(-4)}` }).waitFor();
    expect(await page.getByText(codes[0]!).count()).toBe(0);

    const user = (await platform<{ _id: string }>('POST', 'users', { username: 'walkin_e2e', email: 'walkin@players.test', country: 'FR' })).result;
    const first = await platform<{ source: string }>('POST', 'store-codes/redeem', { userId: user._id, code: codes[0] });
    expect(first.status).toBe(200);
    expect(first.result.source).toBe('store_code');
    const second = await platform('POST', 'store-codes/redeem', { userId: user._id, code: codes[0] });
    expect(second.status).toBe(409);
    expect(second.message).toMatch(/already redeemed/);
  }, 120_000);

  it('a pack\'s size clears back to the settings\' from its form; the reward card form shows only what applies', async () => {
    const usdc = (await api<{ items: { _id: string; symbol: string }[] }>('GET', '/api/admin/coins?q=USDC')).items.find((c) => c.symbol === 'USDC')!;
    const pack = await api<{ _id: string }>('POST', '/api/admin/booster-packs', { name: 'Sized pack', coinId: usdc._id, price: '1000000', supply: 10, cardsPerPack: 4 });
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/booster-pack-cards/${pack._id}`);
    const size = page.getByRole('textbox', { name: /^Cards per pack/ });
    await size.waitFor();
    await size.fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL('**/booster-pack-cards');
    expect((await api<{ cardsPerPack: number | null; cards: number }>('GET', `/api/admin/booster-packs/${pack._id}`))).toMatchObject({ cardsPerPack: null, cards: 3 });

    await page.goto(`${h.baseUrl}/add-reward-card`);
    await page.getByPlaceholder('Choose condition').waitFor();
    const period = page.getByText('Period (days)');
    expect(await period.count()).toBe(0);
    await page.getByPlaceholder('Choose condition').click();
    await page.getByRole('option', { name: /Trading volume/ }).click();
    await period.first().waitFor();
    await page.getByPlaceholder('Choose condition').click();
    await page.getByRole('option', { name: 'Packs opened' }).click();
    await period.first().waitFor({ state: 'detached' });
    await page.getByPlaceholder('Choose reward').click();
    await page.getByRole('option', { name: /character card/ }).click();
    expect(await page.getByText('Reward amount (minor units)').count()).toBe(0);
    await page.getByText('Reward character').first().waitFor();
  });
  it('a view-only admin reads the settings\' switch: "Opening enabled" shows on (not a greyed-out disabled switch) and a click changes nothing', async () => {
    const viewer = { name: 'Vic Viewer', email: 'vic.viewer@pitboss.test', password: 'Vic-Reads-Lantern#42' };
    await h.createSubAdmin({ ...viewer, restriction: [{ name: 'Booster Packs', canView: true, canEdit: false }] });
    const page = await h.newPage();
    await h.signIn(page, viewer.email, viewer.password);
    await page.goto(`${h.baseUrl}/update-booster-pack`);
    const opening = page.getByRole('switch', { name: 'Opening enabled' });
    await opening.waitFor();
    expect(await opening.isChecked()).toBe(true);
    expect(await opening.isDisabled()).toBe(false);
    expect(await opening.getAttribute('aria-readonly')).toBe('true');
    await opening.click({ force: true });
    expect(await opening.isChecked()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
  });
});
