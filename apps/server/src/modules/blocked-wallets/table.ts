
import { bigint, pgTable, text, uniqueIndex, } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.js';
import { admins } from '../sub-admins/table.js';

/** Blocked and whitelisted wallets have the same shape: a Solana address, label, reason. */
export const walletList = (name: 'blocked_wallets' | 'whitelist_wallets') =>
  pgTable(
    name,
    {
      id: id(),
      address: text('address').notNull(),
      label: text('label').notNull().default(''),
      reason: text('reason').notNull().default(''),
      createdBy: bigint('created_by', { mode: 'number' }).references(() => admins.id, { onDelete: 'set null' }),
      createdAt: createdAt(),
      updatedAt: updatedAt(),
    },
    (t) => [uniqueIndex(`${name}_address_uq`).on(t.address)],
  );
export const blockedWallets = walletList('blocked_wallets');
