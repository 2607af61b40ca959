import { Alert, Button, Group, NumberInput, Paper, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { siteSettingsSchema, type SiteSettings, type SiteSettingsRecord } from '@pitboss/contract';
import { IconEye } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { QueryStatus } from '../../components/QueryStatus';
import { apiRequest } from '../../lib/api';
import { getPath, useSchemaForm } from '../../lib/form';
import { useUnsavedChanges } from '../../lib/useUnsavedChanges';
import { ConfirmModal } from '../../resources/components/ConfirmModal';
import { queryClient } from '../../lib/queryClient';
import { toast } from '../../lib/toast';
import { siteSettingsKeys, siteSettingsQuery } from './queries';
import { usePageAccess } from '../../stores/auth';

const SOCIAL = ['twitter', 'discord', 'telegram', 'instagram', 'facebook'] as const;
const SOCIAL_LABELS: Record<(typeof SOCIAL)[number], string> = {
  twitter: 'X (Twitter)',
  discord: 'Discord',
  telegram: 'Telegram',
  instagram: 'Instagram',
  facebook: 'Facebook',
};

function toValues(r: SiteSettingsRecord): SiteSettings {
  return {
    siteName: r.siteName,
    logoUrl: r.logoUrl,
    faviconUrl: r.faviconUrl,
    contactEmail: r.contactEmail,
    supportEmail: r.supportEmail,
    socialLinks: { ...r.socialLinks },
    maintenanceMode: r.maintenanceMode,
    registrationOpen: r.registrationOpen,
    takerFeeBps: r.takerFeeBps,
    makerFeeBps: r.makerFeeBps,
    withdrawalAutoApproveLimit: r.withdrawalAutoApproveLimit,
    withdrawalsEnabled: r.withdrawalsEnabled,
    footerText: r.footerText,
  };
}

/** Only what changed goes to `updateSiteDetails` (it takes any subset). */
export function changedFields(before: SiteSettings, after: SiteSettings): Partial<SiteSettings> {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof SiteSettings)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) patch[key] = after[key];
  }
  return patch as Partial<SiteSettings>;
}

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={title}>
      <Title order={3} fz="h5">
        {title}
      </Title>
      {description ? (
        <Text size="xs" c="dimmed" mb="sm">
          {description}
        </Text>
      ) : (
        <div style={{ height: 8 }} />
      )}
      {children}
    </Paper>
  );
}

const FEE_FIELDS = ['takerFeeBps', 'makerFeeBps'] as const;

const bpsHint = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? `${(v / 100).toFixed(2)} % of the trade value` : 'Whole basis points, 1 bp = 0.01 %');

