import { subModulesResource } from '@pitboss/contract';
import { eq, getTableColumns, } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { permissionModules, permissionSubModules } from '../../db/schema.js';
import { iso, defineResource, type Row } from '../../resources/define.js';

const moduleIdInput = (input: Row): Row => (input.moduleId === undefined ? input : { ...input, moduleId: Number(input.moduleId) });

export const subModulesDef = defineResource({
  spec: subModulesResource,
  table: permissionSubModules,
  idColumn: permissionSubModules.id,
  columns: {
    name: permissionSubModules.name, moduleName: permissionModules.name, moduleId: permissionSubModules.moduleId,
    sortOrder: permissionSubModules.sortOrder, status: permissionSubModules.status,
  },
  searchColumns: [permissionSubModules.name],
  select: (db: DbOrTx) =>
    db
      .select({ ...getTableColumns(permissionSubModules), moduleName: permissionModules.name })
      .from(permissionSubModules)
      .innerJoin(permissionModules, eq(permissionModules.id, permissionSubModules.moduleId)),
  toRecord: (r) => ({
    _id: String(r.id), name: r.name, moduleId: String(r.moduleId), moduleName: r.moduleName, pages: r.pages, sortOrder: r.sortOrder, status: r.status,
    createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
  }),
  prepareCreate: moduleIdInput,
  prepareUpdate: moduleIdInput,
  uniqueErrors: { permission_sub_modules_name_unique: { field: 'name', message: 'This restriction name already has a sub module' } },
  statusColumn: permissionSubModules.status,
});
