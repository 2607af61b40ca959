import { z } from 'zod';
import { recordFields, resourceSpec } from '../resources/spec.js';

/** A sign-in attempt (own history and sub-admins' history alike). */
export const loginAttemptRecord = z.object({
  _id: recordFields.id, adminId: recordFields.id.nullable(), email: z.string(), success: z.boolean(), reason: z.string().nullable(),
  ip: z.string(), location: z.string(), countryCode: z.string().nullable(), device: z.string(), userAgent: z.string(), createdAt: recordFields.at,
}).strict();
export type LoginAttemptRecord = z.infer<typeof loginAttemptRecord>;

/** DB-IP's licence (CC BY 4.0) asks for a link wherever its locations show. */
export const GEO_CREDIT = { text: 'Locations are looked up at sign-in in an offline database:', link: { label: 'IP Geolocation by DB-IP', href: 'https://db-ip.com' } };

/** What a sign-in attempt shows in a list, after its time (and, in the sub-admins' history, its email). */
export const LOGIN_ATTEMPT_COLUMNS = [
  { key: 'success', label: 'Result', type: 'bool', falseIsAlert: true },
  { key: 'reason', label: 'Reason', type: 'text' },
  { key: 'ip', label: 'IP', type: 'code' },
  { key: 'location', label: 'Location', type: 'text' },
  { key: 'device', label: 'Device', type: 'text', hint: 'userAgent' },
  { key: 'userAgent', label: 'User agent', type: 'longtext', hidden: true },
] as const;

/** The filter on an attempt's result. */
export const LOGIN_RESULT_FILTER = { key: 'success', label: 'Result', type: 'oneOf', options: [{ value: 'true', label: 'Success' }, { value: 'false', label: 'Failure' }] } as const;

/** The signed-in admin's own sign-in attempts (`/loginHistory`): every admin, own rows only. */
export const ownLoginHistoryResource = resourceSpec(loginAttemptRecord, {
  name: 'loginHistory',
  label: 'Sign-in attempt',
  plural: 'Login history',
  restriction: null,
  pages: { list: '/loginHistory' },
  titleField: 'createdAt',
  readOnly: true,
  keyset: true,
  columns: [{ key: 'createdAt', label: 'Time', type: 'date', sortable: true }, ...LOGIN_ATTEMPT_COLUMNS],
  filters: [LOGIN_RESULT_FILTER, { key: 'createdAt', label: 'Time', type: 'dateRange' }],
  footnote: GEO_CREDIT,
  defaultSort: '-createdAt',
  deleteMode: 'none',
});
