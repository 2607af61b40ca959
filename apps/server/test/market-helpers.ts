import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { fund, makeUser, type MoneyFixture } from './money-helpers.js';

/** `h` hours from now, as the API takes a date. */
export const hoursFromNow = (h: number): string => new Date(Date.now() + h * 3_600_000).toISOString();

/** An admin POST (`/api/admin/<path>`) as the test makes it: through `call`, `inject` or `fetch` of whichever server. */
export type AdminPost = (path: string, body?: unknown) => Promise<{ status: number; body: { result?: { _id: string } } | null }>;

let seq = 0;

/**
 * An open event (opened an hour ago, closing in 48 h, resolving in 50 h) with one open market, made
 * through the admin API; tickers `<prefix>-E<n>` and `<prefix>-M<n>`, unique in the database.
 */
export async function openTestMarket(post: AdminPost, prefix: string): Promise<{ id: number; ticker: string; eventId: number }> {
  const n = `${++seq}${randomBytes(2).toString('hex')}`.toUpperCase();
  const ev = await post('events', { ticker: `${prefix}-E${n}`, title: `Event ${n}`, openTime: hoursFromNow(-1), closeTime: hoursFromNow(48), expectedResolutionTime: hoursFromNow(50) });
  expect(ev.status, JSON.stringify(ev.body)).toBe(200);
  const eventId = ev.body!.result!._id;
  expect((await post(`events/${eventId}/open`, {})).status).toBe(200);
  const ticker = `${prefix}-M${n}`;
  const m = await post('markets', { eventId, ticker, title: `Market ${n}?`, rules: 'Resolves YES if it happens.' });
  expect(m.status, JSON.stringify(m.body)).toBe(200);
  expect((await post(`markets/${m.body!.result!._id}/open`, {})).status).toBe(200);
  return { id: Number(m.body!.result!._id), ticker, eventId: Number(eventId) };
}

/** A new user holding `amount` (minor units) of the coin, credited through a confirmed deposit. */
export async function fundedUser(f: MoneyFixture, coinId: number, amount: bigint): Promise<number> {
  const u = await makeUser(f);
  await fund(f, u.id, coinId, amount);
  return u.id;
}

