// Large platform data for the list and export figures: N users and ~5 N ledger postings (1 M and
// 5 M by default), written set-based (`generate_series`, one INSERT … SELECT per table and slice of
// users), never through the services. The data keeps every rule of the ledger
// (apps/server/src/modules/ledger/README.md): an account per user × coin × bucket, transactions
// whose postings sum to zero per coin, materialised balances equal to the sum of their postings,
// no negative user balance, one hold per withdrawal and one credit per confirmed deposit. Only the
// ledger's two checking triggers are switched off during the load (the deferred one per transaction
// at commit, the postings' per statement); `checkLedgerInvariants` (postings' references and sums
// included) and a foreign-key query check everything afterwards, and the load fails if anything is
// wrong.
//
// Per user i (1 … N), in its coins' minor units (d = whole coins, f = the coin's withdrawal fee):
//
// | who            | what                                              | transactions, postings |
// |----------------|---------------------------------------------------|------------------------|
// | everyone       | a confirmed USDC deposit a1                       | deposit: 1, 2          |
// | i even         | a confirmed SOL deposit a2                        | deposit: 1, 2          |
// | i % 4 = 1      | a completed USDC withdrawal w (hold, then sent)   | 2, 2 + 3               |
// | i % 8 = 3      | a requested USDC withdrawal w (held)              | 1, 2                   |
// | i % 16 = 0     | a rejected SOL withdrawal (hold, then release)    | 2, 2 + 2               |
// | i % 8 = 6      | an admin's adjustment, +5 USDC                    | 1, 2                   |
// | i % 50 = 1, 26 | a pending, or a failed, USDC deposit (no ledger)  | —                      |
//
// Postings: 2 N + N + 1.25 N + 0.25 N + 0.25 N + 0.25 N = 5 N (exactly, when 16 divides N).
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../apps/server/src/db/client.js';
import { checkLedgerInvariants } from '../apps/server/src/modules/ledger/invariants.js';

export interface LedgerDataStats {
  users: number;
  accounts: number;
  transactions: number;
  postings: number;
  deposits: number;
  withdrawals: number;
  seconds: number;
  checkSeconds: number;
}

const SLICE = 250_000;
/** The adjustment's credit, minor units of USDC. */
const ADJUSTMENT = sql.raw('5000000::bigint');

const WORDS = [
  'luna', 'max', 'nova', 'kai', 'zoe', 'leo', 'mia', 'finn', 'ivy', 'otto', 'ruby', 'axel', 'nina', 'hugo', 'lara', 'theo', 'sage', 'milo', 'vera', 'ezra',
  'jade', 'odin', 'cleo', 'remy', 'juno', 'nico', 'alba', 'enzo', 'iris', 'teo', 'yara', 'ares', 'lila', 'omar', 'rosa', 'ivan', 'elsa', 'kian', 'noor', 'sven',
];
const DOMAINS = ['gmail.com', 'proton.me', 'outlook.com', 'example.org', 'yahoo.com', 'icloud.com'];
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'BR', 'IN', 'NG', 'JP', 'KR', 'CA', 'AU', 'ES', 'IT', 'MX', 'PH', 'VN', 'TR', 'PL', 'NL', 'AR'];

/** A pseudo-random pick in 0 … n − 1 for user i, independent across `salt`s (no correlation between a user's name, domain and country). */
const pick = (salt: number, n: number) => sql.raw(`((hashint8(i * ${salt + 7919})::bigint + 2147483648) % ${n})`);
const arr = (xs: string[]) => sql.raw(`array[${xs.map((x) => `'${x}'`).join(',')}]`);
/** Base58-looking text (hex digits, 0 → z), deterministic per seed: a 32-character address, or an 88-character signature. */
const address = (seed: SQL) => sql`translate(md5(${seed}), '0', 'z')`;
const signature = (seed: SQL) => sql`left(translate(md5(${seed}) || md5('x' || ${seed}) || md5('y' || ${seed}), '0', 'z'), 88)`;

