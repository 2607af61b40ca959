import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, eventTags, seriesTags, tags } from '../../db/schema.js';
import { adminCalls, makeSubAdmin, serverFile, type TestServer } from '../../../test/helpers.js';

/** Series over the API, and the tags linked to series and events: a tag in use answers 409, never a foreign-key 500. */
let s: TestServer;
let token: string;
const HOUR = 3_600_000;
const iso = (offsetHours: number) => new Date(Date.now() + offsetHours * HOUR).toISOString();

serverFile((m) => ({ s, token } = m));

const { post, patch, get, del } = adminCalls(() => s, () => token);
const tag = async (name: string) => (await post('tags', { name })).body.result._id as string;
const weekly = { title: 'Bitcoin weekly close', frequency: 'weekly', category: 'Crypto', settlementSource: 'CF Benchmarks BRTI, Friday 17:00 ET' };

describe('series', () => {
  it('creates with an upper-case unique ticker, tags and an optional settlement URL; audits it', async () => {
    const crypto = await tag('Crypto S');
    const res = await post('series', { ...weekly, ticker: 'kxbtcw', tagIds: [crypto], settlementUrl: 'https://www.cfbenchmarks.com/data/indices/BRTI' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ ticker: 'KXBTCW', frequency: 'weekly', category: 'Crypto', tags: ['Crypto S'], tagIds: [crypto], status: 'active', eventCount: 0 });
    const noUrl = await post('series', { ...weekly, ticker: 'KXETHW', title: 'Ether weekly close', settlementUrl: '' });
    expect(noUrl.body.result.settlementUrl).toBeNull();
    const [entry] = await s.database.db.select().from(auditLog).where(and(eq(auditLog.resource, 'series'), eq(auditLog.recordId, res.body.result._id)));
    expect(entry).toMatchObject({ action: 'create', after: expect.objectContaining({ ticker: 'KXBTCW' }) });
  });

  it('refuses bad input with field errors', async () => {
    const bad = await post('series', { ticker: 'a b', title: '', frequency: 'hourly', category: 'Gossip', settlementSource: '', settlementUrl: 'ftp://x' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['category', 'frequency', 'settlementSource', 'settlementUrl', 'ticker', 'title']);
    expect((await post('series', { ...weekly, ticker: 'KXBTCW' })).body.errors).toEqual({ ticker: 'A series with this ticker exists' });
    expect((await post('series', { ...weekly, ticker: 'KXTWICE', tagIds: ['1', '1'] })).status).toBe(400);
    expect((await post('series', { ...weekly, ticker: 'KXEXTRA', color: 'red' })).status).toBe(400);
  });

  it('lists with filters (frequency, category, tag) and its events tab; deleting one with events is a 409', async () => {
    const macro = await tag('Macro S');
    const cpi = await post('series', { ticker: 'KXCPI', title: 'US CPI monthly', frequency: 'monthly', category: 'Economics', settlementSource: 'BLS CPI release', tagIds: [macro] });
    expect((await get('series', { frequency: 'monthly' })).body.result.items.map((x: { ticker: string }) => x.ticker)).toEqual(['KXCPI']);
    expect((await get('series', { category: 'Economics' })).body.result.total).toBe(1);
    expect((await get('series', { tags: 'macro-s' })).body.result.items.map((x: { ticker: string }) => x.ticker)).toEqual(['KXCPI']);
    const event = await post('events', { ticker: 'KXCPI-26DEC', title: 'CPI for December', seriesId: cpi.body.result._id, openTime: iso(-1), closeTime: iso(24), expectedResolutionTime: iso(30) });
    expect(event.status).toBe(200);
    const tab = await get('events', { seriesId: cpi.body.result._id });
    expect(tab.body.result.items.map((e: { ticker: string }) => e.ticker)).toEqual(['KXCPI-26DEC']);
    const refused = await del(`series/${cpi.body.result._id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This series has 1 event: set it inactive instead');
    const bulk = await post('series/bulk', { action: 'status', status: 'inactive', ids: [cpi.body.result._id] });
    expect(bulk.status).toBe(200);
    expect((await get(`series/${cpi.body.result._id}`)).body.result.status).toBe('inactive');
    // An inactive series takes no new events, and an event cannot be moved into it.
    const loose = await post('events', { ticker: 'KXLOOSE', title: 'One-off', openTime: iso(1), closeTime: iso(24), expectedResolutionTime: iso(30) });
    expect((await patch(`events/${loose.body.result._id}`, { seriesId: cpi.body.result._id })).body.errors.seriesId).toMatch(/inactive/);
  });

  it('needs the Series right: view-only reads, cannot write', async () => {
    const viewer = await makeSubAdmin(s, [{ name: 'Series', canView: true, canEdit: false }], token);
    expect((await get('series', undefined, viewer.token)).status).toBe(200);
    expect((await post('series', { ...weekly, ticker: 'KXVIEW' }, viewer.token)).status).toBe(403);
    expect((await get('series', undefined, (await makeSubAdmin(s, [{ name: 'Events', canView: true, canEdit: true }], token)).token)).status).toBe(403);
  });
});

describe('tags in use', () => {
  it('cannot be deleted while linked to an event or a series (409 saying where), alone or in bulk; free once unlinked', async () => {
    const onEvent = await tag('On event T');
    const onSeries = await tag('On series T');
    const free = await tag('Free T');
    const event = await post('events', { ticker: 'KXTAGGED', title: 'Tagged event', tagIds: [onEvent, onSeries], openTime: iso(1), closeTime: iso(24), expectedResolutionTime: iso(30) });
    const ser = await post('series', { ...weekly, ticker: 'KXTAGGEDS', tagIds: [onSeries] });
    expect(event.status).toBe(200);
    expect(ser.status).toBe(200);

    const one = await del(`tags/${onEvent}`);
    expect(one.status).toBe(409);
    expect(one.body.message).toBe('This tag is used by 1 event: remove it there first, or set it inactive');
    const both = await del(`tags/${onSeries}`);
    expect(both.body.message).toBe('This tag is used by 1 event and 1 series: remove it there first, or set it inactive');
    const bulk = await post('tags/bulk', { action: 'delete', ids: [free, onEvent] });
    expect(bulk.status).toBe(409);
    expect(bulk.body.message).toBe('These tags are used by 1 event: remove them there first, or set them inactive');
    expect((await get(`tags/${free}`)).status).toBe(200);

    // Inactive, it stays on the event (and still cannot be deleted).
    expect((await patch(`tags/${onEvent}`, { status: 'inactive' })).status).toBe(200);
    expect((await get(`events/${event.body.result._id}`)).body.result.tags).toEqual(['On event T', 'On series T']);
    // Keeping an inactive tag on a record is fine; adding it elsewhere is not.
    expect((await patch(`events/${event.body.result._id}`, { tagIds: [onEvent] })).status).toBe(200);
    expect((await patch(`series/${ser.body.result._id}`, { tagIds: [onSeries, onEvent] })).body.errors).toEqual({ tagIds: 'On event T is inactive' });

    expect((await patch(`events/${event.body.result._id}`, { tagIds: [] })).status).toBe(200);
    expect((await del(`tags/${onEvent}`)).status).toBe(200);
    expect((await patch(`series/${ser.body.result._id}`, { tagIds: [] })).status).toBe(200);
    expect((await del(`tags/${onSeries}`)).status).toBe(200);
    expect(await s.database.db.select().from(tags).where(eq(tags.id, Number(onSeries)))).toEqual([]);
  });

  it('the database refuses to drop a linked tag even past the API (RESTRICT)', async () => {
    const t = await tag('Guarded T');
    const event = await post('events', { ticker: 'KXGUARD', title: 'Guarded', tagIds: [t], openTime: iso(1), closeTime: iso(24), expectedResolutionTime: iso(30) });
    expect(event.status).toBe(200);
    await expect(s.database.db.delete(tags).where(eq(tags.id, Number(t)))).rejects.toThrow();
    expect((await s.database.db.select().from(eventTags).where(eq(eventTags.tagId, Number(t)))).length).toBe(1);
    expect((await s.database.db.select().from(seriesTags).where(eq(seriesTags.tagId, Number(t)))).length).toBe(0);
  });
});
