import { accessFor, type AdminDetail } from '@pitboss/contract';
import { IconDevices, IconEye } from '@tabler/icons-react';
import { lazy, type ReactNode } from 'react';

const RewardCardPreview = lazy(() => import('../modules/reward-card-cms/RewardCardPreview').then((m) => ({ default: m.RewardCardPreview })));
const SessionsPanel = lazy(() => import('../modules/account/SessionsPanel').then((m) => ({ default: m.SessionsPanel })));
const TemplatePreview = lazy(() => import('../modules/content/TemplatePreview').then((m) => ({ default: m.TemplatePreview })));
const CmsPreview = lazy(() => import('../modules/content/CmsPreview').then((m) => ({ default: m.CmsPreview })));

/** What a tab sees of the record page: the form's current values (unsaved edits included) and the record as loaded. */
export interface RecordTabContext {
  values: Record<string, unknown>;
  record: Record<string, unknown> | undefined;
}

/** A tab a resource's record page adds beside its details, children and history: a view no declaration covers. */
export interface RecordTab {
  value: string;
  label: string;
  icon: ReactNode;
  visible(admin: AdminDetail): boolean;
  render(id: string, canEdit: boolean, page: RecordTabContext): ReactNode;
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
  'email-templates': [
    {
      value: 'preview',
      label: 'Preview',
      icon: <IconEye size={14} />,
      // The mail as users receive it (the form being edited, or the saved template for a view-only admin); the API takes it as a read.
      visible: (admin) => accessFor(admin, 'Email Templates').canView,
      render: (id, _canEdit, page) => <TemplatePreview id={id} values={page.values} record={page.record} />,
    },
  ],
  'cms-pages': [
    {
      value: 'preview',
      label: 'Preview',
      icon: <IconEye size={14} />,
      visible: (admin) => accessFor(admin, 'CMS Pages').canView,
      render: (_id, _canEdit, page) => <CmsPreview values={page.values} />,
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