/** The amounts of user i (SQL over the series column `i`), all in minor units. */
const a1 = sql`((10 + (i * 7919) % 990) * 1000000)::bigint`; // USDC deposit: 10 … 999 USDC
const a2 = sql`((1 + (i * 104729) % 50) * 100000000)::bigint`; // SOL deposit: 0.1 … 5 SOL
const wU = sql`(((10 + (i * 7919) % 990) / 4) * 1000000)::bigint`; // USDC withdrawal: a quarter of a1, whole USDC
const wS = sql`(((1 + (i * 104729) % 50) * 100000000) / 2)::bigint`; // SOL withdrawal: half of a2
const created = sql`(timestamptz '2024-01-01 00:00:00+00' + make_interval(secs => i * 60))`; // one signup a minute

const LOADED = ['users', 'ledger_accounts', 'ledger_transactions', 'ledger_postings', 'deposits', 'withdrawals'];
// The deferred check of new ledger transactions, and the statement-level check of each INSERT of postings.
const DEFERRED_TRIGGERS = [['ledger_transactions', 'ledger_transactions_balanced'], ['ledger_postings', 'ledger_postings_checked']] as const;

/**
 * Drops the foreign keys touching `tables` and their indexes that back no constraint, and turns
 * the deferred ledger triggers off. Returns what puts everything back exactly as it was (the
 * definitions come from the catalogue), which is where foreign keys and unique indexes are
 * checked over all the rows.
 */
async function dropForLoad(db: Db, tables: string[]): Promise<() => Promise<void>> {
  const names = sql.raw(tables.map((t) => `'${t}'::regclass`).join(', '));
  const fks = await queryRows<{ tbl: string; name: string; def: string }>(db, sql`
    select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def from pg_constraint
    where contype = 'f' and (conrelid in (${names}) or confrelid in (${names}))`);
  const indexes = await queryRows<{ name: string; def: string }>(db, sql`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def from pg_index i
    where i.indrelid in (${names}) and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`);
  for (const fk of fks) await db.execute(sql`alter table ${sql.identifier(fk.tbl)} drop constraint ${sql.identifier(fk.name)}`);
  for (const ix of indexes) await db.execute(sql`drop index ${sql.identifier(ix.name)}`);
  for (const [tbl, trigger] of DEFERRED_TRIGGERS) await db.execute(sql`alter table ${sql.identifier(tbl)} disable trigger ${sql.identifier(trigger)}`);
  return () =>
    db.transaction(async (tx) => {
      // Index builds sort in memory: more of it than the default 64 MB keeps them off temporary files.
      await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
      for (const ix of indexes) await tx.execute(sql.raw(ix.def));
      for (const fk of fks) await tx.execute(sql`alter table ${sql.identifier(fk.tbl)} add constraint ${sql.identifier(fk.name)} ${sql.raw(fk.def)}`);
      for (const [tbl, trigger] of DEFERRED_TRIGGERS) await tx.execute(sql`alter table ${sql.identifier(tbl)} enable trigger ${sql.identifier(trigger)}`);
    });
}

