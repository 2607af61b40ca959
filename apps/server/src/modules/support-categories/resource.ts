import {supportCategoriesResource, 
} from '@pitboss/contract';
import { supportCategories, } from '../../db/schema.js';
import { iso, defineResource, isoOrNull, } from '../../resources/define.js';

export const supportCategoriesDef = defineResource({
  spec: supportCategoriesResource,
  table: supportCategories,
  idColumn: supportCategories.id,
  columns: { name: supportCategories.name, sortOrder: supportCategories.sortOrder, status: supportCategories.status, createdAt: supportCategories.createdAt },
  searchColumns: [supportCategories.name],
  toRecord: (r) => ({
    _id: String(r.id), name: r.name, sortOrder: r.sortOrder, status: r.status, archivedAt: isoOrNull(r.archivedAt),
    createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
  }),
  archivedAtColumn: supportCategories.archivedAt,
  uniqueErrors: { support_categories_name_uq: { field: 'name', message: 'A category with this name exists (it may be archived)' } },
  statusColumn: supportCategories.status,
});
