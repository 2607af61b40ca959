import { bigint, timestamp } from 'drizzle-orm/pg-core';

/*
 * Column helpers of the money tables: the same as schema.ts's. schema.ts re-exports these tables
 * (that is how drizzle-kit sees them), so the table files cannot import from schema.ts without an
 * import cycle; the helpers live here instead.
 */
export const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
/** A reference to another row's id (ids fit a JS number; amounts never do this). */
export const ref = (name: string) => bigint(name, { mode: 'number' });
// Millisecond precision, like a JS Date: a timestamp read back and sent as a cursor compares exactly.
export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
export const createdAt = () => ts('created_at').notNull().defaultNow();
export const updatedAt = () => ts('updated_at').notNull().defaultNow();
/** Money: minor units (lamports, micro-USDC, cents) as a JS bigint, never a float. */
export const money = (name: string) => bigint(name, { mode: 'bigint' });
