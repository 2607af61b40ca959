import type { RestrictionName } from '@pitboss/contract';
import { bigint, index, integer, jsonb, pgTable, text, } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.js';
import { permissionModules } from '../modules/table.js';

export const permissionSubModules = pgTable(
  'permission_sub_modules',
  {
    id: id(),
    moduleId: bigint('module_id', { mode: 'number' }).notNull().references(() => permissionModules.id, { onDelete: 'restrict' }),
    name: text('name').$type<RestrictionName>().notNull().unique(),
    pages: jsonb('pages').notNull().$type<string[]>().default([]),
    sortOrder: integer('sort_order').notNull().default(0),
    status: text('status').notNull().$type<'active' | 'inactive'>().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('permission_sub_modules_module_idx').on(t.moduleId)],
);
