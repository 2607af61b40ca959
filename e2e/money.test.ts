import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFailures, startHarness, type Harness, newPlatformKey, platformResult } from './harness';

/**
 * The withdrawal review, as people do it: the platform reports a user, a deposit and a withdrawal
 * request (platform API); a sub-admin with the approve right approves it in the Withdraw list; one
 * with view only sees no button and is refused by the API; the user's page shows the amount held,
 * then paid once an admin completes the transfer.
 */
const PLATFORM_KEY = newPlatformKey();
let h: Harness;
let superToken: string;
const approver = { name: 'Ava Approver', email: 'ava.approver@pitboss.test', password: 'Ava-Approves-Lantern#7' };
const viewer = { name: 'Vic Viewer', email: 'vic.viewer@pitboss.test', password: 'Vic-Views-Harbour#8' };
let userId: string;
let withdrawalId: string;

const platform = <T>(path: string, body: unknown) => platformResult<T>(h, PLATFORM_KEY, 'POST', path, body);

beforeAll(async () => {
  h = await startHarness({ env: { PLATFORM_API_KEY: PLATFORM_KEY } });
  superToken = await h.loginToken(h.adminEmail, h.adminPassword);
  await h.createSubAdmin({ ...approver, restriction: [{ name: 'Withdraw', canView: true, canEdit: false, rights: ['approve'] }, { name: 'Users', canView: true, canEdit: false }] });
  await h.createSubAdmin({ ...viewer, restriction: [{ name: 'Withdraw', canView: true, canEdit: false }] });
  const user = await platform<{ _id: string }>('users', { username: 'satoshi_e2e', email: 'satoshi@players.test', country: 'JP' });
  userId = user._id;
  const deposit = await platform<{ _id: string }>('deposits', { userId, coin: 'USDC', amount: '50000000', txSignature: bs58.encode(randomBytes(64)), fromAddress: bs58.encode(randomBytes(32)) });
  expect((await h.api('POST', `/api/admin/deposits/${deposit._id}/confirm`, {}, superToken)).status).toBe(200);
  const w = await platform<{ _id: string; status: string }>('withdrawals', { userId, coin: 'USDC', amount: '12000000', toAddress: bs58.encode(randomBytes(32)) });
  expect(w.status).toBe('requested');
  withdrawalId = w._id;
});

reportFailures(() => h);

afterAll(async () => {
  await h?.stop();
});

