import { stateValues, type StateMachine } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { check, type AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * The CHECK that a status column holds one of its machine's states, `<column> in ('a','b',…)` in
 * declaration order: the states are the contract's declaration, not a list typed again here. It is
 * the text drizzle-kit writes into a migration, so a machine that gains or loses a state changes
 * the schema and `drizzle-kit generate` writes the migration that replaces the CHECK; the test
 * "every machine is its table's CHECK" (apps/server/test/state-checks.test.ts) reads the migrated database.
 */
export function statusCheck(name: string, column: AnyPgColumn, machine: StateMachine): ReturnType<typeof check> {
  const values = stateValues(machine);
  for (const v of values) if (!/^[a-z_]+$/.test(v)) throw new Error(`${name}: state "${v}" is not a plain word`);
  return check(name, sql`${column} in (${sql.raw(values.map((v) => `'${v}'`).join(','))})`);
}
