import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFailures, startHarness, type Harness } from './harness';

/**
 * The card catalogue as an operator builds it: a tier (name, colour, drop weight), a category with
 * an image dropped into its form (uploaded, re-encoded, previewed), a character of that category and
 * tier picked by typing, and the lists showing the thumbnails the server serves.
 */
let h: Harness;
let superToken: string;
const POLL = { timeout: 15_000 };
const main = (page: Page) => page.locator('main');
const pathOf = (page: Page) => new URL(page.url()).pathname;

beforeAll(async () => {
  h = await startHarness();
  superToken = await h.loginToken(h.adminEmail, h.adminPassword);
});

reportFailures(() => h);

afterAll(async () => {
  await h?.stop();
});

async function pick(page: Page, label: string, typed: string, option: RegExp) {
  const picker = page.getByRole('combobox', { name: label });
  await picker.click();
  await picker.fill(typed);
  await page.getByRole('option', { name: option }).click();
}

describe('card catalogue, end to end', () => {
  it('creates a tier, a category with an uploaded image and a character; the lists show the thumbnails', async () => {
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);

    // A tier.
    await page.goto(`${h.baseUrl}/add-tier`);
    await page.getByRole('textbox', { name: /^Name/ }).fill('Mythic');
    await page.getByRole('textbox', { name: /^Colour/ }).fill('#aa33cc');
    await page.getByRole('textbox', { name: /^Drop weight/ }).fill('7');
    await page.getByRole('button', { name: 'Create card tier' }).click();
    await page.waitForURL('**/card-tier');
    await main(page).getByRole('cell', { name: 'Mythic' }).waitFor();
    await main(page).getByText('#aa33cc').waitFor();

    // A category with an image: dropped into the form's drop zone (its file input), previewed at once.
    await page.goto(`${h.baseUrl}/add-category`);
    await page.getByRole('textbox', { name: /^Name/ }).fill('Deep Sea');
    await page.getByRole('textbox', { name: /^Slug/ }).fill('deep-sea');
    const art = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#0b7285' } })
      .composite([{ input: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><circle cx="150" cy="150" r="140" fill="#ffd43b"/></svg>'), left: 300, top: 150 }])
      .jpeg()
      .withExif({ IFD0: { Make: 'E2E-Cam' } })
      .toBuffer();
    await page.locator('[data-field="imageUrl"] input[type="file"]').setInputFiles({ name: 'deep-sea.jpg', mimeType: 'image/jpeg', buffer: art });
    const preview = page.getByTestId('preview-imageUrl');
    await preview.waitFor(POLL);
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), POLL).toBe(320);
    await page.screenshot({ path: 'e2e/screenshots/category-image-upload.png' });
    await page.getByRole('button', { name: 'Create card category' }).click();
    await page.waitForURL('**/card-category');
    const row = main(page).locator('tbody tr', { hasText: 'Deep Sea' });
    await row.waitFor();
    const thumb = row.locator('img[data-thumbnail]');
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), POLL).toBeGreaterThan(0);
    const src = await thumb.getAttribute('src');
    expect(src).toMatch(/^\/api\/uploads\/[0-9a-f]{64}\.thumb\.webp$/);
    // What the browser got: WebP, nosniff, cached for good, without the camera's metadata.
    const served = await fetch(`${h.baseUrl}${src!.replace('.thumb', '')}`);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toContain('immutable');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', 900, 600, undefined]);

    // An SVG dropped on the zone is refused by the browser's accept list and, sent anyway, by the server.
    await page.goto(`${h.baseUrl}/add-character`);
    await page.getByRole('textbox', { name: /^Name/ }).fill('Kraken');
    await pick(page, 'Category', 'Deep', /Deep Sea/);
    await pick(page, 'Tier', 'Myth', /Mythic/);
    await page.getByRole('textbox', { name: /^Max supply/ }).fill('250');
    await page.getByRole('textbox', { name: /^Description/ }).fill('Sleeps under the reef.');
    await page.getByRole('button', { name: 'Add attribute' }).click();
    await page.getByRole('textbox', { name: 'Attributes 1 name' }).fill('Power');
    await page.getByRole('textbox', { name: 'Attributes 1 value' }).fill('9');
    const kraken = await sharp({ create: { width: 360, height: 504, channels: 4, background: '#5f3dc4' } }).png().toBuffer();
    await page.locator('[data-field="imageUrl"] input[type="file"]').setInputFiles({ name: 'kraken.png', mimeType: 'image/png', buffer: kraken });
    await page.getByTestId('preview-imageUrl').waitFor(POLL);
    await page.getByRole('button', { name: 'Create card character' }).click();
    await page.waitForURL('**/card-characters');
    const characterRow = main(page).locator('tbody tr', { hasText: 'Kraken' });
    await characterRow.waitFor();
    await characterRow.getByText('Mythic').waitFor();
    await characterRow.getByText('Deep Sea').waitFor();
    const characterThumb = characterRow.locator('img[data-thumbnail]');
    await expect.poll(() => characterThumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), POLL).toBeGreaterThan(0);
    await page.screenshot({ path: 'e2e/screenshots/card-characters.png' });

    const saved = await h.api<{ items: { name: string; maxSupply: number; mintedCount: number; attributes: unknown; imageUrl: string }[] }>('GET', '/api/admin/card-characters?q=Kraken', undefined, superToken);
    expect(saved.body.result!.items[0]).toMatchObject({ maxSupply: 250, mintedCount: 0, attributes: [{ key: 'Power', value: '9' }], imageUrl: expect.stringMatching(/^\/api\/uploads\//) });

    // The tier is in use now: deleting it is refused with the way out.
    await page.goto(`${h.baseUrl}/card-tier`);
    const tierRow = main(page).locator('tbody tr', { hasText: 'Mythic' });
    await tierRow.click();
    await page.waitForURL('**/update-tier/*');
    await main(page).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText(/used by 1 character: it cannot be deleted/).first().waitFor(POLL);
    expect(pathOf(page)).toMatch(/^\/update-tier\//);
  });
});
