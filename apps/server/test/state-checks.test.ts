import { RESOURCES, stateOptions, stateValues } from '@pitboss/contract';
import { getTableName, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.js';
import { resourceDefs } from '../src/modules/index.js';
import { startTestServer, type TestServer } from './helpers.js';

/**
 * A state machine's list of states is written once, in the contract: the status filter offers
 * exactly its states (`stateOptions`), and the database's CHECK on the status column allows exactly
 * its states. The CHECK is declared from the machine (`statusCheck`, db/states.ts), so a machine
 * that changes makes `drizzle-kit generate` write the migration that replaces it; this test reads the
 * migrated database itself, so a machine changed without that migration fails here.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe('state lists derive from the machine', () => {
  it('every machine is its table\'s status CHECK, in the migrated database', async () => {
    const defs = resourceDefs({ config: s.config, blockedIps: { invalidate: () => undefined } as never }).filter((d) => d.spec.states);
    // Not vacuous: the machines of the money, markets, support and admin resources are all here.
    expect(defs.map((d) => d.spec.name)).toEqual(expect.arrayContaining(['withdrawals', 'deposits', 'users', 'markets', 'orders', 'tickets', 'sub-admins', 'mail-outbox']));
    for (const def of defs) {
      const table = getTableName(def.table);
      const [ck] = await queryRows<{ def: string }>(s.database.db, sql`
        select pg_get_constraintdef(c.oid) as def from pg_constraint c join pg_class t on t.oid = c.conrelid
        where t.relname = ${table} and c.conname = ${`${table}_status_ck`}`);
      expect(ck, `${def.spec.name}: no ${table}_status_ck in the database`).toBeDefined();
      const allowed = [...ck!.def.matchAll(/'([^']*)'/g)].map((m) => m[1]);
      expect(allowed, `${def.spec.name}: ${table}_status_ck`).toEqual(stateValues(def.spec.states!));
    }
  });

  it('every status filter offers exactly its machine\'s states, labelled as the machine labels them', () => {
    const withMachine = Object.values(RESOURCES).filter((r) => r.states);
    let filters = 0;
    for (const spec of withMachine) {
      const filter = spec.filters.find((f) => f.key === 'status');
      if (!filter) continue;
      filters++;
      expect(filter.type === 'oneOf' ? filter.options : undefined, spec.name).toEqual(stateOptions(spec.states!));
    }
    expect(filters).toBeGreaterThanOrEqual(14);
  });
});
