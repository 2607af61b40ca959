import { bigint, timestamp } from 'drizzle-orm/pg-core';

/* Column helpers every table uses (each table lives in its module's `table.ts`). */
export const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
/** A reference to another row's id (ids fit a JS number; amounts never do this). */
export const ref = (name: string) => bigint(name, { mode: 'number' });
// Millisecond precision, like a JS Date: a timestamp read back and sent as a cursor compares exactly.
export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
export const createdAt = () => ts('created_at').notNull().defaultNow();
export const updatedAt = () => ts('updated_at').notNull().defaultNow();
/** Money: minor units (lamports, micro-USDC, cents) as a JS bigint, never a float. */
export const money = (name: string) => bigint(name, { mode: 'bigint' });