export async function generateLedgerData(db: Db, n: number, log: (line: string) => void): Promise<LedgerDataStats> {
  const t0 = performance.now();
  const [coinRows, admin, existing] = await Promise.all([
    queryRows<{ id: string | number; symbol: string; withdrawal_fee: string | number; min_withdrawal: string | number }>(db, sql`select id, symbol, withdrawal_fee, min_withdrawal from coins`),
    queryRows<{ id: string | number }>(db, sql`select id from admins where role = 'superadmin' order by id limit 1`),
    queryRows<{ n: string | number }>(db, sql`select (select count(*) from users) + (select count(*) from ledger_accounts) + (select count(*) from ledger_transactions) as n`),
  ]);
  if (Number(existing[0]!.n) !== 0) throw new Error('ledger data: the database already has users or ledger rows');
  const coin = (symbol: string) => {
    const c = coinRows.find((r) => r.symbol === symbol);
    if (!c) throw new Error(`ledger data: no coin ${symbol}`);
    return { id: Number(c.id), fee: BigInt(c.withdrawal_fee), min: BigInt(c.min_withdrawal) };
  };
  const U = coin('USDC');
  const S = coin('SOL');
  // The smallest withdrawals of the data must respect the coins' minimums.
  if (2_000_000n < U.min || 50_000_000n < S.min) throw new Error('ledger data: withdrawal amounts under the coin minimum');
  const adminId = Number(admin[0]!.id);
  const fU = sql.raw(`${U.fee}::bigint`);
  const fS = sql.raw(`${S.fee}::bigint`);
  const cU = sql.raw(String(U.id));
  const cS = sql.raw(String(S.id));

  // Platform accounts with fixed ids; a user's accounts are 1000 + 4 (i − 1) + slot.
  const HOT_U = 1;
  const HOT_S = 2;
  const FEES_U = 3;
  const ADJ_U = 4;
  const acct = (slot: number) => sql.raw(`(1000 + 4 * (i - 1) + ${slot})::bigint`);
  const [availU, heldU, availS, heldS] = [acct(0), acct(1), acct(2), acct(3)];
  // Transactions: 5 (i − 1) + slot + 1 (slot 0 USDC deposit, 1 SOL deposit, 2 hold, 3 complete or release, 4 adjustment).
  const txn = (slot: number) => sql.raw(`(5 * (i - 1) + ${slot + 1})::bigint`);

  // Bulk load as PostgreSQL's manual advises ("Populating a Database"): foreign keys and secondary
  // indexes are dropped, then re-created from their own definitions once the rows are in (an index
  // built over a table is much cheaper than one row at a time; a re-added foreign key checks every
  // row in one join, a unique index refuses duplicates). The ledger's two checking triggers
  // (per transaction at commit, per statement of postings) are off meanwhile; the invariants check their rules after.
  const restore = await dropForLoad(db, LOADED);
  try {
    await db.execute(sql`
      insert into ledger_accounts (id, owner_kind, platform_code, coin_id, balance) overriding system value values
        (${HOT_U}, 'platform', 'hot_wallet', ${cU}, 0), (${HOT_S}, 'platform', 'hot_wallet', ${cS}, 0),
        (${FEES_U}, 'platform', 'fees_income', ${cU}, 0), (${ADJ_U}, 'platform', 'adjustments', ${cU}, 0)`);
    for (let from = 1; from <= n; from += SLICE) {
      const to = Math.min(n, from + SLICE - 1);
      // The users i of the slice with i % step = rem: only the rows that exist are generated.
      const every = (step: number, rem: number) => {
        const first = from + ((((rem - from) % step) + step) % step);
        return sql`generate_series(${sql.raw(String(first))}::bigint, ${sql.raw(String(to))}::bigint, ${sql.raw(String(step))}) as g(i)`;
      };
      const all = every(1, 0);
      const ts = performance.now();
      await db.execute(sql`
        insert into users (id, username, email, wallet_address, status, blocked_reason, blocked_at, blocked_by, email_verified, country, signup_ip, created_at, updated_at, last_login_at)
        overriding system value
        select i, w || '_' || i, w || '.' || i || '@' || (${arr(DOMAINS)})[1 + ${pick(1, DOMAINS.length)}],
               case when i % 5 = 0 then null else ${address(sql`'wallet' || i`)} end,
               case when i % 50 = 7 then 'blocked' else 'active' end,
               case when i % 50 = 7 then 'Chargeback under investigation' end,
               case when i % 50 = 7 then ${created} + interval '30 days' end,
               case when i % 50 = 7 then ${sql.raw(String(adminId))}::bigint end,
               i % 3 <> 0, (${arr(COUNTRIES)})[1 + ${pick(2, COUNTRIES.length)}],
               '10.' || (i / 65536) % 256 || '.' || (i / 256) % 256 || '.' || i % 256,
               ${created}, ${created}, ${created} + make_interval(days => (1 + i % 90)::int)
        from ${all}, lateral (select (${arr(WORDS)})[1 + ${pick(3, WORDS.length)}] as w) x`);
      // Accounts with their final balances (the sums of the postings below; checked after).
      const account = (id: SQL, bucket: string, coinId: SQL, balance: SQL, series: SQL) =>
        sql`select ${id}, 'user', i, ${bucket}, ${coinId}, ${balance}, ${created} + interval '1 hour', ${created} + interval '1 hour' from ${series}`;
      await db.execute(sql`
        insert into ledger_accounts (id, owner_kind, user_id, bucket, coin_id, balance, created_at, updated_at)
        overriding system value
        ${account(availU, 'available', cU, sql`${a1} - case when i % 4 = 1 or i % 8 = 3 then ${wU} + ${fU} else 0 end + case when i % 8 = 6 then ${ADJUSTMENT} else 0 end`, all)}
        union all ${account(heldU, 'held', cU, sql`0::bigint`, every(4, 1))}
        union all ${account(heldU, 'held', cU, sql`${wU} + ${fU}`, every(8, 3))}
        union all ${account(availS, 'available', cS, a2, every(2, 0))}
        union all ${account(heldS, 'held', cS, sql`0::bigint`, every(16, 0))}`);
      const admin = sql.raw(`${adminId}::bigint`);
      const at = (minutes: number) => sql`${created} + interval '${sql.raw(String(minutes))} minutes'`;
      const sig = (kind: string, id: SQL) => signature(sql`'${sql.raw(kind)}' || ${id}`);
      await db.execute(sql`
        insert into deposits (id, user_id, coin_id, amount, tx_signature, from_address, status, confirmed_at, failed_reason, reason_code, reviewed_by, reviewed_at, created_at, updated_at)
        overriding system value
        select i, i, ${cU}, ${a1}, ${sig('deposit', sql`i`)}, ${address(sql`'from' || i`)}, 'confirmed', ${at(70)}, null, null, ${admin}, ${at(70)}, ${at(60)}, ${at(70)} from ${all}
        union all
        select ${sql.raw(String(n))} + i, i, ${cS}, ${a2}, ${sig('deposit', sql`${sql.raw(String(n))} + i`)}, ${address(sql`'from' || i`)}, 'confirmed', ${at(70)}, null, null, ${admin}, ${at(70)}, ${at(60)}, ${at(70)} from ${every(2, 0)}
        union all
        select ${sql.raw(String(2 * n))} + i, i, ${cU}, ${a1} / 2, ${sig('deposit', sql`${sql.raw(String(2 * n))} + i`)}, ${address(sql`'from' || i`)}, 'pending', null, null, null, null, null, ${at(60)}, ${at(60)} from ${every(50, 1)}
        union all
        select ${sql.raw(String(2 * n))} + i, i, ${cU}, ${a1} / 2, ${sig('deposit', sql`${sql.raw(String(2 * n))} + i`)}, ${address(sql`'from' || i`)}, 'failed', null, 'Not found on chain', 'not_found', ${admin}, ${at(70)}, ${at(60)}, ${at(70)} from ${every(50, 26)}`);
      await db.execute(sql`
        insert into withdrawals (id, user_id, coin_id, amount, fee, to_address, status, reviewed_by, reviewed_at, reason, reason_code, tx_signature, processed_at, created_at, updated_at)
        overriding system value
        select i, i, ${cU}, ${wU}, ${fU}, ${address(sql`'to' || i`)}, 'completed', ${admin}, ${at(180)}, null, null, ${sig('withdrawal', sql`i`)}, ${at(240)}, ${at(120)}, ${at(240)} from ${every(4, 1)}
        union all
        select i, i, ${cU}, ${wU}, ${fU}, ${address(sql`'to' || i`)}, 'requested', null, null, null, null, null, null, ${at(120)}, ${at(120)} from ${every(8, 3)}
        union all
        select i, i, ${cS}, ${wS}, ${fS}, ${address(sql`'to' || i`)}, 'rejected', ${admin}, ${at(180)}, 'Destination under review', 'destination_risk', null, null, ${at(120)}, ${at(180)} from ${every(16, 0)}`);
      const t = (slot: number, cause: string, refType: string | null, refId: SQL | null, actor: 'admin' | 'platform', minutes: number, series: SQL, reason: string | null = null) =>
        sql`select ${txn(slot)}, ${sql.raw(`'${cause}'`)}, ${sql.raw(refType ? `'${refType}'` : 'null')}, ${refId ?? sql.raw('null::bigint')}, ${sql.raw(reason ? `'${reason}'` : 'null')}, ${sql.raw(reason ? "'goodwill'" : 'null')}, ${sql.raw(`'${actor}'`)}, ${actor === 'admin' ? admin : sql.raw('null::bigint')}, ${at(minutes)} from ${series}`;
      await db.execute(sql`
        insert into ledger_transactions (id, cause, ref_type, ref_id, reason, reason_code, actor_kind, admin_id, created_at)
        overriding system value
        ${t(0, 'deposit', 'deposit', sql`i`, 'admin', 70, all)}
        union all ${t(1, 'deposit', 'deposit', sql`${sql.raw(String(n))} + i`, 'admin', 70, every(2, 0))}
        union all ${t(2, 'withdrawal_hold', 'withdrawal', sql`i`, 'platform', 120, every(4, 1))}
        union all ${t(2, 'withdrawal_hold', 'withdrawal', sql`i`, 'platform', 120, every(8, 3))}
        union all ${t(2, 'withdrawal_hold', 'withdrawal', sql`i`, 'platform', 120, every(16, 0))}
        union all ${t(3, 'withdrawal_complete', 'withdrawal', sql`i`, 'admin', 240, every(4, 1))}
        union all ${t(3, 'withdrawal_release', 'withdrawal', sql`i`, 'admin', 180, every(16, 0))}
        union all ${t(4, 'adjustment', null, null, 'admin', 300, every(8, 6), 'Goodwill credit after a support ticket')}`);
      // Posting ids: 3 (transaction − 1) + leg + 1.
      const leg = (slot: number, n: number, accountId: SQL, coinId: SQL, amount: SQL, series: SQL) =>
        sql`select 3 * (${txn(slot)} - 1) + ${sql.raw(String(n + 1))}, ${txn(slot)}, ${accountId}, ${coinId}, ${amount} from ${series}`;
      const heldAmountU = sql`(${wU} + ${fU})`;
      const heldAmountS = sql`(${wS} + ${fS})`;
      await db.execute(sql`
        insert into ledger_postings (id, transaction_id, account_id, coin_id, amount)
        overriding system value
        ${leg(0, 0, sql.raw(`${HOT_U}::bigint`), cU, sql`-${a1}`, all)}
        union all ${leg(0, 1, availU, cU, a1, all)}
        union all ${leg(1, 0, sql.raw(`${HOT_S}::bigint`), cS, sql`-${a2}`, every(2, 0))}
        union all ${leg(1, 1, availS, cS, a2, every(2, 0))}
        union all ${leg(2, 0, availU, cU, sql`-${heldAmountU}`, every(4, 1))}
        union all ${leg(2, 1, heldU, cU, heldAmountU, every(4, 1))}
        union all ${leg(2, 0, availU, cU, sql`-${heldAmountU}`, every(8, 3))}
        union all ${leg(2, 1, heldU, cU, heldAmountU, every(8, 3))}
        union all ${leg(2, 0, availS, cS, sql`-${heldAmountS}`, every(16, 0))}
        union all ${leg(2, 1, heldS, cS, heldAmountS, every(16, 0))}
        union all ${leg(3, 0, heldU, cU, sql`-${heldAmountU}`, every(4, 1))}
        union all ${leg(3, 1, sql.raw(`${HOT_U}::bigint`), cU, wU, every(4, 1))}
        ${U.fee > 0n ? sql`union all ${leg(3, 2, sql.raw(`${FEES_U}::bigint`), cU, fU, every(4, 1))}` : sql.empty()}
        union all ${leg(3, 0, heldS, cS, sql`-${heldAmountS}`, every(16, 0))}
        union all ${leg(3, 1, availS, cS, heldAmountS, every(16, 0))}
        union all ${leg(4, 0, availU, cU, ADJUSTMENT, every(8, 6))}
        union all ${leg(4, 1, sql.raw(`${ADJ_U}::bigint`), cU, sql`-${ADJUSTMENT}`, every(8, 6))}`);
      log(`ledger data: users ${from.toLocaleString('en-US')}–${to.toLocaleString('en-US')} in ${((performance.now() - ts) / 1000).toFixed(1)} s`);
    }
    // The platform accounts' balances are the sums of their postings.
    await db.execute(sql`
      update ledger_accounts a set balance = s.total
      from (select account_id, sum(amount) as total from ledger_postings where account_id in (${HOT_U}, ${HOT_S}, ${FEES_U}, ${ADJ_U}) group by account_id) s
      where a.id = s.account_id`);
    for (const table of ['users', 'ledger_accounts', 'ledger_transactions', 'ledger_postings', 'deposits', 'withdrawals']) {
      await db.execute(sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.identifier(table)}))`);
    }
  } finally {
    const tr = performance.now();
    await restore();
    log(`ledger data: indexes and foreign keys re-created (all rows checked) in ${((performance.now() - tr) / 1000).toFixed(1)} s`);
  }
  const tv = performance.now();
  await db.execute(sql`vacuum analyze users, ledger_accounts, ledger_transactions, ledger_postings, deposits, withdrawals`);
  log(`ledger data: vacuum analyze in ${((performance.now() - tv) / 1000).toFixed(1)} s`);
  const seconds = (performance.now() - t0) / 1000;

  // What the switched-off triggers and the services guarantee, checked over everything.
  const tc = performance.now();
  const violations = await checkLedgerInvariants(db);
  // Foreign keys stayed on during the load; this re-checks the one the ledger leans on most.
  const orphans = await queryRows<{ n: string | number }>(db, sql`
    select count(*) as n from ledger_postings p left join ledger_accounts a on a.id = p.account_id and a.coin_id = p.coin_id where a.id is null`);
  if (Number(orphans[0]!.n) !== 0) violations.push({ rule: 'a posting is on an account of its coin', detail: `${orphans[0]!.n} postings` });
  if (violations.length) {
    throw new Error(`ledger data breaks the ledger's rules:\n${violations.slice(0, 20).map((v) => `${v.rule}: ${v.detail}`).join('\n')}`);
  }
  const checkSeconds = (performance.now() - tc) / 1000;
  const [counts] = await queryRows<Record<string, string | number>>(db, sql`
    select (select count(*) from users) as users, (select count(*) from ledger_accounts) as accounts, (select count(*) from ledger_transactions) as transactions,
           (select count(*) from ledger_postings) as postings, (select count(*) from deposits) as deposits, (select count(*) from withdrawals) as withdrawals`);
  return {
    users: Number(counts!.users), accounts: Number(counts!.accounts), transactions: Number(counts!.transactions), postings: Number(counts!.postings),
    deposits: Number(counts!.deposits), withdrawals: Number(counts!.withdrawals), seconds, checkSeconds,
  };
}
