import type { Config } from '../../config.js';
import type { AdminActor } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { badRequest, notFound } from '../../http/errors.js';
import { writeAudit } from '../../lib/audit.js';
import { assertCanManage, loadSubAdmin } from '../sub-admins/service.js';
import { type AdminRow, listLiveSessions, revokeAdminSession, revokeAdminSessions } from './sessions.js';

/** Where an admin's own changes are filed in the audit log, so their record's History shows them. */
const adminResource = (a: AdminRow) => (a.role === 'superadmin' ? 'admins' : 'sub-admins');

/** The acting admin's live sessions, the one making the request marked `current`. */
export function listMySessions(tx: DbOrTx, config: Config, actor: AdminActor, currentSessionId: number) {
  return listLiveSessions(tx, config, actor.admin.id, currentSessionId);
}

/** Ends one of the acting admin's other sessions (this one ends with Sign out). */
export async function endMySession(tx: DbOrTx, actor: AdminActor, sessionId: number, currentSessionId: number): Promise<void> {
  if (sessionId === currentSessionId) throw badRequest('This is the session you are using: sign out to end it');
  if (!(await revokeAdminSession(tx, actor.admin.id, sessionId, 'ended by owner'))) throw notFound('Session');
  await writeAudit(tx, actor, { action: 'end_session', resource: adminResource(actor.admin), recordId: actor.admin.id, after: { session: sessionId } });
}

/** Ends every session of the acting admin but the current one; how many ended. */
export async function endMyOtherSessions(tx: DbOrTx, actor: AdminActor, currentSessionId: number): Promise<number> {
  const n = await revokeAdminSessions(tx, actor.admin.id, 'ended by owner', currentSessionId);
  if (n > 0) await writeAudit(tx, actor, { action: 'end_other_sessions', resource: adminResource(actor.admin), recordId: actor.admin.id, after: { ended: n } });
  return n;
}

/** A sub-admin's live sessions, for an admin who may manage them (the super admin, or one above them). */
export async function listSubAdminSessions(tx: DbOrTx, config: Config, actor: AdminActor, adminId: number) {
  const target = await loadSubAdmin(tx, adminId);
  await assertCanManage(tx, actor.admin, target);
  return listLiveSessions(tx, config, target.id, null);
}

/** Ends one session of a sub-admin the actor may manage; audited on the sub-admin's record. */
export async function endSubAdminSession(tx: DbOrTx, actor: AdminActor, adminId: number, sessionId: number): Promise<void> {
  const target = await loadSubAdmin(tx, adminId);
  await assertCanManage(tx, actor.admin, target);
  if (!(await revokeAdminSession(tx, target.id, sessionId, 'ended by admin'))) throw notFound('Session');
  await writeAudit(tx, actor, { action: 'end_session', resource: 'sub-admins', recordId: target.id, after: { session: sessionId } });
}
