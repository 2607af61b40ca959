
import { integer, pgTable, text, } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.js';

export const permissionModules = pgTable('permission_modules', {
  id: id(),
  name: text('name').notNull().unique(),
  sortOrder: integer('sort_order').notNull().default(0),
  status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
