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

describe('0038 and 0039: reason codes, and adjustments as records of their own', () => {
  let old: PGlite;
  beforeAll(async () => {
    old = new PGlite('memory://', { extensions: { pg_trgm } });
    await old.waitReady;
  });
  afterAll(async () => old?.close());

  it('gives decided records the code `other` (their words kept as the note), lists the ledger’s adjustments as applied, and leaves the ledger as it was', async () => {
    for (const t of tags.slice(0, tags.indexOf('0038_reason_codes'))) for (const s of statements(t)) await old.exec(s);
    await old.exec(`
      insert into coins (symbol, name, decimals) values ('USDC', 'USD Coin', 6);
      insert into users (username, email, signup_ip) values ('omar_s', 'omar@example.com', '198.51.100.1');
      insert into withdrawals (user_id, coin_id, amount, fee, to_address, status, reason)
        values (1, 1, 5000000, 0, 'So11111111111111111111111111111111111111112', 'rejected', 'Address not verified');
      begin;
      insert into ledger_accounts (owner_kind, user_id, bucket, coin_id) values ('user', 1, 'available', 1);
      insert into ledger_accounts (owner_kind, platform_code, coin_id) values ('platform', 'adjustments', 1);
      insert into ledger_transactions (cause, reason, actor_kind) values ('adjustment', 'Goodwill for outage #12', 'system');
      insert into ledger_postings (transaction_id, account_id, coin_id, amount) values (1, 1, 1, 2500000), (1, 2, 1, -2500000);
      update ledger_accounts set balance = 2500000 where id = 1;
      update ledger_accounts set balance = -2500000 where id = 2;
      commit;`);
    for (const t of ['0038_reason_codes', '0039_balance_adjustments']) for (const s of statements(t)) await old.exec(s);
    expect((await old.query('select status, reason_code, reason from withdrawals')).rows).toEqual([{ status: 'rejected', reason_code: 'other', reason: 'Address not verified' }]);
    expect((await old.query('select cause, reason_code, reason, ref_type from ledger_transactions')).rows).toEqual([{ cause: 'adjustment', reason_code: null, reason: 'Goodwill for outage #12', ref_type: null }]);
    expect((await old.query('select user_id::int, coin_id::int, amount::text, status, reason_code, reason, transaction_id::int from balance_adjustments')).rows).toEqual([
      { user_id: 1, coin_id: 1, amount: '2500000', status: 'applied', reason_code: 'other', reason: 'Goodwill for outage #12', transaction_id: 1 },
    ]);
    // New adjustments in the ledger need their code.
    await expect(old.exec(`insert into ledger_transactions (cause, reason, actor_kind) values ('adjustment', 'No code', 'system')`)).rejects.toThrow(/ledger_transactions_reason_ck/);
  });
});

describe('0044: coins get the decimals tables show', () => {
  let old: PGlite;
  beforeAll(async () => {
    old = new PGlite('memory://', { extensions: { pg_trgm } });
    await old.waitReady;
  });
  afterAll(async () => old?.close());

  it('gives existing coins at most 4 (USDC 2), and refuses more than the coin has', async () => {
    for (const t of tags.slice(0, tags.indexOf('0044_money_sort'))) for (const s of statements(t)) await old.exec(s);
    await old.exec(`insert into coins (symbol, name, decimals) values ('SOL', 'Solana', 9), ('USDC', 'USD Coin', 6), ('PTS', 'Points', 0)`);
    for (const s of statements('0044_money_sort')) await old.exec(s);
    expect((await old.query('select symbol, display_decimals from coins order by symbol')).rows).toEqual([
      { symbol: 'PTS', display_decimals: 0 },
      { symbol: 'SOL', display_decimals: 4 },
      { symbol: 'USDC', display_decimals: 2 },
    ]);
    await expect(old.exec(`update coins set display_decimals = 1 where symbol = 'PTS'`)).rejects.toThrow(/coins_display_decimals_ck/);
  });
});
