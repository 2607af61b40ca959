import { accessFor } from '@pitboss/contract';
import { IconEye } from '@tabler/icons-react';
import { lazy } from 'react';
import { registerRecordTabs } from '../../resources/extensions';

const RewardCardPreview = lazy(() => import('./RewardCardPreview').then((m) => ({ default: m.RewardCardPreview })));

registerRecordTabs('reward-card-cms', [
  {
    value: 'preview',
    label: 'Preview',
    icon: <IconEye size={14} />,
    visible: (admin) => accessFor(admin, 'Crypto Reward Card CMS').canView,
    render: (id) => <RewardCardPreview id={id} />,
  },
]);
