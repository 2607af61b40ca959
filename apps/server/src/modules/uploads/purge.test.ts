import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.js';
import { call, startTestServer, superLogin, type TestServer } from '../../../test/helpers.js';
import { storeImage } from './images.js';
import { IMAGE_COLUMNS, ORPHAN_UPLOAD_AGE_MS, purgeOrphanUploads } from './purge.js';
import { fileImageStore, s3ImageStore, type ImageStore } from './storage.js';

/**
 * The orphan purge: images stored by a form that was never saved go after a day; an image a record
 * references stays, however old; a fresh one stays. On files and on S3 (s3rver).
 */
const pngOf = (color: string) => sharp({ create: { width: 40, height: 30, channels: 3, background: color } }).png().toBuffer();
const DAY_LATER = () => new Date(Date.now() + ORPHAN_UPLOAD_AGE_MS + 60_000);
let s: TestServer;
let token: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pitboss-purge-'));

beforeAll(async () => {
  s = await startTestServer();
  token = await superLogin(s);
}, 60_000);
afterAll(async () => {
  await s?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Stores three images; the first is used by a card category, the second by a reward-card block, the third by nobody. */
async function scenario(store: ImageStore) {
  const stamp = Date.now().toString(36);
  const [used, alsoUsed, orphan] = await Promise.all([pngOf('#ff0000'), pngOf('#00ff00'), pngOf('#0000ff')].map(async (b) => storeImage(store, await b)));
  const cat = await call(s, 'POST', '/api/admin/card-categories', { token, body: { name: `Purge ${stamp}`, slug: `purge-${stamp}`, imageUrl: used!.url } });
  expect(cat.status, JSON.stringify(cat.body)).toBe(200);
  const block = await call(s, 'POST', '/api/admin/reward-card-cms', { token, body: { title: `Purge ${stamp}`, imageUrl: alsoUsed!.url } });
  expect(block.status, JSON.stringify(block.body)).toBe(200);
  const names = (u: { url: string }) => [u.url.split('/').at(-1)!, u.url.split('/').at(-1)!.replace('.webp', '.thumb.webp')];
  return { used: names(used!), alsoUsed: names(alsoUsed!), orphan: names(orphan!) };
}

describe('purge of orphaned uploads', () => {
  it('names every image column of the database', async () => {
    const cols = await queryRows<{ table_name: string; column_name: string }>(s.database.db, sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and (column_name like '%image_url' or column_name like '%logo_url') order by 1, 2`);
    expect(cols.map((c) => `${c.table_name}.${c.column_name}`)).toEqual(IMAGE_COLUMNS.map((c) => `${c.table}.${c.column}`).sort());
  });

  it('files: deletes an image nobody references once a day old (with its thumbnail); keeps referenced and fresh ones', async () => {
    const store = fileImageStore(dir);
    const { used, alsoUsed, orphan } = await scenario(store);
    const stored = () => fs.readdirSync(dir).sort();
    expect(stored()).toEqual([...used, ...alsoUsed, ...orphan].sort());
    // Fresh: nothing goes.
    expect(await purgeOrphanUploads(s.database.db, store)).toEqual({ removed: 0, kept: 0 });
    // Two days old: the orphan and its thumbnail go, the referenced ones stay.
    const old = new Date(Date.now() - 2 * ORPHAN_UPLOAD_AGE_MS);
    for (const f of stored()) fs.utimesSync(path.join(dir, f), old, old);
    expect(await purgeOrphanUploads(s.database.db, store)).toEqual({ removed: 2, kept: 4 });
    expect(stored()).toEqual([...used, ...alsoUsed].sort());
    // Another instance holding the lock: this one skips the tick.
    await s.database.db.transaction(async (tx) => {
      await queryRows(tx, sql`select pg_advisory_xact_lock(7201014)`);
      // PGlite has one connection: the same session takes the lock again, so only PostgreSQL can show the skip.
      if (process.env.TEST_DATABASE_URL) expect(await purgeOrphanUploads(s.database.db, store)).toBeNull();
    });
  });

  describe('on S3 (s3rver)', () => {
    let s3: S3rver;
    let port = 0;
    const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pitboss-purge-s3-'));
    beforeAll(async () => {
      s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'pitboss-images', configs: [] }] });
      ({ port } = await s3.run());
    });
    afterAll(async () => {
      await s3?.close();
      fs.rmSync(s3Dir, { recursive: true, force: true });
    });

    it('lists under the prefix, deletes the orphan a day later, keeps the referenced ones and whatever is outside the prefix', async () => {
      const store = s3ImageStore(`http://S3RVER:S3RVER@127.0.0.1:${port}/pitboss-images/cards?region=us-east-1`);
      const other = s3ImageStore(`http://S3RVER:S3RVER@127.0.0.1:${port}/pitboss-images/elsewhere?region=us-east-1`);
      const outside = await storeImage(other, await pngOf('#999999'));
      const { used, alsoUsed, orphan } = await scenario(store);
      expect((await store.list()).map((f) => f.name).sort()).toEqual([...used, ...alsoUsed, ...orphan].sort());
      expect(await purgeOrphanUploads(s.database.db, store)).toEqual({ removed: 0, kept: 0 });
      expect(await purgeOrphanUploads(s.database.db, store, { now: DAY_LATER() })).toEqual({ removed: 2, kept: 4 });
      expect((await store.list()).map((f) => f.name).sort()).toEqual([...used, ...alsoUsed].sort());
      expect(await store.get(orphan[0]!)).toBeNull();
      expect(await store.get(used[0]!)).not.toBeNull();
      expect(await other.get(outside.url.split('/').at(-1)!)).not.toBeNull();
    });
  });
});
