import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema.js';
import { adminCalls, call, makeSubAdmin, serverFile, type TestServer } from '../../../test/helpers.js';

/** Events over the API: validated times, series and tags, the machine with its markets, edit locks, the markets tab. */
let s: TestServer;
let token: string;
let seq = 0;
const HOUR = 3_600_000;
const iso = (offsetHours: number) => new Date(Date.now() + offsetHours * HOUR).toISOString();
const times = (open = -1, close = 48, resolution = 50) => ({ openTime: iso(open), closeTime: iso(close), expectedResolutionTime: iso(resolution) });

serverFile((m) => ({ s, token } = m));

const { post, patch, get } = adminCalls(() => s, () => token);

async function makeEvent(body: Record<string, unknown> = {}) {
  const n = ++seq;
  const res = await post('events', { ticker: `KXEV-${n}`, title: `Event number ${n}`, ...times(), ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as Record<string, unknown> & { _id: string; ticker: string; status: string };
}
async function makeMarket(eventId: string, extra: Record<string, unknown> = {}) {
  const n = ++seq;
  const res = await post('markets', { eventId, ticker: `KXEV-M${n}`, title: `Market number ${n}`, rules: 'Resolves YES if the thing happens.', ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as { _id: string; ticker: string; closesAt: string };
}
async function makeTag(name: string, status = 'active') {
  const res = await post('tags', { name, status });
  expect(res.status).toBe(200);
  return res.body.result._id as string;
}

describe('creating an event', () => {
  it('stores a sanitised description, its series and tags, and starts as a draft', async () => {
    const crypto = await makeTag('Crypto EV');
    const btc = await makeTag('Bitcoin EV');
    const series = await post('series', { ticker: 'kxevs', title: 'Weekly test series', frequency: 'weekly', category: 'Crypto', settlementSource: 'CF Benchmarks BRTI at 17:00 ET' });
    expect(series.status, JSON.stringify(series.body)).toBe(200);
    const e = await makeEvent({
      ticker: 'kxevs-26nov28', seriesId: series.body.result._id, tagIds: [crypto, btc],
      description: '<p>Where <strong>BTC</strong> closes<script>alert(1)</script><img src=x onerror=alert(1)></p>',
    });
    expect(e).toMatchObject({
      ticker: 'KXEVS-26NOV28', status: 'draft', seriesId: series.body.result._id, seriesTicker: 'KXEVS', seriesName: 'Weekly test series',
      tags: ['Bitcoin EV', 'Crypto EV'], tagIds: [btc, crypto], marketCount: 0, description: '<p>Where <strong>BTC</strong> closes</p>',
    });
    const [entry] = await s.database.db.select().from(auditLog).where(and(eq(auditLog.resource, 'events'), eq(auditLog.recordId, e._id)));
    expect(entry).toMatchObject({ action: 'create', after: expect.objectContaining({ ticker: 'KXEVS-26NOV28', tags: ['Bitcoin EV', 'Crypto EV'] }) });
    expect((await get('series', { q: 'KXEVS' })).body.result.items[0].eventCount).toBe(1);
  });

  it('checks open < close ≤ expected resolution, a close ahead, the ticker, the series and the tags', async () => {
    const missing = await post('events', { title: 'x' });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['closeTime', 'expectedResolutionTime', 'openTime', 'ticker', 'title']);
    const order = await post('events', { ticker: 'KXEV-ORDER', title: 'Bad order', ...times(10, 5, 20) });
    expect(order.status).toBe(400);
    expect(order.body.errors).toEqual({ closeTime: 'The close time must be after the open time' });
    const resolution = await post('events', { ticker: 'KXEV-RES', title: 'Resolves too early', ...times(1, 10, 9) });
    expect(resolution.body.errors).toEqual({ expectedResolutionTime: 'The expected resolution cannot be before the close time' });
    // Equal close and resolution is fine.
    expect((await post('events', { ticker: 'KXEV-EQUAL', title: 'Resolves at the close', ...times(1, 10, 10) })).status).toBe(200);
    const past = await post('events', { ticker: 'KXEV-PAST', title: 'Already over', ...times(-10, -5, -4) });
    expect(past.body.errors).toEqual({ closeTime: 'The close time must be in the future' });
    const notIso = await post('events', { ticker: 'KXEV-FMT', title: 'Odd times', openTime: 'tomorrow', closeTime: iso(5), expectedResolutionTime: iso(6) });
    expect(notIso.body.errors.openTime).toMatch(/ISO 8601/);
    const taken = await post('events', { ticker: 'kxev-order-ok', title: 'First', ...times() });
    expect(taken.status).toBe(200);
    expect((await post('events', { ticker: 'KXEV-ORDER-OK', title: 'Second', ...times() })).body.errors).toEqual({ ticker: 'An event with this ticker exists' });
    expect((await post('events', { ticker: 'KXEV-NOSERIES', title: 'No such series', seriesId: '999999', ...times() })).body.errors).toEqual({ seriesId: 'No series with id 999999' });
    expect((await post('events', { ticker: 'KXEV-NOTAG', title: 'No such tag', tagIds: ['999999'], ...times() })).body.errors).toEqual({ tagIds: 'No tag #999999' });
    const retired = await makeTag('Retired EV', 'inactive');
    expect((await post('events', { ticker: 'KXEV-OLDTAG', title: 'Inactive tag', tagIds: [retired], ...times() })).body.errors).toEqual({ tagIds: 'Retired EV is inactive' });
    const inactive = await post('series', { ticker: 'KXOLD', title: 'Retired series', frequency: 'monthly', category: 'Economics', settlementSource: 'BLS CPI release', status: 'inactive' });
    const into = await post('events', { ticker: 'KXOLD-1', title: 'Into a retired series', seriesId: inactive.body.result._id, ...times() });
    expect(into.body.errors.seriesId).toMatch(/inactive/);
    // An image "path" that a browser reads as another host (`/\\host` is `//host`) is refused; a path on this site is not.
    for (const imageUrl of ['//evil.example/x.png', '/\\evil.example/x.png']) {
      expect((await post('events', { ticker: 'KXEV-IMG', title: 'Image elsewhere', imageUrl, ...times() })).body.errors, imageUrl).toEqual({ imageUrl: 'A full http(s) URL or a path' });
    }
    expect((await post('events', { ticker: 'KXEV-IMG', title: 'Image here', imageUrl: '/api/images/x.webp', ...times() })).status).toBe(200);
  });
});

describe('listing events', () => {
  it('filters by tag (slug, name or id), series and status; searches ticker and title', async () => {
    const weather = await makeTag('Weather EV');
    const a = await makeEvent({ title: 'Rain in Paris', tagIds: [weather] });
    const b = await makeEvent({ title: 'Snow in Oslo' });
    for (const value of ['weather-ev', 'WEATHER EV', weather]) {
      const res = await get('events', { tags: value });
      expect(res.body.result.items.map((e: { _id: string }) => e._id), value).toEqual([a._id]);
    }
    expect((await get('events', { q: 'Oslo' })).body.result.items.map((e: { _id: string }) => e._id)).toEqual([b._id]);
    expect((await get('events', { tags: 'no-such-tag' })).body.result.total).toBe(0);
    const drafts = await get('events', { status: 'draft', limit: '200' });
    expect(drafts.body.result.items.every((e: { status: string }) => e.status === 'draft')).toBe(true);
    expect((await get('events', { seriesId: 'abc' })).status).toBe(400);
  });

  it('its markets tab: the markets list scoped to the event, with its filters', async () => {
    const e1 = await makeEvent();
    const e2 = await makeEvent();
    const m1 = await makeMarket(e1._id);
    const m2 = await makeMarket(e1._id);
    await makeMarket(e2._id);
    const tab = await get('markets', { eventId: e1._id });
    expect(tab.body.result.items.map((m: { _id: string }) => m._id).sort()).toEqual([m1._id, m2._id].sort());
    expect(tab.body.result.items.every((m: { eventTicker: string }) => m.eventTicker === e1.ticker)).toBe(true);
    expect((await get('markets', { eventId: e1._id, q: m2.ticker })).body.result.items.map((m: { _id: string }) => m._id)).toEqual([m2._id]);
    expect((await get(`events/${e1._id}`)).body.result.marketCount).toBe(2);
  });
});

describe('the event machine: draft → open → closed', () => {
  it('opens, then closes together with its open and halted markets (each market audited); drafts stay drafts', async () => {
    const e = await makeEvent();
    const open = await makeMarket(e._id);
    const halted = await makeMarket(e._id);
    const draft = await makeMarket(e._id);
    expect((await post(`events/${e._id}/close`)).body).toMatchObject({ code: 'INVALID_STATE', message: 'Event is draft: only an open event can be closed' });
    const opened = await post(`events/${e._id}/open`);
    expect(opened.body).toMatchObject({ message: `Event ${e.ticker} is open`, result: { status: 'open' } });
    expect((await post(`events/${e._id}/open`)).body.message).toBe('Event is already open');
    for (const id of [open._id, halted._id]) expect((await post(`markets/${id}/open`)).status).toBe(200);
    expect((await post(`markets/${halted._id}/halt`, { reasonCode: 'incident' })).status).toBe(200);

    const closed = await post(`events/${e._id}/close`);
    expect(closed.body).toMatchObject({ message: `Event ${e.ticker} closed, with 2 markets`, result: { status: 'closed' } });
    const states = Object.fromEntries((await get('markets', { eventId: e._id })).body.result.items.map((m: { _id: string; status: string }) => [m._id, m.status]));
    expect(states).toEqual({ [open._id]: 'closed', [halted._id]: 'closed', [draft._id]: 'draft' });
    expect((await post(`markets/${draft._id}/open`)).body.message).toMatch(/is closed: its markets cannot open/);
    const trail = await s.database.db.select().from(auditLog).where(and(eq(auditLog.resource, 'markets'), eq(auditLog.recordId, halted._id))).orderBy(asc(auditLog.id));
    expect(trail.map((t) => t.action)).toEqual(['create', 'open', 'halt', 'close']);
    const [eventClose] = await s.database.db.select().from(auditLog).where(and(eq(auditLog.resource, 'events'), eq(auditLog.recordId, e._id), eq(auditLog.action, 'close')));
    expect(eventClose).toMatchObject({ before: expect.objectContaining({ status: 'open' }), after: expect.objectContaining({ status: 'closed' }) });
    // settle is the settlement's move: no action for it.
    expect((await post(`events/${e._id}/settle`)).status).toBe(404);
  });

  it('refuses to open an event whose close time has passed, and the actions need the edit right under Events', async () => {
    const e = await makeEvent({ ...times(-3, 1, 2) });
    const viewer = await makeSubAdmin(s, [{ name: 'Events', canView: true, canEdit: false }, { name: 'Markets', canView: true, canEdit: true }], token);
    expect((await post(`events/${e._id}/open`, {}, viewer.token)).status).toBe(403);
    expect((await get(`events/${e._id}`, undefined, viewer.token)).status).toBe(200);
    // Time passes: the close time is now behind.
    await s.database.db.execute(sql`update events set open_time = now() - interval '3 hours', close_time = now() - interval '1 minute' where id = ${Number(e._id)}`);
    const late = await post(`events/${e._id}/open`);
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/close time has passed/);
  });
});

describe('editing an event', () => {
  it('fixes ticker and series once open; moving the close time takes along the markets closing with it', async () => {
    const e = await makeEvent();
    const follows = await makeMarket(e._id);
    const own = await makeMarket(e._id, { closesAt: iso(24) });
    expect((await post(`events/${e._id}/open`)).status).toBe(200);
    const locked = await patch(`events/${e._id}`, { ticker: 'KXEV-RENAMED' });
    expect(locked.status).toBe(409);
    expect(locked.body.errors).toEqual({ ticker: 'Ticker cannot change once the event is open' });

    const later = iso(60);
    const moved = await patch(`events/${e._id}`, { closeTime: later, expectedResolutionTime: iso(61) });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await get(`markets/${follows._id}`)).body.result.closesAt).toBe(new Date(later).toISOString());
    expect((await get(`markets/${own._id}`)).body.result.closesAt).toBe(own.closesAt);
    const [followed] = await s.database.db.select().from(auditLog).where(and(eq(auditLog.resource, 'markets'), eq(auditLog.recordId, follows._id), eq(auditLog.action, 'update')));
    expect(followed).toBeDefined();

    // A market closing at its own time must stay inside the window.
    const tooEarly = await patch(`events/${e._id}`, { closeTime: iso(12) });
    expect(tooEarly.status).toBe(400);
    expect(tooEarly.body.errors.closeTime).toBe(`${own.ticker} closes after this time: move its close time first`);
    const order = await patch(`events/${e._id}`, { expectedResolutionTime: iso(30) });
    expect(order.body.errors).toEqual({ expectedResolutionTime: 'The expected resolution cannot be before the close time' });
    // Markets have opened: the open time is fixed.
    expect((await post(`markets/${own._id}/open`)).status).toBe(200);
    const openMoved = await patch(`events/${e._id}`, { openTime: iso(-2) });
    expect(openMoved.status).toBe(409);
    expect(openMoved.body.errors.openTime).toMatch(/Fixed/);
    // Title, description and tags stay editable.
    const tag = await makeTag('Late tag EV');
    const edited = await patch(`events/${e._id}`, { title: 'Renamed while open', tagIds: [tag] });
    expect(edited.body.result).toMatchObject({ title: 'Renamed while open', tags: ['Late tag EV'] });
    const untagged = await patch(`events/${e._id}`, { tagIds: [] });
    expect(untagged.body.result.tags).toEqual([]);
    const updates = await s.database.db.select().from(auditLog).where(and(eq(auditLog.resource, 'events'), eq(auditLog.recordId, e._id), eq(auditLog.action, 'update'))).orderBy(asc(auditLog.id));
    expect(updates.map((u) => [(u.before as { tags: string[] }).tags, (u.after as { tags: string[] }).tags])).toEqual([[[], []], [[], ['Late tag EV']], [['Late tag EV'], []]]);
  });

  it('deletes only a draft event without markets', async () => {
    const withMarket = await makeEvent();
    await makeMarket(withMarket._id);
    const res = await call(s, 'DELETE', `/api/admin/events/${withMarket._id}`, { token });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('This event has 1 market: delete it first');
    const open = await makeEvent();
    await post(`events/${open._id}/open`);
    expect((await call(s, 'DELETE', `/api/admin/events/${open._id}`, { token })).body).toMatchObject({ code: 'INVALID_STATE', message: 'Event is open: only a draft event can be deleted' });
    const tag = await makeTag('Gone with EV');
    const empty = await makeEvent({ tagIds: [tag] });
    expect((await call(s, 'DELETE', `/api/admin/events/${empty._id}`, { token })).status).toBe(200);
    // Its tag links went with it: the tag is free again.
    expect((await call(s, 'DELETE', `/api/admin/tags/${tag}`, { token })).status).toBe(200);
  });
});
