import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Migrations that move data, run on a database as an earlier release left it: every migration
 * before the one under test, rows written the old way, then that migration, as drizzle runs it
 * (statement by statement).
 */
const FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));
const tags = (JSON.parse(fs.readFileSync(`${FOLDER}/meta/_journal.json`, 'utf8')) as { entries: { tag: string }[] }).entries.map((e) => e.tag);
const statements = (tag: string) => fs.readFileSync(`${FOLDER}/${tag}.sql`, 'utf8').split('--> statement-breakpoint').filter((s) => s.trim());

let db: PGlite;
async function migrateUpTo(tag: string) {
  for (const t of tags.slice(0, tags.indexOf(tag))) for (const s of statements(t)) await db.exec(s);
}
const migrate = async (tag: string) => {
  for (const s of statements(tag)) await db.exec(s);
};

beforeAll(async () => {
  db = new PGlite('memory://', { extensions: { pg_trgm } });
  await db.waitReady;
});
afterAll(async () => db?.close());

describe('0035: withdrawal limits and the large-deposit threshold become per coin', () => {
  it('moves the site’s auto-approve limit to USDC (others always reviewed), the large-deposit defaults to USDC and SOL, and drops the setting', async () => {
    await migrateUpTo('0035_coin_limits');
    await db.exec(`insert into site_settings (id, withdrawal_auto_approve_limit) values (1, 250000000)`);
    await db.exec(`insert into coins (symbol, name, decimals) values ('SOL', 'Solana', 9), ('USDC', 'USD Coin', 6), ('BONK', 'Bonk', 5)`);
    await migrate('0035_coin_limits');
    const coins = await db.query<{ symbol: string; auto_approve_limit: string; daily_withdrawal_limit: string | null; large_deposit_threshold: string | null }>(
      'select symbol, auto_approve_limit::text, daily_withdrawal_limit::text, large_deposit_threshold::text from coins order by symbol',
    );
    expect(coins.rows).toEqual([
      { symbol: 'BONK', auto_approve_limit: '0', daily_withdrawal_limit: null, large_deposit_threshold: null },
      { symbol: 'SOL', auto_approve_limit: '0', daily_withdrawal_limit: null, large_deposit_threshold: '100000000000' },
      { symbol: 'USDC', auto_approve_limit: '250000000', daily_withdrawal_limit: null, large_deposit_threshold: '10000000000' },
    ]);
    const left = await db.query(`select 1 from information_schema.columns where table_name = 'site_settings' and column_name = 'withdrawal_auto_approve_limit'`);
    expect(left.rows).toEqual([]);
  });
});
