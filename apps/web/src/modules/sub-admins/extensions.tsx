import { accessFor } from '@pitboss/contract';
import { IconDevices } from '@tabler/icons-react';
import { lazy } from 'react';
import type { FormFieldProps } from '../../resources/components/FormField';
import { registerFieldType, registerRecordTabs } from '../../resources/extensions';
import { normaliseRights } from './rights';

const PermissionMatrix = lazy(() => import('./PermissionMatrix').then((m) => ({ default: m.PermissionMatrix })));
const SessionsPanel = lazy(() => import('../account/SessionsPanel').then((m) => ({ default: m.SessionsPanel })));

/** A sub-admin's rights: the permission matrix, a row per restriction name. */
function PermissionsInput({ field, value, onChange, disabled, error }: FormFieldProps) {
  return <PermissionMatrix label={field.label} description={field.description} value={value} onChange={onChange} disabled={disabled} error={error} />;
}

registerFieldType('permissions', {
  Input: PermissionsInput,
  empty: () => [],
  fromRecord: normaliseRights,
  // The order of the granted names is the list's, not a change.
  comparable: (value) => normaliseRights(value).sort((a, b) => a.name.localeCompare(b.name)),
  wide: true,
});

registerRecordTabs('sub-admins', [
  {
    value: 'sessions',
    label: 'Sessions',
    icon: <IconDevices size={14} />,
    visible: (admin) => accessFor(admin, 'Sub Admin').canView,
    render: (id, canEdit) => <SessionsPanel adminId={id} canEnd={canEdit} />,
  },
]);
