import { accessFor } from '@pitboss/contract';
import { IconEye } from '@tabler/icons-react';
import { lazy } from 'react';
import { registerRecordTabs } from '../../resources/extensions';

const TemplatePreview = lazy(() => import('./TemplatePreview').then((m) => ({ default: m.TemplatePreview })));
const CmsPreview = lazy(() => import('./CmsPreview').then((m) => ({ default: m.CmsPreview })));

registerRecordTabs('email-templates', [
  {
    value: 'preview',
    label: 'Preview',
    icon: <IconEye size={14} />,
    // The mail as users receive it (the form being edited, or the saved template for a view-only admin); the API takes it as a read.
    visible: (admin) => accessFor(admin, 'Email Templates').canView,
    render: (id, _canEdit, page) => <TemplatePreview id={id} values={page.values} record={page.record} />,
  },
]);

registerRecordTabs('cms-pages', [
  {
    value: 'preview',
    label: 'Preview',
    icon: <IconEye size={14} />,
    visible: (admin) => accessFor(admin, 'CMS Pages').canView,
    render: (_id, _canEdit, page) => <CmsPreview values={page.values} />,
  },
]);
