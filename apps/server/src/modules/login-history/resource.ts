import { ownLoginHistoryResource } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import { defineResource } from '../../resources/define.js';
import { toLoginHistoryItem } from '../auth/sessions.js';
import { loginHistory } from '../auth/table.js';

/** Own login history: every admin, own attempts only (the declaration's scope). */
export const ownLoginHistoryDef = defineResource({
  spec: ownLoginHistoryResource,
  table: loginHistory,
  idColumn: loginHistory.id,
  scope: (actor) => eq(loginHistory.adminId, actor.admin.id),
  columns: { createdAt: loginHistory.createdAt, success: loginHistory.success },
  toRecord: (r) => toLoginHistoryItem(r as typeof loginHistory.$inferSelect),
});
