// Settlement of a market with many positions (QUALITY.md / issue 9: 100 k positions, one transaction,
// ≤ 2 s): two closed markets, each with BENCH_POSITIONS positions (default 100 000: half YES, half NO,
// one user each, the same users in both), built by set-based SQL as the order service would have left
// them (one mint per pair: its ledger transaction, the orders, the positions), then one resolved YES
// (50 k winners paid) and one voided (100 k refunds) through `resolveMarket`, each timed from BEGIN to
// COMMIT. PGlite by default; BENCH_DATABASE_URL=postgres://… for PostgreSQL (a scratch database).
// BENCH_KEEP_DB=1 builds the markets in the BENCH_DATABASE_URL database itself and stops there, for
// EXPLAIN ANALYZE of the settlement's statements by hand (in a transaction rolled back).
// BENCH_PRO_RATA=1: the voided market's positions carry costs off their mint prices, as when shares
// changed hands at other prices (per pair, YES 5/8 to 15/8 of its mint cost, NO 14/11 to 4/11), so VOID shares the
// collateral pro rata (largest remainders) instead of refunding each cost as it is.
import fs from 'node:fs';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../apps/server/src/config.js';
import { systemActor } from '../apps/server/src/context.js';
import { openDatabase, queryRows } from '../apps/server/src/db/client.js';
import { checkLedgerInvariants } from '../apps/server/src/modules/ledger/invariants.js';
import { marketCollateral, resolveMarket } from '../apps/server/src/modules/resolutions/service.js';
import { bootstrap } from '../apps/server/src/seed/bootstrap.js';
import { scratchPostgres } from './scratch-db.js';

const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 100_000);
const PRO_RATA = process.env.BENCH_PRO_RATA === '1';

