import type { SavedViewState } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, ref, updatedAt } from '../../db/columns.js';
import { admins } from '../sub-admins/table.js';

/**
 * An admin's saved view of one list (its page's route pattern): the list's state under a name,
 * private or shared with every admin who may view the list. Names are unique per owner and list,
 * whatever their case. An admin's views go with the admin.
 */
export const savedViews = pgTable(
  'saved_views',
  {
    id: id(),
    adminId: ref('admin_id').notNull().references(() => admins.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    name: text('name').notNull(),
    shared: boolean('shared').notNull().default(false),
    state: jsonb('state').$type<SavedViewState>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('saved_views_owner_list_name_key').on(t.adminId, t.list, sql`lower(${t.name})`),
    index('saved_views_list_shared_idx').on(t.list, t.shared),
  ],
);

/** Each admin's default view per list (their own, or one shared with them): gone with the view. */
export const savedViewDefaults = pgTable(
  'saved_view_defaults',
  {
    adminId: ref('admin_id').notNull().references(() => admins.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    viewId: ref('view_id').notNull().references(() => savedViews.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.adminId, t.list] }), index('saved_view_defaults_view_idx').on(t.viewId)],
);