function SettingsForm({ record, canEdit }: { record: SiteSettingsRecord; canEdit: boolean }) {
  const initial = toValues(record);
  const form = useSchemaForm(siteSettingsSchema, initial);
  const [saving, setSaving] = useState(false);
  const { reset } = form;
  useEffect(() => reset(toValues(record)), [record, reset]);

  const patch = changedFields(initial, form.values);
  const dirty = Object.keys(patch).length > 0;
  const readOnly = !canEdit;
  const { blocker } = useUnsavedChanges(dirty && canEdit);

  const text = (path: string) => ({ ...form.textProps(path), readOnly });
  const toggle = (path: string) => ({ ...form.checkProps(path), disabled: readOnly });
  const bps = (path: 'takerFeeBps' | 'makerFeeBps') => ({
    name: path,
    value: form.values[path],
    // An emptied field stays empty (not NaN) until it is filled again or the form is submitted.
    onChange: (v: number | string) => form.setValue(path, typeof v === 'number' ? v : v === '' ? '' : Number(v)),
    error: form.errors[path],
    readOnly,
    min: 0,
    max: 1000,
    step: 1,
    allowDecimal: false,
    allowNegative: false,
    suffix: ' bp',
    description: bpsHint(getPath(form.values, path)),
  });

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canEdit) return;
    const blank = FEE_FIELDS.filter((k) => typeof form.values[k] !== 'number' || !Number.isFinite(form.values[k]));
    if (blank.length > 0) {
      form.setErrors(Object.fromEntries(blank.map((k) => [k, 'Enter a whole number of basis points'])));
      return;
    }
    if (!(await form.validate())) return;
    setSaving(true);
    const res = await apiRequest<SiteSettingsRecord>('POST', '/api/admin/updateSiteDetails', { body: changedFields(initial, form.values) });
    setSaving(false);
    if (!res.success || !res.result) {
      if (res.errors) form.setErrors(res.errors);
      toast.error(res.message);
      return;
    }
    queryClient.setQueryData(siteSettingsKeys.full, res.result);
    void queryClient.invalidateQueries({ queryKey: siteSettingsKeys.siteName });
    toast.success(res.message || 'Site settings updated');
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Site settings">
      <Stack gap="md">
        {readOnly ? (
          <Alert variant="light" color="gray" icon={<IconEye size={18} />} title="View only">
            You can see these settings; changing them needs the edit right on Site Setting.
          </Alert>
        ) : null}
        <Section title="General" description="Name and look of the platform.">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Site name" required {...text('siteName')} />
            <TextInput label="Logo URL" placeholder="https://… or /path" {...text('logoUrl')} />
            <TextInput label="Favicon URL" placeholder="https://… or /path" {...text('faviconUrl')} />
          </SimpleGrid>
          <Textarea label="Footer text" mt="sm" autosize minRows={2} maxRows={5} {...text('footerText')} />
        </Section>
        <Section title="Contact" description="Addresses shown to users.">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Contact email" type="email" {...text('contactEmail')} />
            <TextInput label="Support email" type="email" {...text('supportEmail')} />
          </SimpleGrid>
        </Section>
        <Section title="Social links" description="Full URLs; leave empty to hide a network.">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {SOCIAL.map((key) => (
              <TextInput key={key} label={SOCIAL_LABELS[key]} placeholder="https://…" {...text(`socialLinks.${key}`)} />
            ))}
          </SimpleGrid>
        </Section>
        <Section title="Platform" description="Switches that change what users can do.">
          <Stack gap="sm">
            <Switch label="Maintenance mode" description="Users see a maintenance notice; admins keep working." {...toggle('maintenanceMode')} />
            <Switch label="Registration open" description="New users can sign up." {...toggle('registrationOpen')} />
            <Switch label="Withdrawals enabled" description="Users can request withdrawals." {...toggle('withdrawalsEnabled')} />
          </Stack>
        </Section>
        <Section title="Fees and limits" description="Fees in basis points (1 bp = 0.01 %); amounts in whole minor units.">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <NumberInput label="Taker fee" {...bps('takerFeeBps')} />
            <NumberInput label="Maker fee" {...bps('makerFeeBps')} />
            <TextInput
              label="Withdrawal auto-approve limit"
              description={siteSettingsSchema.shape.withdrawalAutoApproveLimit.description}
              inputMode="numeric"
              {...text('withdrawalAutoApproveLimit')}
            />
          </SimpleGrid>
        </Section>
        {canEdit ? (
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              Last saved {dayjs(record.updatedAt).format('D MMM YYYY, HH:mm')}
            </Text>
            <Group gap="xs">
              <Button variant="default" disabled={!dirty || saving} onClick={() => reset(toValues(record))}>
                Discard changes
              </Button>
              <Button type="submit" loading={saving} disabled={!dirty}>
                Save settings
              </Button>
            </Group>
          </Group>
        ) : (
          <Text size="xs" c="dimmed">
            Last saved {dayjs(record.updatedAt).format('D MMM YYYY, HH:mm')}
          </Text>
        )}
      </Stack>
      <ConfirmModal
        opened={blocker.state === 'blocked'}
        title="Leave without saving?"
        confirmLabel="Leave"
        onCancel={() => blocker.reset?.()}
        onConfirm={() => blocker.proceed?.()}
      >
        Your changes to the site settings have not been saved.
      </ConfirmModal>
    </form>
  );
}

export default function SiteSettingsPage() {
  const { canEdit } = usePageAccess();
  const query = useQuery(siteSettingsQuery());
  return (
    <>
      <PageHeader title="Site settings" description="One record for the whole platform." />
      <QueryStatus query={query} loadingLabel="Loading the site settings">
        {query.data ? <SettingsForm record={query.data} canEdit={canEdit} /> : null}
      </QueryStatus>
    </>
  );
}
