
import { resourceSpec } from '../resources/spec.js';
import { GEO_CREDIT, LOGIN_ATTEMPT_COLUMNS, LOGIN_RESULT_FILTER, loginAttemptRecord } from './login-history.js';

/** Sub-admins' sign-in attempts (`/sub-Admin-login-History`), for admins with the Sub Admin right. */
export const subAdminLoginsResource = resourceSpec(loginAttemptRecord, {
  name: 'sub-admin-logins',
  label: 'Sign-in attempt',
  plural: 'Sub-admin login history',
  restriction: 'Sub Admin',
  pages: { list: '/sub-Admin-login-History' },
  titleField: 'email',
  readOnly: true,
  keyset: true,
  columns: [{ key: 'createdAt', label: 'Time', type: 'date', sortable: true }, { key: 'email', label: 'Email', type: 'text' }, ...LOGIN_ATTEMPT_COLUMNS],
  filters: [
    LOGIN_RESULT_FILTER,
    { key: 'email', label: 'Email', type: 'equals' },
    { key: 'adminId', label: 'Admin', type: 'equals', reference: { resource: 'sub-admins', labelKey: 'name' } },
    { key: 'ip', label: 'IP', type: 'equals' },
    { key: 'createdAt', label: 'Time', type: 'dateRange' },
  ],
  search: 'email, IP or user agent',
  footnote: GEO_CREDIT,
  defaultSort: '-createdAt',
  deleteMode: 'none',
});
