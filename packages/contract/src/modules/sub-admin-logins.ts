
import { resourceSpec, } from '../resources/spec.js';
import { GEO_CREDIT, loginAttemptRecord } from './login-history.js';

const subAdminLoginRecord = loginAttemptRecord;

export const subAdminLoginsResource = resourceSpec(subAdminLoginRecord, {
  name: 'sub-admin-logins',
  label: 'Sign-in attempt',
  plural: 'Sub-admin login history',
  restriction: 'Sub Admin',
  pages: { list: '/sub-Admin-login-History' },
  titleField: 'email',
  readOnly: true,
  keyset: true,
  columns: [
    { key: 'createdAt', label: 'Time', type: 'date', sortable: true },
    { key: 'email', label: 'Email', type: 'text' },
    { key: 'success', label: 'Result', type: 'bool', falseIsAlert: true },
    { key: 'reason', label: 'Reason', type: 'text' },
    { key: 'ip', label: 'IP', type: 'code' },
    { key: 'location', label: 'Location', type: 'text' },
    { key: 'device', label: 'Device', type: 'text', hint: 'userAgent' },
    { key: 'userAgent', label: 'User agent', type: 'longtext', hidden: true },
  ],
  filters: [
    { key: 'success', label: 'Result', type: 'oneOf', options: [{ value: 'true', label: 'Success' }, { value: 'false', label: 'Failure' }] },
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
