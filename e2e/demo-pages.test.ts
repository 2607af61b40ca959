import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPlatformKey, platformResult, reportFailures, startHarness, type Harness } from './harness';

/**
 * Pages as an admin meets them on the demo's data (APP_MODE=demo: the demo snapshot loaded, dated to
 * now; the time allowed is for a live seed, when the snapshot is stale), in
 * Chromium at 1440 × 900: what only shows with real rows (a table's widths, a filter's choices).
 */
let h: Harness;
let token: string;
const PLATFORM_KEY = newPlatformKey();

beforeAll(async () => {
  // The simulator off: the lists' rows (and so their widths) stay the ones the seed wrote.
  h = await startHarness({ env: { APP_MODE: 'demo', DEMO_SIMULATOR: 'off', PLATFORM_API_KEY: PLATFORM_KEY }, readyTimeoutMs: 200_000 });
  token = await h.loginToken(h.adminEmail, h.adminPassword);
}, 240_000);

reportFailures(() => h);

afterAll(async () => {
  await h?.stop();
});

async function api<T>(path: string): Promise<T> {
  const res = await h.api<T>('GET', path, undefined, token);
  if (!res.body.success) throw new Error(`GET ${path}: ${res.status} ${res.body.message}`);
  return res.body.result as T;
}

let signedIn: Page | null = null;
async function adminPage(): Promise<Page> {
  if (signedIn) return signedIn;
  const page = await h.newPage();
  await h.signIn(page, h.adminEmail, h.adminPassword);
  signedIn = page;
  return page;
}

/** Opens a list and waits for its rows. */
async function openList(page: Page, path: string): Promise<void> {
  await page.goto(`${h.baseUrl}${path}`);
  await page.locator('table tbody tr[data-row-id]').first().waitFor();
}

/** The list table's width against the box that holds it (wider: it scrolls sideways), and the page's against the window. */
function tableFit(page: Page) {
  return page.evaluate(() => {
    const table = document.querySelector('table')!;
    const box = table.closest('.mantine-ScrollArea-viewport') ?? table.parentElement!;
    // Each column's heading and width, for the message when a table does not fit (the demo's data is drawn anew each run).
    const columns = [...table.querySelectorAll('thead th')].map((th) => `${th.textContent?.trim() ?? ''} ${Math.round(th.getBoundingClientRect().width)}`).join(', ');
    return { table: table.scrollWidth, box: box.clientWidth, page: document.documentElement.scrollWidth, window: window.innerWidth, columns };
  });
}

/** The headings the table shows. */
const headings = (page: Page) => page.locator('table thead th').allInnerTexts().then((t) => t.map((x) => x.replace(/\s+/g, ' ').trim()));

