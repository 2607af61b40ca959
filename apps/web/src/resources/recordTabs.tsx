import { accessFor, type AdminDetail } from '@pitboss/contract';
import { IconDevices, IconEye } from '@tabler/icons-react';
import { lazy, type ReactNode } from 'react';

const RewardCardPreview = lazy(() => import('../modules/reward-card-cms/RewardCardPreview').then((m) => ({ default: m.RewardCardPreview })));
const SessionsPanel = lazy(() => import('../modules/account/SessionsPanel').then((m) => ({ default: m.SessionsPanel })));

/** A tab a resource's record page adds beside its details, children and history: a view no declaration covers. */
export interface RecordTab {
  value: string;
  label: string;
  icon: ReactNode;
  visible(admin: AdminDetail): boolean;
  render(id: string, canEdit: boolean): ReactNode;
}

/** By resource name. */
export const RECORD_TABS: Readonly<Record<string, readonly RecordTab[]>> = {
  'sub-admins': [
    {
      value: 'sessions',
      label: 'Sessions',
      icon: <IconDevices size={14} />,
      visible: (admin) => accessFor(admin, 'Sub Admin').canView,
      render: (id, canEdit) => <SessionsPanel adminId={id} canEnd={canEdit} />,
    },
  ],
  'reward-card-cms': [
    {
      value: 'preview',
      label: 'Preview',
      icon: <IconEye size={14} />,
      visible: (admin) => accessFor(admin, 'Crypto Reward Card CMS').canView,
      render: (id) => <RewardCardPreview id={id} />,
    },
  ],
};
