import { z } from 'zod';
import { ACCOUNT_ACCESS, endpoint, readAccess, writeAccess } from '../resources/endpoint.js';

/** A live session of an admin: where and on what it was started, and when it was last used. */
export const sessionItemSchema = z.object({
  _id: z.string(),
  /** The session making this request. */
  current: z.boolean(),
  /** Browser and OS, parsed from the user agent: "Chrome 131 on Windows 10". */
  device: z.string(),
  userAgent: z.string(),
  ip: z.string(),
  /** "Lyon, France", "France", "Private network", "This machine", "Unknown". */
  location: z.string(),
  startedAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
});
export type SessionItem = z.infer<typeof sessionItemSchema>;

const sessionList = z.object({ items: z.array(sessionItemSchema) });
const sessionIdParams = z.object({ sessionId: z.coerce.number({ error: 'Invalid session id' }).int().positive('Invalid session id') });
const adminIdParams = z.object({ id: z.coerce.number({ error: 'Invalid id' }).int().positive('Invalid id') });
const ended = z.object({ ended: z.number().int() });

export const sessionEndpoints = {
  mySessions: endpoint('GET /api/admin/sessions', { access: ACCOUNT_ACCESS, summary: 'My live sessions (device, IP, location, started, last seen)', result: sessionList }),
  endMySession: endpoint('DELETE /api/admin/sessions/:sessionId', { access: ACCOUNT_ACCESS, summary: 'End one of my other sessions', params: sessionIdParams }),
  endMyOtherSessions: endpoint('POST /api/admin/sessions/end-others', { access: ACCOUNT_ACCESS, summary: 'End all my sessions but this one', result: ended }),
  adminSessions: endpoint('GET /api/admin/sub-admins/:id/sessions', { access: readAccess('Sub Admin'), summary: 'A sub-admin\'s live sessions (an admin they may manage)', params: adminIdParams, result: sessionList }),
  endAdminSession: endpoint('DELETE /api/admin/sub-admins/:id/sessions/:sessionId', {
    access: writeAccess('Sub Admin'),
    summary: 'End one session of a sub-admin (an admin they may manage)',
    params: adminIdParams.extend(sessionIdParams.shape),
  }),
};
