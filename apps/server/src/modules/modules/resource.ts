import { modulesResource, } from '@pitboss/contract';
import { getTableColumns, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { permissionModules, } from '../../db/schema.js';
import { iso, defineResource, } from '../../resources/define.js';

const subModuleCount = sql<number>`(select count(*)::int from permission_sub_modules sm where sm.module_id = "permission_modules"."id")`;

export const modulesDef = defineResource({
  spec: modulesResource,
  table: permissionModules,
  idColumn: permissionModules.id,
  columns: { name: permissionModules.name, sortOrder: permissionModules.sortOrder, status: permissionModules.status },
  searchColumns: [permissionModules.name],
  select: (db: DbOrTx) => db.select({ ...getTableColumns(permissionModules), subModuleCount }).from(permissionModules),
  toRecord: (r) => ({
    _id: String(r.id), name: r.name, sortOrder: r.sortOrder, status: r.status, subModuleCount: Number(r.subModuleCount ?? 0),
    createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
  }),
  uniqueErrors: { permission_modules_name_unique: { field: 'name', message: 'A module with this name exists' } },
  statusColumn: permissionModules.status,
});