describe('lists on the demo data at 1440 px', () => {
  it('support tickets: the subject is wide enough to read, on one line, whole on hover; the table fits', async () => {
    const page = await adminPage();
    await openList(page, '/ticket-list');
    const fit = await tableFit(page);
    expect(fit.table, 'the ticket table scrolls sideways').toBeLessThanOrEqual(fit.box);
    expect(fit.page).toBeLessThanOrEqual(fit.window);

    const shown = await page.evaluate(() => {
      const ths = [...document.querySelectorAll('table thead th')];
      const at = ths.findIndex((th) => th.textContent?.trim() === 'Subject');
      return [...document.querySelectorAll('table tbody tr[data-row-id]')].map((tr) => {
        const cell = tr.children[at] as HTMLElement;
        const text = cell.querySelector('[title]') as HTMLElement | null;
        const lineHeight = Number.parseFloat(getComputedStyle(text ?? cell).lineHeight);
        return {
          id: tr.getAttribute('data-row-id')!,
          width: cell.getBoundingClientRect().width,
          lines: Math.round((text ?? cell).getBoundingClientRect().height / lineHeight),
          title: text?.getAttribute('title') ?? null,
        };
      });
    });
    const tickets = await api<{ items: { _id: string; subject: string }[] }>('/api/admin/tickets?limit=20');
    expect(shown.length).toBeGreaterThan(5);
    for (const row of shown) {
      // About 30 characters or more (it was squeezed to about 10, "Withdrawal to…" on two lines).
      expect(row.width, `subject of ticket ${row.id}`).toBeGreaterThanOrEqual(200);
      expect(row.lines, `subject of ticket ${row.id}`).toBe(1);
      expect(row.title).toBe(tickets.items.find((t) => t._id === row.id)?.subject);
    }
    // The columns a support queue is worked from are there; Category and Created are a click away (Columns).
    expect(await headings(page)).toEqual(expect.arrayContaining(['Subject', 'User', 'Priority', 'Status', 'Assignee', 'Waiting since', 'Last activity', 'Actions']));
    await page.screenshot({ path: 'e2e/screenshots/demo-ticket-list.png' });
  });

  it('trade history: orders, trades and positions fit, newest and oldest first (dates in full), and so do their tabs on a user\'s and a market\'s page', async () => {
    const page = await adminPage();
    // A player holding shares: they have orders and trades too.
    const order = (await api<{ items: { userId: string; marketId: string }[] }>('/api/admin/open-positions?limit=1')).items[0]!;
    const lists: { path: string; shows: string[] }[] = [
      { path: '/trade-history', shows: ['Time', 'Market', 'Taker', 'Taker outcome', 'Taker side', 'Maker', 'YES price (¢)', 'Quantity', 'Taker fee'] },
      { path: '/trade-history?sort=createdAt', shows: ['Time'] },
      { path: '/order-history', shows: ['Placed', 'Market', 'User', 'Outcome', 'Side', 'Price (¢)', 'Quantity', 'Filled', 'Status', 'Actions'] },
      { path: '/order-history?sort=createdAt', shows: ['Placed'] },
      { path: '/open-positions', shows: ['Last change', 'Market', 'User', 'Outcome', 'Shares', 'Offered', 'Avg price (¢)', 'Cost', 'Realised P&L'] },
      { path: '/open-positions?sort=updatedAt', shows: ['Last change'] },
      { path: '/closed-positions', shows: ['Closed', 'Market', 'User', 'Settlement paid', 'Realised P&L'] },
      { path: `/user-history/${order.userId}?tab=child:orders`, shows: ['Placed', 'Market', 'Price (¢)', 'Quantity', 'Filled', 'Status'] },
      { path: `/user-history/${order.userId}?tab=child:trades`, shows: ['Time', 'Market', 'Taker', 'Maker', 'Quantity'] },
      { path: `/user-history/${order.userId}?tab=child:open-positions`, shows: ['Market', 'Shares', 'Cost'] },
      { path: `/update-market/${order.marketId}?tab=child:orders`, shows: ['Placed', 'User', 'Price (¢)', 'Quantity'] },
    ];
    for (const list of lists) {
      await openList(page, list.path);
      const fit = await tableFit(page);
      expect(fit.table, `${list.path} scrolls sideways (${fit.columns})`).toBeLessThanOrEqual(fit.box);
      expect(fit.page, `${list.path}: the page scrolls sideways`).toBeLessThanOrEqual(fit.window);
      expect(await headings(page), list.path).toEqual(expect.arrayContaining(list.shows));
    }
    await openList(page, '/trade-history');
    await page.screenshot({ path: 'e2e/screenshots/demo-trade-history.png' });
  });

  it('markets, unresolved markets, trade bots, events and series fit, the title on one line, each tag whole; what they leave out is in Columns', async () => {
    const page = await adminPage();
    const lists: { path: string; shows: string[]; inColumns: string[] }[] = [
      { path: '/markets', shows: ['Ticker', 'Title', 'Status', 'Last (¢)', 'Volume', 'Closes', 'Result', 'Actions'], inColumns: ['Event', 'Bid (¢)', 'Ask (¢)', 'Open interest'] },
      { path: '/unresolved-markets', shows: ['Closed', 'Ticker', 'Title', 'Last (¢)', 'Volume', 'Open interest', 'Status', 'Actions'], inColumns: ['Event'] },
      { path: '/trade-bot', shows: ['Name', 'Trades as', 'Status', 'Markets', 'Fair price', 'Spread (¢)', 'Quotes resting', 'Fills', 'P&L', 'Last run', 'Actions'], inColumns: ['Levels', 'Size', 'Max position', 'Refresh (s)'] },
      { path: '/events', shows: ['Ticker', 'Title', 'Status', 'Opens', 'Closes', 'Markets', 'Tags', 'Actions'], inColumns: ['Series', 'Expected resolution'] },
      { path: '/series', shows: ['Ticker', 'Title', 'Frequency', 'Category', 'Tags', 'Events', 'Status'], inColumns: [] },
    ];
    for (const list of lists) {
      await openList(page, list.path);
      const fit = await tableFit(page);
      expect(fit.table, `${list.path} scrolls sideways (${fit.columns})`).toBeLessThanOrEqual(fit.box);
      expect(fit.page, `${list.path}: the page scrolls sideways`).toBeLessThanOrEqual(fit.window);
      const shown = await headings(page);
      expect(shown, list.path).toEqual(expect.arrayContaining(list.shows));
      // The title column (a market's question, a bot's name) reads on one line.
      const titles = await page.locator('table tbody [data-headline]').evaluateAll((els) =>
        els.map((e) => Math.round(e.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(e).lineHeight))),
      );
      expect(titles.length, list.path).toBeGreaterThan(0);
      expect(titles.every((lines) => lines === 1), list.path).toBe(true);
      // Every badge reads whole: a bot's market tickers, an event's tags ("KXCPI-26DEC-…" three times,
      // "E" for Entertainment, before they could break over lines).
      const cut = await page.locator('table tbody .mantine-Badge-label').evaluateAll((els) =>
        els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent),
      );
      expect(cut, `${list.path}: badges cut short`).toEqual([]);
      // Left out, a click away: unticked in Columns.
      await page.getByRole('button', { name: 'Columns' }).click();
      for (const label of list.inColumns) {
        expect(shown, `${list.path} shows ${label}`).not.toContain(label);
        await expect.poll(() => page.getByRole('checkbox', { name: label, exact: true }).isChecked(), { message: `${list.path}: ${label} in Columns` }).toBe(false);
      }
      await page.keyboard.press('Escape');
      await page.screenshot({ path: `e2e/screenshots/demo${list.path.replace(/\//g, '-')}.png` });
    }
    // Picked, a column shows and stays after a reload, on this page only (the unresolved markets,
    // a view of the same markets, keep their own choices); "Reset to default" puts it away again.
    await openList(page, '/markets');
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Event', exact: true }).check();
    await expect.poll(() => headings(page)).toContain('Event');
    await page.keyboard.press('Escape');
    await page.reload();
    await page.locator('table tbody tr[data-row-id]').first().waitFor();
    await expect.poll(() => headings(page)).toContain('Event');
    await openList(page, '/unresolved-markets');
    expect(await headings(page)).not.toContain('Event');
    await openList(page, '/markets');
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('menuitem', { name: 'Reset to default' }).click();
    await expect.poll(() => headings(page)).not.toContain('Event');
  });

  it("reconciliation: the checks fit, and the demo's explained difference names the deposit in flight that explains it", async () => {
    const page = await adminPage();
    await openList(page, '/reconciliation?status=explained');
    const fit = await tableFit(page);
    expect(fit.table, `the reconciliation table scrolls sideways: ${fit.columns}`).toBeLessThanOrEqual(fit.box);
    expect(fit.page).toBeLessThanOrEqual(fit.window);
    expect(await headings(page)).toEqual(expect.arrayContaining(['As of', 'Coin', 'Status', 'Custody reported', 'Ledger', 'Difference', 'Deposits in flight', 'Unexplained']));
    await page.locator('table tbody tr[data-row-id]').first().click();
    const drawer = page.getByRole('dialog');
    await expect.poll(() => drawer.innerText()).toMatch(/Deposit #\d+: 1250 USDC from \S+, seen on chain .* not confirmed then/);
    expect(await drawer.innerText()).toMatch(/explained difference/i);
    await page.screenshot({ path: 'e2e/screenshots/demo-reconciliation.png' });
    await page.keyboard.press('Escape');
  });

  it('a 32-character username wraps in its cell, whole on hover, and the lists still fit', async () => {
    const page = await adminPage();
    // The longest username the platform takes, one word: unbroken it widened a ticket list by 90 px.
    const username = 'an_unusually_long_username_0042x';
    expect(username).toHaveLength(32);
    const email = 'an.unusually.long.address.for.a.player@players.example';
    const user = await platformResult<{ _id: string }>(h, PLATFORM_KEY, 'POST', 'users', { username, email, country: 'FR' });
    const ticket = await platformResult<{ _id: string }>(h, PLATFORM_KEY, 'POST', 'tickets', { userId: user._id, subject: 'My withdrawal has been pending since yesterday', message: 'Still pending.' });
    const lists = [
      // Newest first: the user's ticket and the user lead their lists.
      { path: '/ticket-list', row: ticket._id, column: 'User', text: username },
      { path: '/user-list', row: user._id, column: 'Username', text: username },
      { path: '/user-list', row: user._id, column: 'Email', text: email },
    ];
    for (const list of lists) {
      await openList(page, list.path);
      await page.locator(`tr[data-row-id="${list.row}"]`).waitFor();
      const fit = await tableFit(page);
      expect(fit.table, `${list.path} scrolls sideways with ${list.text}`).toBeLessThanOrEqual(fit.box);
      const cell = await page.evaluate(({ row, column }) => {
        const at = [...document.querySelectorAll('table thead th')].findIndex((th) => th.textContent?.trim() === column);
        const td = document.querySelector(`tr[data-row-id="${row}"]`)!.children[at] as HTMLElement;
        const text = td.querySelector('[title]') as HTMLElement;
        return { title: text.getAttribute('title'), lines: Math.round(text.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(text).lineHeight)), width: td.getBoundingClientRect().width };
      }, list);
      expect(cell.title, `${list.path} ${list.column}`).toBe(list.text);
      expect(cell.lines, `${list.path} ${list.column}`).toBeLessThanOrEqual(2);
      await page.screenshot({ path: `e2e/screenshots/demo-long-name${list.path.replace(/\//g, '-')}.png` });
    }
  });
});