describe('withdrawal review, end to end', () => {
  it('shows no approve button to a view-only sub-admin, and the API refuses them', async () => {
    const page = await h.newPage();
    await h.signIn(page, viewer.email, viewer.password);
    await page.goto(`${h.baseUrl}/withdraw`);
    const row = page.locator(`tr[data-row-id="${withdrawalId}"]`);
    await row.waitFor();
    await expect(row.getByRole('button', { name: 'Approve' }).count()).resolves.toBe(0);
    // No empty Actions column either.
    await expect(page.getByRole('columnheader', { name: 'Actions' }).count()).resolves.toBe(0);
    const token = await h.loginToken(viewer.email, viewer.password);
    expect((await h.api('POST', `/api/admin/withdrawals/${withdrawalId}/approve`, {}, token)).status).toBe(403);
  });

  it('lets the approver approve from the list; the user page shows the hold, then the payment once completed', async () => {
    const page = await h.newPage();
    await h.signIn(page, approver.email, approver.password);
    await page.goto(`${h.baseUrl}/user-history/${userId}`);
    await page.getByTestId('record-details').getByText('12.5 held').waitFor();

    await page.goto(`${h.baseUrl}/withdraw?status=requested`);
    const row = page.locator(`tr[data-row-id="${withdrawalId}"]`);
    await row.getByText('12.00 USDC').waitFor();
    await row.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Withdrawal of 12 USDC approved').waitFor();
    await expect(row.getByRole('button', { name: 'Approve' }).count()).resolves.toBe(0);
    await page.screenshot({ path: 'e2e/screenshots/money-withdrawals.png' });

    // The transfer is recorded by an admin with edit; the hold becomes a payment, the fee income.
    const signature = bs58.encode(randomBytes(64));
    expect((await h.api('POST', `/api/admin/withdrawals/${withdrawalId}/complete`, { txSignature: signature }, superToken)).status).toBe(200);
    await page.goto(`${h.baseUrl}/user-history/${userId}`);
    const details = page.getByTestId('record-details');
    await details.getByText('37.5 USDC available').waitFor();
    await expect(details.getByText('held').count()).resolves.toBe(0);
    await page.getByRole('tab', { name: 'Withdrawals' }).waitFor();
    await page.screenshot({ path: 'e2e/screenshots/money-user-page.png', fullPage: true });
  });

  it('tells only an admin without the Users edit right that a user is view-only; the super admin gets Block and no such notice', async () => {
    const boss = await h.newPage();
    await h.signIn(boss, h.adminEmail, h.adminPassword);
    await boss.goto(`${h.baseUrl}/user-history/${userId}`);
    await boss.getByTestId('record-details').getByText('satoshi_e2e').first().waitFor();
    await boss.getByRole('button', { name: 'Block' }).waitFor();
    await expect(boss.getByTestId('read-only-notice').count()).resolves.toBe(0);

    const page = await h.newPage();
    await h.signIn(page, approver.email, approver.password);
    await page.goto(`${h.baseUrl}/user-history/${userId}`);
    await page.getByTestId('read-only-notice').waitFor();
    await expect(page.getByRole('button', { name: 'Block' }).count()).resolves.toBe(0);
  });

  it('offers the super admin Approve and Reject on a request (named rights included), and the approver the same on the user page tab', async () => {
    const w = await platform<{ _id: string }>('withdrawals', { userId, coin: 'USDC', amount: '2000000', toAddress: bs58.encode(randomBytes(32)) });
    const boss = await h.newPage();
    await h.signIn(boss, h.adminEmail, h.adminPassword);
    await boss.goto(`${h.baseUrl}/withdraw?status=requested`);
    const row = boss.locator(`tr[data-row-id="${w._id}"]`);
    // The state reads as its label from the declared machine, whole.
    await row.getByText('Awaiting review').waitFor();
    await row.getByRole('button', { name: 'Approve' }).waitFor();
    await row.getByRole('button', { name: 'Reject' }).waitFor();
    // On the user's page (a Users page), the withdrawals tab acts with the Withdraw rights.
    const page = await h.newPage();
    await h.signIn(page, approver.email, approver.password);
    await page.goto(`${h.baseUrl}/user-history/${userId}`);
    await page.getByRole('tab', { name: 'Withdrawals' }).click();
    const tabRow = page.locator(`tr[data-row-id="${w._id}"]`);
    await tabRow.getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('dialog').getByPlaceholder('Choose reason').click();
    await page.getByRole('option', { name: 'Destination flagged or sanctioned' }).click();
    await page.getByRole('dialog').getByLabel('Note').fill('Destination not verified');
    await page.screenshot({ path: 'e2e/screenshots/money-reject-reason-code.png' });
    await page.getByRole('dialog').getByRole('button', { name: 'Reject' }).click();
    await tabRow.getByText('Rejected').waitFor();
    await expect(tabRow.getByRole('button', { name: 'Approve' }).count()).resolves.toBe(0);
  });

  it('keeps a list readable: long addresses by their ends (whole on hover), amounts grouped and rounded (exact on hover), rare actions off the rows', async () => {
    const whale = await platform<{ _id: string }>('users', { username: 'whale_e2e', email: 'whale@players.test', country: 'CH' });
    const deposit = await platform<{ _id: string }>('deposits', { userId: whale._id, coin: 'USDC', amount: '1234567500000', txSignature: bs58.encode(randomBytes(64)), fromAddress: bs58.encode(randomBytes(32)) });
    // Left pending: a table rounds it.
    const small = await platform<{ _id: string }>('deposits', { userId: whale._id, coin: 'USDC', amount: '2012345', txSignature: bs58.encode(randomBytes(64)), fromAddress: bs58.encode(randomBytes(32)) });
    expect((await h.api('POST', `/api/admin/deposits/${deposit._id}/confirm`, {}, superToken)).status).toBe(200);
    const toAddress = bs58.encode(randomBytes(32));
    const w = await platform<{ _id: string }>('withdrawals', { userId: whale._id, coin: 'USDC', amount: '2500000000', toAddress });
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/withdraw`);
    const row = page.locator(`tr[data-row-id="${w._id}"]`);
    await row.getByText('2,500.00 USDC').waitFor();
    const address = row.locator(`[title="${toAddress}"]`);
    await expect(address.textContent()).resolves.toBe(`${toAddress.slice(0, 14)}…${toAddress.slice(-8)}`);
    // The row's actions stay in view beside it (the whole address pushed them out of a 1440 px window).
    const approve = await row.getByRole('button', { name: 'Approve' }).boundingBox();
    expect(approve!.x + approve!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
    await page.goto(`${h.baseUrl}/deposit`);
    await page.locator(`tr[data-row-id="${deposit._id}"]`).getByText('1,234,567.50 USDC').waitFor();
    // Rounded to USDC's 2 display decimals, marked, the exact amount on hover.
    const odd = page.locator(`tr[data-row-id="${small._id}"] [data-exact]`);
    await expect(odd.locator('[aria-hidden]').textContent()).resolves.toBe('≈2.01 USDC');
    await odd.hover();
    await expect(page.getByRole('tooltip').textContent()).resolves.toBe('2.012345 USDC');
    // "Make house account" is on the user's page, not on every row of the users list.
    await page.goto(`${h.baseUrl}/user-list`);
    const userRow = page.locator(`tr[data-row-id="${whale._id}"]`);
    await userRow.getByRole('button', { name: 'Block' }).waitFor();
    await expect(userRow.getByRole('button', { name: 'Make house account' }).count()).resolves.toBe(0);
    await page.goto(`${h.baseUrl}/user-history/${whale._id}`);
    await page.getByRole('button', { name: 'Make house account' }).waitFor();
    await page.getByTestId('record-details').getByText('1,232,067 USDC available', { exact: false }).waitFor();
  });

  it('shows the withdrawal fee as income on the admin profit page, and exports it', async () => {
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/admin-profit`);
    const table = page.getByTestId('report-table');
    await table.getByText('0.5 USDC').waitFor();
    await expect(table.getByText('withdrawal fees', { exact: false }).count()).resolves.toBeGreaterThan(0);
    await page.getByTestId('report-chart-USDC').locator('svg.recharts-surface').waitFor();
    // The axis fits the 0.5 USDC of income (it was drawn on whole ticks, 0–4).
    const yTicks = page.getByTestId('report-chart-USDC').locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value');
    await yTicks.first().waitFor();
    const ticks = await yTicks.allTextContents();
    expect(ticks.length).toBeGreaterThan(1);
    expect(Math.max(...ticks.map(Number))).toBeLessThan(1);
    await page.screenshot({ path: 'e2e/screenshots/money-admin-profit.png', fullPage: true });
  });

  it('takes a balance adjustment as people write it: a coin picked by name, the amount in its units, read back before it is sent', async () => {
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    const balance = async (coin: string) => {
      const user = await h.api<{ balances: { coin: string; available: string }[] }>('GET', `/api/admin/users/${userId}`, undefined, superToken);
      return BigInt(user.body.result?.balances.find((b) => b.coin === coin)?.available ?? '0');
    };
    const before = await balance('USDC');
    await page.goto(`${h.baseUrl}/user-history/${userId}`);
    await page.getByRole('button', { name: 'Adjust balance' }).click();
    const dialog = page.getByRole('dialog');
    const pickCoin = async (symbol: string) => {
      await dialog.getByRole('combobox', { name: 'Coin' }).click();
      await dialog.getByRole('combobox', { name: 'Coin' }).fill(symbol);
      await page.getByRole('option', { name: new RegExp(`^${symbol}\\b`) }).click();
    };
    const amount = dialog.getByRole('textbox', { name: 'Amount' });
    // No coin yet: the field says what it waits for.
    await dialog.getByText('Choose the coin first').waitFor();
    await pickCoin('USDC');
    await amount.fill('5.1234567');
    await dialog.getByText('USDC has 6 decimals: at most 6 after the point').waitFor();
    await dialog.getByPlaceholder('Choose reason').click();
    await page.getByRole('option', { name: 'Goodwill credit' }).click();
    await dialog.getByLabel('Note').fill('Goodwill credit for a delayed payout');
    await dialog.getByRole('button', { name: 'Adjust balance' }).click();
    // Refused on the field: nothing was sent.
    await dialog.getByText('USDC has 6 decimals: at most 6 after the point').waitFor();
    expect(await balance('USDC')).toBe(before);
    await amount.fill('5');
    await dialog.getByText('= 5.000000 USDC').waitFor();
    await page.screenshot({ path: 'e2e/screenshots/money-adjust-balance.png' });
    await dialog.getByRole('button', { name: 'Adjust balance' }).click();
    await page.getByText('Credited 5.000000 USDC to satoshi_e2e').waitFor();
    expect(await balance('USDC')).toBe(before + 5_000_000n);

    // SOL has 9 decimals: its smallest unit is typed as such, and a debit is negative.
    const sol = await balance('SOL');
    const adjust = async (typed: string, echo: string, done: string) => {
      await page.getByRole('button', { name: 'Adjust balance' }).click();
      await pickCoin('SOL');
      await amount.fill(typed);
      await dialog.getByText(echo).waitFor();
      await dialog.getByPlaceholder('Choose reason').click();
      await page.getByRole('option', { name: 'Correction of an error' }).click();
      await dialog.getByRole('button', { name: 'Adjust balance' }).click();
      await page.getByText(done).waitFor();
    };
    await adjust('0.000000002', '= 0.000000002 SOL', 'Credited 0.000000002 SOL to satoshi_e2e');
    await adjust('-0.000000001', '= -0.000000001 SOL', 'Debited 0.000000001 SOL from satoshi_e2e');
    expect(await balance('SOL')).toBe(sol + 1n);
  });

  it('edits a coin’s fee in the coin’s units', async () => {
    const coins = await h.api<{ items: { _id: string; symbol: string; withdrawalFee: string }[] }>('GET', '/api/admin/coins?q=USDC', undefined, superToken);
    const usdc = coins.body.result!.items.find((c) => c.symbol === 'USDC')!;
    const page = await h.newPage();
    await h.signIn(page, h.adminEmail, h.adminPassword);
    await page.goto(`${h.baseUrl}/update-coin/${usdc._id}`);
    const fee = page.getByRole('textbox', { name: 'Withdrawal fee' });
    await expect.poll(() => fee.inputValue()).toBe('0.5');
    await fee.fill('0.25');
    await page.getByText('= 0.250000 USDC').waitFor();
    // The coin's own limits, in its units too; an empty daily limit is none.
    await page.getByRole('textbox', { name: 'Daily withdrawal limit per user' }).fill('20,000');
    await page.getByText('= 20,000.000000 USDC').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    const read = async () => (await h.api<{ withdrawalFee: string; dailyWithdrawalLimit: string | null }>('GET', `/api/admin/coins/${usdc._id}`, undefined, superToken)).body.result;
    await expect.poll(async () => (await read())?.withdrawalFee).toBe('250000');
    expect((await read())?.dailyWithdrawalLimit).toBe('20000000000');
    await page.goto(`${h.baseUrl}/update-coin/${usdc._id}`);
    const daily = page.getByRole('textbox', { name: 'Daily withdrawal limit per user' });
    await expect.poll(() => daily.inputValue()).toBe('20000');
    await daily.fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await read())?.dailyWithdrawalLimit).toBeNull();
    expect((await h.api('PATCH', `/api/admin/coins/${usdc._id}`, { withdrawalFee: usdc.withdrawalFee }, superToken)).status).toBe(200);
  });

  it('two approvals: A approves an 8,000 USDC withdrawal, it waits in B’s "Awaiting my approval"; B approves; A alone cannot', async () => {
    const second = { name: 'Bea Second', email: 'bea.second@pitboss.test', password: 'Bea-Seconds-Lighthouse#9' };
    await h.createSubAdmin({ ...second, restriction: [{ name: 'Withdraw', canView: true, canEdit: false, rights: ['approve'] }] });
    const coins = await h.api<{ items: { _id: string; symbol: string }[] }>('GET', '/api/admin/coins?q=USDC', undefined, superToken);
    const usdc = coins.body.result!.items.find((c) => c.symbol === 'USDC')!;
    expect((await h.api('PATCH', `/api/admin/coins/${usdc._id}`, { secondApprovalThreshold: '5000000000' }, superToken)).status).toBe(200);
    try {
      const whale = await platform<{ _id: string }>('users', { username: 'orca_e2e', email: 'orca@players.test', country: 'CH' });
      const deposit = await platform<{ _id: string }>('deposits', { userId: whale._id, coin: 'USDC', amount: '9000000000', txSignature: bs58.encode(randomBytes(64)), fromAddress: bs58.encode(randomBytes(32)) });
      expect((await h.api('POST', `/api/admin/deposits/${deposit._id}/confirm`, {}, superToken)).status).toBe(200);
      const w = await platform<{ _id: string }>('withdrawals', { userId: whale._id, coin: 'USDC', amount: '8000000000', toAddress: bs58.encode(randomBytes(32)) });

      // A gives the first approval from the list: it now waits, and A cannot give the second.
      const a = await h.newPage();
      await h.signIn(a, approver.email, approver.password);
      await a.goto(`${h.baseUrl}/withdraw?status=requested`);
      const row = a.locator(`tr[data-row-id="${w._id}"]`);
      await row.getByRole('button', { name: 'Approve' }).click();
      // The dialog names what it approves: the amount, the user, the destination by its ends.
      await a.getByRole('dialog').getByText('Approve 8000 USDC to orca_e2e').waitFor();
      await a.getByRole('dialog').getByTestId('action-subject').getByRole('button', { name: 'Copy whole' }).waitFor();
      // And what an approver would look up: the flags, the balances and flows, the destination.
      const risk = a.getByRole('dialog').getByTestId('withdrawal-risk');
      for (const flag of ['new_account', 'first_withdrawal', 'new_destination', 'two_approvals']) await risk.locator(`[data-flag="${flag}"]`).waitFor();
      await risk.getByText('not whitelisted · new for this user · no other user').waitFor();
      await risk.locator('tr[data-coin="USDC"]').getByText('9,000 USDC').waitFor();
      await a.screenshot({ path: 'e2e/screenshots/money-approve-risk.png' });
      await a.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
      await a.getByText('First approval of 8000 USDC given: a second admin must approve it').waitFor();
      const aToken = await h.loginToken(approver.email, approver.password);
      expect((await h.api('POST', `/api/admin/withdrawals/${w._id}/approve`, {}, aToken)).status).toBe(403);
      await expect(a.getByTestId('awaiting-approval-count').count()).resolves.toBe(0);

      // B sees it counted in the sidebar and listed, opens it and approves.
      const b = await h.newPage();
      await h.signIn(b, second.email, second.password);
      await b.getByTestId('awaiting-approval-count').filter({ hasText: '1' }).waitFor();
      await b.getByRole('link', { name: /Awaiting my approval/ }).click();
      const item = b.getByRole('row', { name: /Withdrawal of 8,000 USDC to orca_e2e/ });
      await item.getByText(approver.email).waitFor();
      await b.screenshot({ path: 'e2e/screenshots/money-awaiting-approval.png' });
      await item.getByText('Withdrawal of 8,000 USDC to orca_e2e').click();
      const waiting = b.locator(`tr[data-row-id="${w._id}"]`);
      await waiting.getByText('Awaiting second approval').waitFor();
      await waiting.getByRole('button', { name: 'Approve' }).click();
      await b.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
      await b.getByText('Withdrawal of 8000 USDC approved').waitFor();
      await expect.poll(() => b.getByTestId('awaiting-approval-count').count()).toBe(0);

      // Paid: the transfer completes and the user's hold is gone.
      expect((await h.api('POST', `/api/admin/withdrawals/${w._id}/complete`, { txSignature: bs58.encode(randomBytes(64)) }, superToken)).status).toBe(200);
      const user = await h.api<{ balances: { coin: string; available: string; held: string }[] }>('GET', `/api/admin/users/${whale._id}`, undefined, superToken);
      expect(user.body.result?.balances.find((x) => x.coin === 'USDC')).toMatchObject({ available: '999500000', held: '0' });
    } finally {
      await h.api('PATCH', `/api/admin/coins/${usdc._id}`, { secondApprovalThreshold: null }, superToken);
    }
  });

  it('a large balance adjustment waits for a second admin, who applies it from "Awaiting my approval"; it is reversed, never edited', async () => {
    const asker = { name: 'Ada Adjuster', email: 'ada.adjuster@pitboss.test', password: 'Ada-Adjusts-Harbour#4' };
    await h.createSubAdmin({ ...asker, restriction: [{ name: 'Users', canView: true, canEdit: false, rights: ['adjust-balance'] }] });
    const coins = await h.api<{ items: { _id: string; symbol: string }[] }>('GET', '/api/admin/coins?q=USDC', undefined, superToken);
    const usdc = coins.body.result!.items.find((c) => c.symbol === 'USDC')!;
    expect((await h.api('PATCH', `/api/admin/coins/${usdc._id}`, { adjustmentApprovalThreshold: '500000000' }, superToken)).status).toBe(200);
    const available = async () => {
      const user = await h.api<{ balances: { coin: string; available: string }[] }>('GET', `/api/admin/users/${userId}`, undefined, superToken);
      return BigInt(user.body.result?.balances.find((b) => b.coin === 'USDC')?.available ?? '0');
    };
    try {
      const before = await available();
      // Ada asks for 600 USDC from the user's page: nothing moves yet.
      const a = await h.newPage();
      await h.signIn(a, asker.email, asker.password);
      await a.goto(`${h.baseUrl}/user-history/${userId}`);
      await a.getByRole('button', { name: 'Adjust balance' }).click();
      const dialog = a.getByRole('dialog');
      await dialog.getByRole('combobox', { name: 'Coin' }).click();
      await dialog.getByRole('combobox', { name: 'Coin' }).fill('USDC');
      await a.getByRole('option', { name: /^USDC\b/ }).click();
      await dialog.getByRole('textbox', { name: 'Amount' }).fill('600');
      await dialog.getByPlaceholder('Choose reason').click();
      await a.getByRole('option', { name: 'Deposit credited by hand' }).click();
      await dialog.getByLabel('Note').fill('Wire TR-88412 received by the treasury');
      await dialog.getByRole('button', { name: 'Adjust balance' }).click();
      await a.getByText(/^Adjustment #\d+ \(600\.000000 USDC\) waits for a second admin's approval/).waitFor();
      expect(await available()).toBe(before);

      // The super admin sees it waiting, opens it and applies it.
      const b = await h.newPage();
      await h.signIn(b, h.adminEmail, h.adminPassword);
      await b.getByRole('link', { name: /Awaiting my approval/ }).click();
      const item = b.getByRole('row', { name: /Credit 600 USDC to satoshi_e2e/ });
      await item.getByText(asker.email).waitFor();
      await item.getByText('Credit 600 USDC to satoshi_e2e').click();
      await b.waitForURL(/\/balance-adjustments\?/);
      const row = b.locator('tr[data-row-id]').filter({ hasText: 'Awaiting second approval' });
      await row.getByText('Deposit credited by hand').waitFor();
      await row.getByRole('button', { name: 'Approve' }).click();
      await b.getByRole('dialog').getByText('Apply 600 USDC to satoshi_e2e').waitFor();
      await b.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
      await b.getByText('Applied 600 USDC to satoshi_e2e').waitFor();
      expect(await available()).toBe(before + 600_000_000n);

      // Entered for the wrong user after all: reversed from its page, by a linked opposite adjustment (which waits too).
      await b.goto(`${h.baseUrl}/balance-adjustments?userId=${userId}&status=applied`);
      await b.locator('tr[data-row-id]').filter({ hasText: /(^|\D)600(\.00)? USDC/ }).first().getByRole('button', { name: 'Details' }).click();
      // A rare correction, not on every row: offered in the record's drawer.
      await b.getByRole('dialog').getByRole('button', { name: 'Reverse' }).click();
      const reverse = b.getByRole('dialog').filter({ hasText: 'Reverse 600 USDC of satoshi_e2e' });
      await reverse.getByPlaceholder('Choose reason').click();
      await b.getByRole('option', { name: 'Wrong user or coin' }).click();
      await b.screenshot({ path: 'e2e/screenshots/money-reverse-adjustment.png' });
      await reverse.getByRole('button', { name: 'Reverse' }).click();
      await b.getByText(/^Reversal #\d+ waits for a second admin's approval$/).waitFor();
      expect(await available()).toBe(before + 600_000_000n);
    } finally {
      await h.api('PATCH', `/api/admin/coins/${usdc._id}`, { adjustmentApprovalThreshold: null }, superToken);
    }
  });
});