/** CPU time (user + system, ms) of a local process, from /proc; null where that cannot be read. */
function cpuMs(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

export async function benchSettle(): Promise<void> {
  const base = process.env.BENCH_DATABASE_URL;
  const keep = process.env.BENCH_KEEP_DB === '1';
  const scratch = base ? (keep ? { databaseUrl: base, drop: async () => undefined } : await scratchPostgres(base)) : null;
  const config = loadConfig({ APP_MODE: 'production', TOTP_ENCRYPTION_KEY: 'ab'.repeat(32), ADMIN_EMAIL: 'bench@pitboss.test', ADMIN_PASSWORD: 'Bench-Password-1', LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1' } as NodeJS.ProcessEnv);
  // Per-statement timings of a settlement: each statement's start is logged, so the gap to the next
  // one (or to the end of the commit) is its time, round trip included.
  let trace: { at: number; query: string }[] | null = null;
  const database = await openDatabase({ databaseUrl: scratch?.databaseUrl, dataDir: 'memory://', onQuery: (query) => trace?.push({ at: performance.now(), query }) });
  try {
    await bootstrap(database.db, config);
    const db = database.db;
    const driver = database.driver === 'pglite' ? 'PGlite' : 'PostgreSQL';
    const pairs = Math.floor(POSITIONS / 2);
    const [coin] = await queryRows<{ id: number; decimals: number }>(db, sql`select id, decimals from coins where symbol = 'USDC'`);
    const unit = 10n ** BigInt(coin!.decimals - 2);
    // Constants inlined (parameters of a UNION's SELECT list would be typed text).
    const C = sql.raw(String(Number(coin!.id)));
    const UNIT = sql.raw(unit.toString());

    const t0 = performance.now();
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into users (username, email, country, signup_ip)
        select 'holder_' || i, 'h' || i || '@players.test', 'DE', '198.51.100.9' from generate_series(1, ${sql.raw(String(pairs * 2))}) g(i)`);
      await tx.execute(sql`insert into events (ticker, title, description, open_time, close_time, expected_resolution_time, status)
        values ('KXBENCH-E', 'Settlement bench', '', now() - interval '2 days', now() - interval '1 day', now() - interval '1 hour', 'closed')`);
      await tx.execute(sql`insert into markets (event_id, ticker, title, rules, status, closes_at, opened_at, closed_at, open_interest)
        select e.id, 'KXBENCH-' || k, 'Settlement bench ' || k || '?', 'Resolves YES if it does.', 'closed', e.close_time, e.open_time, e.close_time, 0
        from events e, (values ('YES'), ('VOID')) v(k) where e.ticker = 'KXBENCH-E'`);
      // Every holder funded by one adjustment, so the mints below spend real balances.
      await tx.execute(sql`insert into ledger_accounts (owner_kind, platform_code, coin_id) values
        ('platform', 'adjustments', ${C}), ('platform', 'market_collateral', ${C}) on conflict do nothing`);
      await tx.execute(sql`insert into ledger_accounts (owner_kind, user_id, bucket, coin_id) select 'user', id, 'available', ${C} from users where username like 'holder_%'`);
      await tx.execute(sql`insert into ledger_transactions (cause, reason, actor_kind) values ('adjustment', 'settlement bench funding', 'system')`);
      await tx.execute(sql`insert into ledger_postings (transaction_id, account_id, coin_id, amount)
        select (select max(id) from ledger_transactions), a.id, a.coin_id, 1000000000 from ledger_accounts a join users u on u.id = a.user_id where u.username like 'holder_%'
        union all select (select max(id) from ledger_transactions), a.id, a.coin_id, -1000000000::bigint * ${sql.raw(String(pairs * 2))} from ledger_accounts a where a.platform_code = 'adjustments' and a.coin_id = ${C}`);
      // Per market and pair i: YES holder 2i−1 buys q at p, NO holder 2i buys q at 100 − p (a mint), one order each.
      await tx.execute(sql`create temp table bench_mints on commit drop as
        select m.id as market_id, i, 1 + (i * 37) % 98 as p, 1 + (i * 13) % 50 as q, uy.id as yes_user, un.id as no_user,
          ${sql.raw(PRO_RATA ? `case when m.ticker = 'KXBENCH-VOID' then 5 + i % 11 else 8 end` : '8')} as skew
        from markets m, generate_series(1, ${sql.raw(String(pairs))}) g(i)
        join users uy on uy.username = 'holder_' || (2 * i - 1) join users un on un.username = 'holder_' || (2 * i)
        where m.ticker like 'KXBENCH-%'`);
      await tx.execute(sql`insert into orders (market_id, user_id, outcome, side, price, quantity, filled, remaining, time_in_force, status, coin_id)
        select market_id, yes_user, 'YES', 'buy', p, q, q, 0, 'GTC', 'filled', ${C} from bench_mints
        union all select market_id, no_user, 'NO', 'buy', 100 - p, q, q, 0, 'IOC', 'filled', ${C} from bench_mints`);
      await tx.execute(sql`insert into ledger_transactions (cause, ref_type, ref_id, actor_kind)
        select 'order', 'order', o.id, 'platform' from orders o where o.outcome = 'NO' and o.market_id in (select id from markets where ticker like 'KXBENCH-%') order by o.id`);
      await tx.execute(sql`insert into ledger_postings (transaction_id, account_id, coin_id, amount)
        select t.id, x.account_id, ${C}, x.amount from bench_mints b
        join orders o on o.market_id = b.market_id and o.user_id = b.no_user and o.outcome = 'NO'
        join ledger_transactions t on t.ref_type = 'order' and t.ref_id = o.id
        cross join lateral (values
          ((select id from ledger_accounts where user_id = b.yes_user and bucket = 'available'), -(b.p * b.q)::bigint * ${UNIT}),
          ((select id from ledger_accounts where user_id = b.no_user and bucket = 'available'), -((100 - b.p) * b.q)::bigint * ${UNIT}),
          ((select id from ledger_accounts where platform_code = 'market_collateral' and coin_id = ${C}), (100 * b.q)::bigint * ${UNIT})) x(account_id, amount)
        order by t.id`);
      await tx.execute(sql`insert into positions (user_id, market_id, outcome, quantity, cost, coin_id)
        select yes_user, market_id, 'YES', q, (p * q)::bigint * ${UNIT} * skew / 8, ${C} from bench_mints
        union all select no_user, market_id, 'NO', q, ((100 - p) * q)::bigint * ${UNIT} * (19 - skew) / 11, ${C} from bench_mints`);
      await tx.execute(sql`update markets m set open_interest = s.n, volume = s.n from (select market_id, sum(q) as n from bench_mints group by market_id) s where s.market_id = m.id`);
      await tx.execute(sql`update ledger_accounts a set balance = s.total from (select account_id, sum(amount) as total from ledger_postings group by account_id) s where s.account_id = a.id`);
    });
    await db.execute(sql`analyze`);
    console.log(`settle: 2 closed markets × ${(pairs * 2).toLocaleString('en-US')} positions built in ${((performance.now() - t0) / 1000).toFixed(1)} s (${driver}${PRO_RATA ? '; the voided market’s costs off their mint prices: VOID pro rata' : ''})`);

    if (keep) return;
    let cpuStart: number | null = null;
    const markets = await queryRows<{ id: number; ticker: string }>(db, sql`select id, ticker from markets where ticker like 'KXBENCH-%' order by ticker desc`);
    for (const m of markets) {
      const result = m.ticker.endsWith('VOID') ? 'VOID' : 'YES';
      const before = await marketCollateral(db, Number(m.id), coin!.id);
      // The server's CPU time for the settlement (PostgreSQL on this machine: its backend process),
      // which a busy machine inflates far less than the wall time.
      let backend: number | null = null;
      trace = [];
      const t = performance.now();
      const { resolution } = await db.transaction(async (tx) => {
        if (database.driver === 'postgres') backend = Number((await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`))[0]!.pid);
        if (backend !== null) cpuStart = cpuMs(backend);
        return resolveMarket(tx, systemActor('bench'), Number(m.id), { result, source: 'Settlement bench', evidence: 'A bench of many positions settled at once.', evidenceUrls: ['https://bench.example/settle'] });
      });
      const end = performance.now();
      const serverCpu = backend !== null && cpuStart !== null ? (cpuMs(backend) ?? Number.NaN) - cpuStart : null;
      const ms = end - t;
      const steps = trace.map((s, i) => ({ ms: (trace![i + 1]?.at ?? end) - s.at, query: s.query.replace(/\s+/g, ' ').trim() }));
      trace = null;
      const shown = steps.filter((s) => s.ms >= 10);
      console.log(`settle ${result}: ${steps.length} statements; those of 10 ms or more (the last one includes the commit):`);
      for (const s of shown) console.log(`  ${s.ms.toFixed(0).padStart(6)} ms  ${s.query.slice(0, 110)}`);
      const after = await marketCollateral(db, Number(m.id), coin!.id);
      if (after !== 0n || resolution.totalPaid !== before) throw new Error(`settle ${result}: collateral ${before} → ${after}, paid ${resolution.totalPaid}`);
      const load = os.loadavg()[0]!.toFixed(1);
      console.log(
        `settle ${result}: ${resolution.positions.toLocaleString('en-US')} positions, ${resolution.holders.toLocaleString('en-US')} holders, ${before / (100n * unit)} pairs paid out in one transaction: ${ms.toFixed(0)} ms (bar ≤ 2000 ms, ${driver}, load average ${load} on ${os.availableParallelism()} CPUs${serverCpu !== null && !Number.isNaN(serverCpu) ? `; server CPU ${serverCpu.toFixed(0)} ms` : ''})`,
      );
    }
    const t1 = performance.now();
    const problems = await checkLedgerInvariants(db);
    if (problems.length) throw new Error(`ledger invariants broken after the settlement bench: ${JSON.stringify(problems.slice(0, 5))}`);
    console.log(`settle: every ledger invariant holds (checked in ${((performance.now() - t1) / 1000).toFixed(1)} s)`);
  } finally {
    await database.close();
    await scratch?.drop();
  }
}
