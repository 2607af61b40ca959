import { subAdminLoginsResource, } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import { loginHistory, } from '../../db/schema.js';
import { defineResource, } from '../../resources/define.js';
import { toLoginHistoryItem } from '../auth/sessions.js';

export const subAdminLoginsDef = defineResource({
  spec: subAdminLoginsResource,
  table: loginHistory,
  idColumn: loginHistory.id,
  baseWhere: sql`${loginHistory.adminId} in (select id from admins where role = 'subadmin')`,
  columns: { createdAt: loginHistory.createdAt, email: loginHistory.email, adminId: loginHistory.adminId, ip: loginHistory.ip, success: loginHistory.success },
  caseInsensitive: ['email'],
  searchColumns: [loginHistory.email, loginHistory.ip, loginHistory.userAgent],
  toRecord: (r) => toLoginHistoryItem(r as typeof loginHistory.$inferSelect),
});