describe('filters', () => {
  // The same country filter on two lists: picked by name, "France (FR)", the list asks for FR and shows what the API gives for it.
  for (const list of [
    { name: 'offline stores', path: '/offline-store', api: '/api/admin/offline-stores', shot: 'demo-offline-store-country' },
    { name: 'users', path: '/user-list', api: '/api/admin/users', shot: 'demo-user-list-country' },
  ]) {
    it(`${list.name}: the country is picked by name, "France (FR)", and the list asks for FR`, async () => {
      const page = await adminPage();
      await openList(page, list.path);
      const country = page.getByRole('combobox', { name: 'Country' });
      await country.click();
      await country.fill('fra');
      await page.getByRole('option', { name: 'France (FR)' }).waitFor();
      await page.screenshot({ path: `e2e/screenshots/${list.shot}.png` });
      await page.getByRole('option', { name: 'France (FR)' }).click();
      await page.waitForURL((url) => url.searchParams.get('country') === 'FR');
      const french = (await api<{ items: { _id: string; country: string }[] }>(`${list.api}?country=FR`)).items;
      expect(french.length).toBeGreaterThan(0);
      expect(french.every((r) => r.country === 'FR')).toBe(true);
      await expect.poll(() => page.locator('table tbody tr[data-row-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-id'))), { timeout: 15_000 }).toEqual(french.map((r) => r._id));
      // A reload keeps the choice, shown by name.
      await page.reload();
      await expect.poll(() => page.getByRole('combobox', { name: 'Country' }).inputValue()).toBe('France (FR)');
    });
  }

  it("offline store form: the country is a searchable select of countries by name, and the store saves the picked code", async () => {
    const page = await adminPage();
    await page.goto(`${h.baseUrl}/add-offline-store`);
    await page.getByRole('textbox', { name: /^Name/ }).fill('Het Kaartenhuis');
    await page.getByRole('textbox', { name: /^Address/ }).fill('Meir 12');
    await page.getByRole('textbox', { name: /^City/ }).fill('Antwerpen');
    const country = page.getByRole('combobox', { name: /^Country/ });
    await country.click();
    await country.fill('belg');
    await page.getByRole('option', { name: 'Belgium (BE)' }).waitFor();
    // Searched by name: no other country holds "belg".
    expect(await page.getByRole('option').allInnerTexts()).toEqual(['Belgium (BE)']);
    await page.screenshot({ path: 'e2e/screenshots/demo-offline-store-form-country.png' });
    await page.getByRole('option', { name: 'Belgium (BE)' }).click();
    expect(await country.inputValue()).toBe('Belgium (BE)');
    await page.getByRole('textbox', { name: /^Latitude/ }).fill('51.2194');
    await page.getByRole('textbox', { name: /^Longitude/ }).fill('4.4025');
    await page.getByRole('textbox', { name: /^Contact/ }).fill('hallo@kaartenhuis.example');
    await page.getByRole('button', { name: 'Create offline store' }).click();
    await page.waitForURL((url) => url.pathname === '/offline-store');
    const stores = (await api<{ items: { _id: string; name: string; country: string }[] }>('/api/admin/offline-stores?q=Kaartenhuis')).items;
    expect(stores).toEqual([expect.objectContaining({ name: 'Het Kaartenhuis', country: 'BE' })]);
    // Its page shows the country by name.
    await page.goto(`${h.baseUrl}/update-offline-store/${stores[0]!._id}`);
    await expect.poll(() => page.getByRole('combobox', { name: /^Country/ }).inputValue()).toBe('Belgium (BE)');
  });

  it('redemption codes: the allocation is picked by its title, "<pack> at <store>", found by either name', async () => {
    const page = await adminPage();
    const allocations = (await api<{ items: { _id: string; title: string; store: string; pack: string }[] }>('/api/admin/store-allocations?limit=50')).items;
    const alloc = allocations.find((a) => a.store === 'Le Comptoir des Cartes' && a.pack === 'Genesis Booster') ?? allocations[0]!;
    await openList(page, '/store-codes');
    const picker = page.getByRole('combobox', { name: 'Allocation' });
    await picker.click();
    await picker.fill(alloc.store.split(' ').at(-1)!.toLowerCase());
    const option = page.getByRole('option', { name: new RegExp(`^${alloc.title}`) });
    await option.waitFor();
    await page.screenshot({ path: 'e2e/screenshots/demo-store-codes-allocation.png' });
    await option.click();
    await page.waitForURL((url) => url.searchParams.get('allocationId') === alloc._id);
    const codes = (await api<{ items: { _id: string }[] }>(`/api/admin/store-codes?allocationId=${alloc._id}&limit=20`)).items.map((c) => c._id);
    expect(codes.length).toBeGreaterThan(0);
    await expect.poll(() => page.locator('table tbody tr[data-row-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-id'))), { timeout: 15_000 }).toEqual(codes);
    expect(await picker.inputValue()).toBe(alloc.title);
  });
});

describe('toasts', () => {
  it('a refused attachment\'s toast names the file as it is named (photo.heic, not Photo.heic), its first letter still capital', async () => {
    const page = await adminPage();
    const ticket = (await api<{ items: { _id: string }[] }>('/api/admin/tickets?limit=1')).items[0]!;
    await page.goto(`${h.baseUrl}/support-reply/${ticket._id}`);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('attach').click()]);
    await chooser.setFiles([{ name: 'photo.heic', mimeType: 'image/heic', buffer: Buffer.from('….heic bytes, not an image this server takes') }]);
    const toast = page.locator('[data-toast-type="error"]').filter({ hasText: 'Only PNG, JPEG, WebP, GIF images and PDF files' });
    await toast.waitFor();
    expect(await toast.innerText()).toMatch(/^Could not attach photo\.heic: Only PNG/);
    await page.screenshot({ path: 'e2e/screenshots/demo-upload-refused-toast.png' });
  });
});
