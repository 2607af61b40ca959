import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';
import { ADVISORY_LOCKS } from '../../lib/locks.js';
import type { ImageStore } from './storage.js';

/**
 * Every column that holds an uploaded image's address (`/api/uploads/<sha-256>.webp`), by table.
 * `purge.test.ts` holds it equal to the database's `*image_url` / `*logo_url` columns, so a new
 * image field's column cannot be forgotten here (its images would be purged).
 */
export const IMAGE_COLUMNS: readonly { table: string; column: string }[] = [
  { table: 'booster_packs', column: 'image_url' },
  { table: 'card_categories', column: 'image_url' },
  { table: 'card_characters', column: 'image_url' },
  { table: 'coins', column: 'logo_url' },
  { table: 'events', column: 'image_url' },
  { table: 'reward_card_cms_blocks', column: 'image_url' },
  { table: 'reward_cards', column: 'image_url' },
  { table: 'site_settings', column: 'logo_url' },
];

/** How old an image nobody references must be before it goes: a form being filled has a day to be saved. */
export const ORPHAN_UPLOAD_AGE_MS = 24 * 60 * 60_000;

/**
 * Deletes the uploaded images no record references, written more than `olderThanMs` ago (an upload
 * is stored when it is dropped on a form, before the record is saved; a form abandoned leaves it
 * behind). An image and its thumbnail share their hash and go together. One instance at a time
 * (`pg_try_advisory_xact_lock`; null when another holds it). Re-uploading the same bytes rewrites
 * the file, so its age starts again. Returns how many files it removed.
 */
export async function purgeOrphanUploads(db: Db, store: ImageStore, opts: { olderThanMs?: number; now?: Date } = {}): Promise<{ removed: number; kept: number } | null> {
  const cutoff = (opts.now ?? new Date()).getTime() - (opts.olderThanMs ?? ORPHAN_UPLOAD_AGE_MS);
  return db.transaction(async (tx) => {
    const [lock] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${ADVISORY_LOCKS.uploadPurge}) as ok`);
    if (!lock?.ok) return null;
    const old = (await store.list()).filter((f) => f.modifiedAt.getTime() < cutoff);
    if (old.length === 0) return { removed: 0, kept: 0 };
    const refs = sql.join(
      IMAGE_COLUMNS.map((c) => sql`select substring(${sql.identifier(c.column)} from '[0-9a-f]{64}') as h from ${sql.identifier(c.table)} where ${sql.identifier(c.column)} like '%/api/uploads/%'`),
      sql` union `,
    );
    const used = new Set((await queryRows<{ h: string | null }>(tx, refs)).map((r) => r.h));
    let removed = 0;
    for (const f of old) {
      if (used.has(f.name.slice(0, 64))) continue;
      await store.remove(f.name);
      removed++;
    }
    return { removed, kept: old.length - removed };
  });
}
