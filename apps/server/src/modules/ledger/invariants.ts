import { inArray, sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client.js';
import { WITHDRAWAL_HOLDING_STATUSES, withdrawals } from '../withdrawals/table.js';
import { MAY_GO_NEGATIVE } from './table.js';

export interface LedgerViolation {
  rule: string;
  detail: string;
}

const mayGoNegative = sql.raw(MAY_GO_NEGATIVE.map((c) => `'${c}'`).join(','));

/**
 * Each rule is a query returning the rows that break it, each as one line of detail. Full scans:
 * for tests and an operator's health check, not for a request path.
 */
const RULES: { rule: string; query: SQL }[] = [
  {
    rule: 'transaction postings sum to zero per coin',
    query: sql`select format('transaction %s, coin %s sums to %s', transaction_id, coin_id, sum(amount)) as detail
      from ledger_postings group by transaction_id, coin_id having sum(amount) <> 0`,
  },
  {
    rule: 'every transaction has postings',
    query: sql`select format('transaction %s (%s) has no postings', t.id, t.cause) as detail
      from ledger_transactions t where not exists (select 1 from ledger_postings p where p.transaction_id = t.id)`,
  },
  {
    rule: 'every posting names its transaction and an account in its coin',
    query: sql`select format('posting %s names transaction %s and account %s in coin %s', p.id, p.transaction_id, p.account_id, p.coin_id) as detail
      from ledger_postings p left join ledger_transactions t on t.id = p.transaction_id left join ledger_accounts a on a.id = p.account_id and a.coin_id = p.coin_id
      where t.id is null or a.id is null`,
  },
  {
    rule: 'no negative user (or income) balance',
    query: sql`select format('account %s (%s) is %s', id, coalesce('user ' || user_id || ' ' || bucket, platform_code) || ' coin ' || coin_id, balance) as detail
      from ledger_accounts where balance < 0 and not (owner_kind = 'platform' and platform_code in (${mayGoNegative}))`,
  },
  {
    rule: 'materialised balance equals the sum of postings',
    query: sql`select format('account %s balance %s, postings sum to %s', a.id, a.balance, coalesce(s.total, 0)) as detail
      from ledger_accounts a left join (select account_id, sum(amount) as total from ledger_postings group by account_id) s on s.account_id = a.id
      where a.balance <> coalesce(s.total, 0)`,
  },
  {
    // Withdrawals hold amount + fee; live buy orders hold what their remainder may still spend.
    rule: 'held balance equals amount + fee of open withdrawals plus the holds of live buy orders',
    query: sql`with held as (select user_id, coin_id, balance from ledger_accounts where owner_kind = 'user' and bucket = 'held'),
      open as (select user_id, coin_id, sum(total) as total from (
          select user_id, coin_id, amount + fee as total from withdrawals where ${inArray(withdrawals.status, [...WITHDRAWAL_HOLDING_STATUSES])}
          union all select user_id, coin_id, held from orders where status in ('open', 'partially_filled')) x group by user_id, coin_id)
      select format('user %s coin %s holds %s, open withdrawals and orders %s', coalesce(h.user_id, o.user_id), coalesce(h.coin_id, o.coin_id), coalesce(h.balance, 0), coalesce(o.total, 0)) as detail
      from held h full join open o on o.user_id = h.user_id and o.coin_id = h.coin_id
      where coalesce(h.balance, 0) <> coalesce(o.total, 0)`,
  },
  {
    rule: 'reserved shares equal the remainder of live sell orders',
    query: sql`select format('user %s market %s %s: reserved %s, live sells %s', coalesce(p.user_id, o.user_id), coalesce(p.market_id, o.market_id), coalesce(p.outcome, o.outcome), coalesce(p.reserved, 0), coalesce(o.total, 0)) as detail
      from positions p full join (select user_id, market_id, outcome, sum(remaining) as total from orders where side = 'sell' and status in ('open', 'partially_filled') group by user_id, market_id, outcome) o
        on o.user_id = p.user_id and o.market_id = p.market_id and o.outcome = p.outcome
      where coalesce(p.reserved, 0) <> coalesce(o.total, 0)`,
  },
  {
    rule: 'YES outstanding = NO outstanding = open interest per market',
    query: sql`select format('market %s: YES %s, NO %s, open interest %s', m.id, coalesce(s.yes, 0), coalesce(s.no, 0), m.open_interest) as detail
      from markets m left join (select market_id, sum(quantity) filter (where outcome = 'YES') as yes, sum(quantity) filter (where outcome = 'NO') as no from positions group by market_id) s on s.market_id = m.id
      where m.status not in ('resolved', 'voided') and (coalesce(s.yes, 0) <> coalesce(s.no, 0) or coalesce(s.yes, 0) <> m.open_interest)`,
  },
  {
    // What order fills put into (mints) and took out of (merges) market_collateral, and settlements paid
    // out of it, against the pairs the positions hold (settled markets hold none). Other causes (a
    // test's own postings) are outside this rule.
    rule: 'market collateral from orders and settlements = 100 cents per pair outstanding',
    query: sql`with pairs as (select p.coin_id, sum(p.quantity) * 100 * power(10::numeric, c.decimals - 2) as want
          from positions p join coins c on c.id = p.coin_id where p.outcome = 'YES' group by p.coin_id, c.decimals),
        have as (select a.coin_id, sum(p.amount) as balance from ledger_postings p
          join ledger_accounts a on a.id = p.account_id and a.owner_kind = 'platform' and a.platform_code = 'market_collateral'
          join ledger_transactions t on t.id = p.transaction_id and t.cause in ('order', 'settlement') group by a.coin_id)
      select format('coin %s: collateral from orders and settlements %s, pairs outstanding need %s', coalesce(h.coin_id, w.coin_id), coalesce(h.balance, 0), coalesce(w.want, 0)) as detail
      from have h full join pairs w on w.coin_id = h.coin_id
      where coalesce(h.balance, 0) <> coalesce(w.want, 0)`,
  },
  {
    // Per market: its own transactions' collateral (its orders' fills, its closing and expiry, its
    // settlement) ends at zero once settled, and 100 cents per pair before.
    rule: "a market's collateral is 100 cents per pair it has outstanding, zero once settled",
    query: sql`with own as (
          select t.ref_id as market_id, t.id from ledger_transactions t where t.ref_type = 'market'
          union all select o.market_id, t.id from orders o join ledger_transactions t on t.ref_type = 'order' and t.ref_id = o.id),
        coll as (select own.market_id, sum(p.amount) as balance from own join ledger_postings p on p.transaction_id = own.id
          join ledger_accounts a on a.id = p.account_id and a.platform_code = 'market_collateral' group by own.market_id),
        pairs as (select market_id, sum(quantity) filter (where outcome = 'YES') as yes from positions group by market_id)
      select format('market %s (%s): collateral %s, %s pairs outstanding', m.id, m.status, coalesce(c.balance, 0), coalesce(w.yes, 0)) as detail
      from markets m left join coll c on c.market_id = m.id left join pairs w on w.market_id = m.id
        join coins k on k.symbol = 'USDC'
      where coalesce(c.balance, 0) <> coalesce(w.yes, 0) * 100 * power(10::numeric, k.decimals - 2)`,
  },
  {
    rule: 'a resolved or voided market has one resolution, its settlement paid what it records, and no open position',
    query: sql`select format('market %s (%s): %s resolutions, settlement paid %s, resolution says %s, %s open positions', m.id, m.status,
          (select count(*) from resolutions r where r.market_id = m.id),
          (select coalesce(sum(p.amount), 0) from ledger_transactions t join ledger_postings p on p.transaction_id = t.id
            join ledger_accounts a on a.id = p.account_id and a.owner_kind = 'user'
            where t.cause = 'settlement' and t.ref_type = 'market' and t.ref_id = m.id),
          (select total_paid from resolutions r where r.market_id = m.id),
          (select count(*) from positions p where p.market_id = m.id and (p.status = 'open' or p.quantity > 0))) as detail
      from markets m
      where (m.status in ('resolved', 'voided')) <> exists (select 1 from resolutions r where r.market_id = m.id)
        or (select coalesce(sum(p.amount), 0) from ledger_transactions t join ledger_postings p on p.transaction_id = t.id
            join ledger_accounts a on a.id = p.account_id and a.owner_kind = 'user'
            where t.cause = 'settlement' and t.ref_type = 'market' and t.ref_id = m.id)
          <> coalesce((select total_paid from resolutions r where r.market_id = m.id), 0)
        or (m.status in ('resolved', 'voided') and exists (select 1 from positions p where p.market_id = m.id and (p.status = 'open' or p.quantity > 0)))`,
  },
  {
    rule: 'a confirmed deposit is credited exactly once, to its user, for its amount',
    query: sql`select format('deposit %s (%s, amount %s): %s ledger credits, %s credited to its user', id, status, amount, n, credited) as detail from (
        select d.id, d.status, d.amount,
          (select count(*) from ledger_transactions t where t.cause = 'deposit' and t.ref_type = 'deposit' and t.ref_id = d.id) as n,
          (select coalesce(sum(p.amount), 0) from ledger_transactions t
            join ledger_postings p on p.transaction_id = t.id
            join ledger_accounts a on a.id = p.account_id and a.owner_kind = 'user' and a.user_id = d.user_id and a.bucket = 'available'
            where t.cause = 'deposit' and t.ref_type = 'deposit' and t.ref_id = d.id) as credited
        from deposits d) x
      where n <> (case when status = 'confirmed' then 1 else 0 end) or credited <> (case when status = 'confirmed' then amount else 0 end)`,
  },
  {
    rule: 'a withdrawal has one hold, and one release or completion by its state',
    query: sql`select format('withdrawal %s (%s): %s holds, %s releases, %s completions', w.id, w.status,
        count(t.id) filter (where t.cause = 'withdrawal_hold'), count(t.id) filter (where t.cause = 'withdrawal_release'), count(t.id) filter (where t.cause = 'withdrawal_complete')) as detail
      from withdrawals w left join ledger_transactions t on t.ref_type = 'withdrawal' and t.ref_id = w.id
      group by w.id, w.status
      having count(t.id) filter (where t.cause = 'withdrawal_hold') <> 1
        or count(t.id) filter (where t.cause = 'withdrawal_release') <> (case when w.status in ('rejected', 'failed') then 1 else 0 end)
        or count(t.id) filter (where t.cause = 'withdrawal_complete') <> (case when w.status = 'completed' then 1 else 0 end)`,
  },
  {
    rule: 'a fiat top-up is credited once when it succeeded and reversed once when refunded',
    query: sql`select format('fiat payment %s (%s, %s): %s credits, %s refunds', f.id, f.purpose, f.status,
        count(t.id) filter (where t.cause = 'fiat_payment'), count(t.id) filter (where t.cause = 'fiat_refund')) as detail
      from fiat_payments f left join ledger_transactions t on t.ref_type = 'fiat_payment' and t.ref_id = f.id
      group by f.id, f.purpose, f.status
      having count(t.id) filter (where t.cause = 'fiat_payment') <> (case when f.purpose = 'coin_topup' and f.status in ('succeeded', 'refunded') then 1 else 0 end)
        or count(t.id) filter (where t.cause = 'fiat_refund') <> (case when f.purpose = 'coin_topup' and f.status = 'refunded' then 1 else 0 end)`,
  },
  {
    // Booster packs: a purchase on the platform is one pack_purchase transaction moving its price from
    // the buyer's available balance into pack_sales; store codes move no money.
    rule: 'each platform pack purchase posts its price into pack sales once, others post nothing',
    query: sql`select format('pack purchase %s (%s, price %s) has %s ledger transactions moving %s into pack sales', p.id, p.source, p.price, coalesce(t.n, 0), coalesce(t.moved, 0)) as detail
      from pack_purchases p left join (
        select t.ref_id, count(distinct t.id) as n, sum(x.amount) filter (where a.platform_code = 'pack_sales') as moved
        from ledger_transactions t join ledger_postings x on x.transaction_id = t.id join ledger_accounts a on a.id = x.account_id
        where t.cause = 'pack_purchase' and t.ref_type = 'pack_purchase' group by t.ref_id) t on t.ref_id = p.id
      where (p.source = 'platform' and (t.n is distinct from 1 or t.moved is distinct from p.price)) or (p.source <> 'platform' and t.n is not null)`,
  },
  {
    rule: 'a pack has sold what was bought and reserved what stores hold unredeemed, within its supply',
    query: sql`select format('pack %s: sold %s (purchases %s), reserved %s (allocations %s), supply %s', b.id, b.sold, coalesce(p.n, 0), b.reserved, coalesce(a.n, 0), b.supply) as detail
      from booster_packs b
      left join (select pack_id, count(*) as n from pack_purchases group by pack_id) p on p.pack_id = b.id
      left join (select pack_id, sum(quantity - redeemed) as n from store_allocations group by pack_id) a on a.pack_id = b.id
      where b.sold <> coalesce(p.n, 0) or b.reserved <> coalesce(a.n, 0) or b.sold + b.reserved > b.supply`,
  },
];

/**
 * What is wrong with the books, or [] when they are healthy: unbalanced or empty transactions,
 * negative balances where none may be, materialised balances that drifted from their postings, and
 * money records (deposits, withdrawals, fiat top-ups) whose ledger entries do not match their state.
 */
export async function checkLedgerInvariants(db: DbOrTx): Promise<LedgerViolation[]> {
  const out: LedgerViolation[] = [];
  for (const { rule, query } of RULES) {
    for (const row of await queryRows<{ detail: string }>(db, query)) out.push({ rule, detail: row.detail });
  }
  return out;
}
