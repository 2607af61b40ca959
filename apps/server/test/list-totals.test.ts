import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordDeposit } from '../src/modules/deposits/service.js';
import { call, } from './helpers.js';
import { fund, makeCoin, makeUser, randomAddress, randomSignature, type MoneyFixture, moneyFile } from './money-helpers.js';

/**
 * The total beside a list page (src/resources/register.ts `listRecords`): counted on the bare table
 * when the declared joins keep its rows and the filters name only its columns, through the joins
 * otherwise; capped at 10,000 (1,000 for a free-text search) and then flagged `totalCapped`, which
 * the list shows as "1,000+".
 */
let f: MoneyFixture;
let token: string;
const queries: string[] = [];
let coinA: { id: number; symbol: string };
let coinB: { id: number; symbol: string };

moneyFile((m) => ({ f, token } = m), { onQuery: (q) => queries.push(q) });
beforeAll(async () => {
  coinA = await makeCoin(f);
  coinB = await makeCoin(f);
  const users = [await makeUser(f), await makeUser(f), await makeUser(f)];
  // Pending deposits: 3 in coin A, 1 in coin B; confirmed: 2 in coin B.
  for (const [i, coin] of [coinA, coinA, coinA, coinB].entries()) {
    await f.db.transaction((tx) => recordDeposit(tx, f.platform, { userId: users[i % 3]!.id, coin: coin.id, amount: 1_000n + BigInt(i), txSignature: randomSignature(), fromAddress: randomAddress() }));
  }
  await fund(f, users[0]!.id, coinB.id, 5_000n);
  await fund(f, users[1]!.id, coinB.id, 6_000n);
  // 1,005 users named zebra_1 … zebra_1005 (set-based: no ledger accounts).
  await f.db.execute(sql`
    insert into users (username, email, country, signup_ip)
    select 'zebra_' || i, 'z' || i || '@stripes.test', 'KE', '198.51.100.1' from generate_series(1, 1005) as g(i)`);
});

const list = async (url: string) => {
  const res = await call(f.s, 'GET', url, { token });
  expect(res.status, res.raw).toBe(200);
  return res.body.result as { items: { coin?: string; status?: string }[]; total: number; totalCapped?: boolean };
};

/** The count statement the request ran (the one that starts with `select count(*) as n`). */
async function countQueryOf(url: string): Promise<string> {
  queries.length = 0;
  await list(url);
  const q = queries.find((x) => x.startsWith('select count(*) as n'));
  expect(q, url).toBeDefined();
  return q!;
}

describe('list totals', () => {
  it('count a filter on the table\'s own columns without the joins, and the same rows', async () => {
    const pending = await list('/api/admin/deposits?status=pending&limit=2');
    expect(pending.total).toBe(4);
    expect(pending.items).toHaveLength(2);
    expect(pending.totalCapped).toBeUndefined();
    expect(await countQueryOf('/api/admin/deposits?status=pending')).not.toMatch(/join/i);
    expect((await list('/api/admin/deposits?status=confirmed')).total).toBe(2);
    expect((await list('/api/admin/withdrawals?status=requested')).total).toBe(0);
  });

  it('count a filter on a joined column through the joins', async () => {
    const a = await list(`/api/admin/deposits?coin=${coinA.symbol.toLowerCase()}`);
    expect(a.total).toBe(3);
    expect(a.items.every((d) => d.coin === coinA.symbol)).toBe(true);
    expect((await list(`/api/admin/deposits?coin=${coinB.symbol}&status=pending`)).total).toBe(1);
    expect(await countQueryOf(`/api/admin/deposits?coin=${coinB.symbol}`)).toMatch(/join/i);
  });

  it('cap a free-text search at 1,000 and say so; count a narrower one exactly', async () => {
    const all = await list('/api/admin/users?q=zebra&limit=50');
    expect(all.items).toHaveLength(50);
    expect(all.total).toBe(1000);
    expect(all.totalCapped).toBe(true);
    // zebra_7, zebra_70 … 79, zebra_700 … 799: 111.
    const some = await list('/api/admin/users?q=ZEBRA_7&limit=50');
    expect(some.total).toBe(111);
    expect(some.totalCapped).toBeUndefined();
    // Without a search the usual cap (10,000) applies: all of them, exactly.
    const kenya = await list('/api/admin/users?country=KE&limit=10');
    expect(kenya.total).toBe(1005);
    expect(kenya.totalCapped).toBeUndefined();
  });

  it('filter the audit log by resource and admin without regard to case', async () => {
    const exact = await list('/api/admin/audit-log?resource=coins');
    expect(exact.total).toBeGreaterThanOrEqual(2);
    expect((await list('/api/admin/audit-log?resource=COINS')).total).toBe(exact.total);
    expect((await list('/api/admin/audit-log?resource=COINS&createdAt_from=2999-01-01')).total).toBe(0);
  });
});
