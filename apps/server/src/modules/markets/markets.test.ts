import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, markets } from '../../db/schema.js';
import { call, makeSubAdmin, serverFile, type TestServer } from '../../../test/helpers.js';

/** Markets over the API: creation under an event, the declared machine, rights, audit, edit locks, deletion. */
let s: TestServer;
let token: string;
let seq = 0;
const HOUR = 3_600_000;
const iso = (offsetHours: number) => new Date(Date.now() + offsetHours * HOUR).toISOString();

serverFile((m) => ({ s, token } = m));

const post = (path: string, body: unknown = {}, as = token) => call(s, 'POST', `/api/admin/${path}`, { token: as, body });
const patch = (path: string, body: unknown, as = token) => call(s, 'PATCH', `/api/admin/${path}`, { token: as, body });
const get = (path: string, as = token) => call(s, 'GET', `/api/admin/${path}`, { token: as });

/** An event (opened unless `draft`) whose open time is `openIn` hours away (negative: passed). */
async function makeEvent(opts: { openIn?: number; closeIn?: number; draft?: boolean } = {}) {
  const n = ++seq;
  const res = await post('events', {
    ticker: `KXTEST-E${n}`, title: `Test event ${n}`, openTime: iso(opts.openIn ?? -1), closeTime: iso(opts.closeIn ?? 48), expectedResolutionTime: iso((opts.closeIn ?? 48) + 2),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  if (!opts.draft) expect((await post(`events/${res.body.result._id}/open`)).status).toBe(200);
  return res.body.result as { _id: string; ticker: string; closeTime: string; openTime: string };
}

async function makeMarket(eventId: string, extra: Record<string, unknown> = {}) {
  const n = ++seq;
  const res = await post('markets', { eventId, ticker: `kxtest-m${n}`, title: `Will test ${n} happen?`, rules: 'Resolves YES if the test happens before the close time.', ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as Record<string, unknown> & { _id: string; ticker: string; status: string };
}

describe('creating a market', () => {
  it('takes the event, upper-cases the ticker, closes with the event by default and starts as a draft without prices', async () => {
    const event = await makeEvent();
    const m = await makeMarket(event._id);
    expect(m).toMatchObject({
      ticker: `KXTEST-M${seq}`, eventId: event._id, eventTicker: event.ticker, status: 'draft', lastPrice: null, volume: 0, openInterest: 0,
      result: null, closesAt: event.closeTime, openedAt: null,
    });
    const [entry] = await s.database.db.select().from(auditLog).where(and(eq(auditLog.resource, 'markets'), eq(auditLog.recordId, m._id)));
    expect(entry).toMatchObject({ action: 'create', after: expect.objectContaining({ ticker: m.ticker, status: 'draft' }) });
  });

  it('refuses bad input with field errors: missing fields, a bad ticker, a taken ticker, an unknown event, a time outside the event', async () => {
    const bad = await post('markets', { ticker: 'no spaces!', title: 'x', rules: 'short' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['eventId', 'rules', 'ticker', 'title']);
    const event = await makeEvent();
    const m = await makeMarket(event._id);
    const taken = await post('markets', { eventId: event._id, ticker: m.ticker.toLowerCase(), title: 'Same ticker', rules: 'Resolves YES if it happens.' });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual({ ticker: 'A market with this ticker exists' });
    const unknown = await post('markets', { eventId: '999999', ticker: 'KXTEST-NOEVENT', title: 'No event', rules: 'Resolves YES if it happens.' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual({ eventId: 'No event with id 999999' });
    const late = await post('markets', { eventId: event._id, ticker: 'KXTEST-LATE', title: 'Too late', rules: 'Resolves YES if it happens.', closesAt: iso(72) });
    expect(late.status).toBe(400);
    expect(late.body.errors.closesAt).toMatch(/after the event/);
    const early = await post('markets', { eventId: event._id, ticker: 'KXTEST-EARLY', title: 'Too early', rules: 'Resolves YES if it happens.', closesAt: iso(-2) });
    expect(early.status).toBe(400);
    expect(early.body.errors.closesAt).toBeDefined();
  });

  it('refuses a market on a closed event', async () => {
    const event = await makeEvent();
    expect((await post(`events/${event._id}/close`)).status).toBe(200);
    const res = await post('markets', { eventId: event._id, ticker: 'KXTEST-ONCLOSED', title: 'On a closed event', rules: 'Resolves YES if it happens.' });
    expect(res.status).toBe(400);
    expect(res.body.errors.eventId).toMatch(/closed/);
  });
});

describe('the market machine: draft → open ⇄ halted → closed', () => {
  it('opens, halts, resumes and closes, each move audited with before and after; a wrong state is a 409 from the machine', async () => {
    const event = await makeEvent();
    const m = await makeMarket(event._id);
    const halt0 = await post(`markets/${m._id}/halt`, { reasonCode: 'incident' });
    expect(halt0.status).toBe(409);
    expect(halt0.body).toMatchObject({ code: 'INVALID_STATE', message: 'Market is draft: only an open market can be halted' });
    expect((await post(`markets/${m._id}/resume`)).body.message).toBe('Market is draft: only a halted market can be resumed');

    const opened = await post(`markets/${m._id}/open`);
    expect(opened.status).toBe(200);
    expect(opened.body.result).toMatchObject({ status: 'open', openedAt: expect.any(String) });
    expect((await post(`markets/${m._id}/open`)).body).toMatchObject({ code: 'INVALID_STATE', message: 'Market is already open' });
    // A halt takes a reason code of its list (and a note): shown on the market while halted, cleared by a resume.
    expect((await post(`markets/${m._id}/halt`)).body).toMatchObject({ code: 'VALIDATION', errors: { reasonCode: 'Pick a reason' } });
    expect((await post(`markets/${m._id}/halt`, { reasonCode: 'other' })).body.errors).toEqual({ reason: 'Say what happened (at least 3 characters)' });
    const halted = await post(`markets/${m._id}/halt`, { reasonCode: 'pending_news', reason: 'Exchange outage' });
    expect(halted.body.result).toMatchObject({ status: 'halted', haltReasonCode: 'pending_news', haltReason: 'Exchange outage' });
    expect((await get(`markets?haltReasonCode=pending_news`)).body.result.items.map((x: { _id: string }) => x._id)).toEqual([m._id]);
    expect((await post(`markets/${m._id}/halt`, { reasonCode: 'incident' })).status).toBe(409);
    expect((await post(`markets/${m._id}/resume`)).body.result).toMatchObject({ status: 'open', haltReasonCode: null, haltReason: null });
    expect((await post(`markets/${m._id}/halt`, { reasonCode: 'incident' })).body.result.status).toBe('halted');
    // Before its close time (the event's, about 48 h ahead), closing asks to confirm first, saying how early; nothing changes until then.
    const early = await post(`markets/${m._id}/close`);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('CONFIRM_REQUIRED');
    expect(early.body.message).toMatch(new RegExp(`^${m.ticker} is scheduled to close at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC, in (47 h|2 days)\\. Closing it now ends trading (47 h|2 days) early: confirm to close it anyway\\.$`));
    expect((await get(`markets/${m._id}`)).body.result.status).toBe('halted');
    expect((await post(`markets/${m._id}/close`, { confirm: 'yes' })).status).toBe(400);
    const closed = await post(`markets/${m._id}/close`, { confirm: true });
    expect(closed.body.result).toMatchObject({ status: 'closed', closedAt: expect.any(String), result: null });
    // Resolving before the close time asks too.
    const resolveEarly = await post(`markets/${m._id}/resolve`, { result: 'NO', source: 'The organiser', evidence: 'Announced on the official site at noon.', evidenceUrls: ['https://organiser.example/results'] });
    expect(resolveEarly.body).toMatchObject({ code: 'CONFIRM_REQUIRED', message: expect.stringMatching(/Resolving it now settles it (47 h|2 days) early: confirm to resolve it anyway\.$/) });
    expect((await get(`markets/${m._id}`)).body.result.status).toBe('closed');
    for (const action of ['open', 'halt', 'resume', 'close']) expect((await post(`markets/${m._id}/${action}`, action === 'halt' ? { reasonCode: 'incident' } : undefined)).status, action).toBe(409);
    // Resolving needs its source and evidence (the settlement itself: resolutions.test.ts).
    expect((await post(`markets/${m._id}/resolve`, { result: 'YES' })).status).toBe(400);

    const trail = await s.database.db.select().from(auditLog).where(and(eq(auditLog.resource, 'markets'), eq(auditLog.recordId, m._id))).orderBy(asc(auditLog.id));
    expect(trail.map((e) => e.action)).toEqual(['create', 'open', 'halt', 'resume', 'halt', 'close']);
    expect(trail[1]!.before).toMatchObject({ status: 'draft' });
    expect(trail[1]!.after).toMatchObject({ status: 'open' });
    expect(trail.at(-1)!.after).toMatchObject({ status: 'closed' });
  });

  it('opens only once the event is open and its open time has passed, and never after its own close time', async () => {
    const draft = await makeEvent({ draft: true });
    const onDraft = await makeMarket(draft._id);
    const refused = await post(`markets/${onDraft._id}/open`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/is draft: open the event first/);

    const future = await makeEvent({ openIn: 5 });
    const early = await makeMarket(future._id);
    const tooSoon = await post(`markets/${early._id}/open`);
    expect(tooSoon.status).toBe(409);
    expect(tooSoon.body.message).toMatch(/opens for trading at/);

    const event = await makeEvent();
    const passed = await makeMarket(event._id, { closesAt: iso(1) });
    await s.database.db.update(markets).set({ closesAt: new Date(Date.now() - 60_000) }).where(eq(markets.id, Number(passed._id)));
    const gone = await post(`markets/${passed._id}/open`);
    expect(gone.status).toBe(409);
    expect(gone.body.message).toMatch(/close time .* has passed/);
    expect((await call(s, 'GET', `/api/admin/markets/${passed._id}`, { token })).body.result.status).toBe('draft');
  });

  it('needs the edit right under Markets: view-only gets 403, other rights are not enough', async () => {
    const event = await makeEvent();
    const m = await makeMarket(event._id);
    const viewer = await makeSubAdmin(s, [{ name: 'Markets', canView: true, canEdit: false }], token);
    const eventsEditor = await makeSubAdmin(s, [{ name: 'Events', canView: true, canEdit: true }], token);
    const editor = await makeSubAdmin(s, [{ name: 'Markets', canView: true, canEdit: true }], token);
    expect((await post(`markets/${m._id}/open`, {}, viewer.token)).status).toBe(403);
    expect((await post(`markets/${m._id}/open`, {}, eventsEditor.token)).status).toBe(403);
    expect((await call(s, 'GET', `/api/admin/markets/${m._id}`, { token: viewer.token })).status).toBe(200);
    expect((await patch(`markets/${m._id}`, { title: 'Viewer edit' }, viewer.token)).status).toBe(403);
    expect((await post(`markets/${m._id}/open`, {}, editor.token)).status).toBe(200);
    const [entry] = await s.database.db.select().from(auditLog).where(and(eq(auditLog.resource, 'markets'), eq(auditLog.recordId, m._id), eq(auditLog.action, 'open')));
    expect(entry!.adminEmail).toBe(editor.email);
  });
});

describe('editing and deleting', () => {
  it('keeps ticker, event and rules fixed once open (409 on the field), while the title and close time may change', async () => {
    const event = await makeEvent();
    const other = await makeEvent();
    const m = await makeMarket(event._id);
    // In draft everything may change, the event too.
    const moved = await patch(`markets/${m._id}`, { eventId: other._id, ticker: `${m.ticker}-B`, rules: 'Resolves YES if the other test happens.' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.result).toMatchObject({ eventId: other._id, ticker: `${m.ticker}-B` });
    expect((await post(`markets/${m._id}/open`)).status).toBe(200);

    const locked = await patch(`markets/${m._id}`, { ticker: 'KXTEST-RENAMED', eventId: event._id, rules: 'Changed rules after the open.' });
    expect(locked.status).toBe(409);
    expect(locked.body.code).toBe('INVALID_STATE');
    expect(locked.body.errors).toEqual({
      ticker: 'Ticker cannot change once the market is open',
      eventId: 'Event cannot change once the market is open',
      rules: 'Rules cannot change once the market is open',
    });
    // Sending the same values is no change.
    expect((await patch(`markets/${m._id}`, { ticker: `${m.ticker}-B`, eventId: other._id })).status).toBe(200);
    const ok = await patch(`markets/${m._id}`, { title: 'Renamed while open', closesAt: iso(24) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.result).toMatchObject({ title: 'Renamed while open', status: 'open' });
    const outside = await patch(`markets/${m._id}`, { closesAt: iso(100) });
    expect(outside.status).toBe(400);
    expect(outside.body.errors.closesAt).toMatch(/after the event/);

    expect((await post(`markets/${m._id}/close`, { confirm: true })).status).toBe(200);
    const closed = await patch(`markets/${m._id}`, { closesAt: iso(20) });
    expect(closed.status).toBe(409);
    expect(closed.body.errors).toEqual({ closesAt: 'Closes at cannot change once the market is closed' });
    // The question it is resolved on is fixed from its close.
    const renamed = await patch(`markets/${m._id}`, { title: 'Renamed after the close' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.errors).toEqual({ title: 'Title cannot change once the market is closed' });
  });

  it('deletes only a draft market (409 otherwise, also in bulk)', async () => {
    const event = await makeEvent();
    const draft = await makeMarket(event._id);
    const open = await makeMarket(event._id);
    expect((await post(`markets/${open._id}/open`)).status).toBe(200);
    const refused = await call(s, 'DELETE', `/api/admin/markets/${open._id}`, { token });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'INVALID_STATE', message: 'Market is open: only a draft market can be deleted' });
    const bulk = await post('markets/bulk', { action: 'delete', ids: [draft._id, open._id] });
    expect(bulk.status).toBe(409);
    expect(bulk.body.message).toBe('Market is open: only a draft market can be deleted');
    expect((await call(s, 'GET', `/api/admin/markets/${draft._id}`, { token })).status).toBe(200);
    expect((await call(s, 'DELETE', `/api/admin/markets/${draft._id}`, { token })).status).toBe(200);
    expect((await call(s, 'GET', `/api/admin/markets/${draft._id}`, { token })).status).toBe(404);
  });
});

describe('concurrency', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)('closing an event while its markets are being opened: no deadlock, no 5xx, no market left open under a closed event', async () => {
    for (let round = 0; round < 3; round++) {
      const event = await makeEvent();
      const list = await Promise.all(Array.from({ length: 8 }, () => makeMarket(event._id)));
      const answers = await Promise.all([
        ...list.map((m) => post(`markets/${m._id}/open`)),
        post(`events/${event._id}/close`),
        ...list.slice(0, 4).map((m) => patch(`markets/${m._id}`, { title: `Renamed in round ${round}` })),
      ]);
      for (const a of answers) expect([200, 409], JSON.stringify(a.body)).toContain(a.status);
      expect(answers[list.length]!.status).toBe(200);
      const after = (await call(s, 'GET', '/api/admin/markets', { token, query: { eventId: event._id } })).body.result.items as { status: string }[];
      expect(after.filter((m) => m.status === 'open' || m.status === 'halted')).toEqual([]);
    }
  });
});

describe('the database holds the rules too', () => {
  it('prices stay within 1..99 cents, a result only with resolved or voided, tickers upper case', async () => {
    const event = await makeEvent();
    const m = await makeMarket(event._id);
    const id = Number(m._id);
    await expect(s.database.db.update(markets).set({ lastPrice: 100 }).where(eq(markets.id, id))).rejects.toThrow();
    await expect(s.database.db.update(markets).set({ lastPrice: 0 }).where(eq(markets.id, id))).rejects.toThrow();
    await expect(s.database.db.update(markets).set({ result: 'YES' }).where(eq(markets.id, id))).rejects.toThrow();
    await expect(s.database.db.update(markets).set({ status: 'resolved', openedAt: new Date(), closedAt: new Date(), resolvedAt: new Date() }).where(eq(markets.id, id))).rejects.toThrow();
    await expect(s.database.db.update(markets).set({ ticker: 'lower' }).where(eq(markets.id, id))).rejects.toThrow();
    await s.database.db.update(markets).set({ lastPrice: 99 }).where(eq(markets.id, id));
  });
});
