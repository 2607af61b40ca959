import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { resourceBase, singleEndpoints, singleFields, type SingleSpec } from '@pitboss/contract';
import { IconEye } from '@tabler/icons-react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { DateTime } from '../../components/DateTime';
import { PageHeader } from '../../components/PageHeader';
import { QueryStatus } from '../../components/QueryStatus';
import { api, apiRequest } from '../../lib/api';
import { getPath, setPath, useSchemaForm } from '../../lib/form';
import { queryClient } from '../../lib/queryClient';
import { toast } from '../../lib/toast';
import { useUnsavedChanges } from '../../lib/useUnsavedChanges';
import { usePageAccess } from '../../stores/auth';
import type { ResourceRecord } from '../api';
import { LeavePrompt } from './ConfirmModal';
import { FormField } from './FormField';
import { UploadTarget } from '../formTargets';
import { clearedValue } from '../formValues';

/** Everything about one single-record resource sits under this key (the header's site name too). */
export const singleKeys = { all: (name: string) => ['singles', name] as const, full: (name: string) => ['singles', name, 'full'] as const };

export const singleQuery = (spec: SingleSpec) =>
  queryOptions({ queryKey: singleKeys.full(spec.name), queryFn: ({ signal }) => api.get<ResourceRecord>(singleEndpoints(spec).read, undefined, signal) });

type Values = Record<string, unknown>;

/** The form's values: each declared field (nested keys such as `socialLinks.twitter` included) from the record. */
function valuesOf(spec: SingleSpec, record: ResourceRecord): Values {
  let values: Values = {};
  for (const f of singleFields(spec)) values = setPath(values, f.key, getPath(record, f.key));
  return values;
}

/** Only what changed is sent (the update takes any subset); nested objects send only their changed keys. */
export function changedPatch(spec: SingleSpec, before: Values, after: Values): Values {
  let patch: Values = {};
  for (const f of singleFields(spec)) {
    const a = getPath(after, f.key);
    if (JSON.stringify(getPath(before, f.key)) !== JSON.stringify(a)) patch = setPath(patch, f.key, a);
  }
  return patch;
}

function SingleForm({ spec, record, canEdit }: { spec: SingleSpec; record: ResourceRecord; canEdit: boolean }) {
  const initial = valuesOf(spec, record);
  const form = useSchemaForm(spec.update, initial);
  const [saving, setSaving] = useState(false);
  const { reset } = form;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new record (after a save or a refetch) resets the form.
  useEffect(() => reset(valuesOf(spec, record)), [record, reset]);

  const patch = changedPatch(spec, initial, form.values);
  const dirty = Object.keys(patch).length > 0;
  const { blocker } = useUnsavedChanges(dirty && canEdit);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canEdit) return;
    // An emptied number field stays empty until filled: say so on the field instead of a type error.
    const blank = singleFields(spec).filter((f) => f.type === 'number' && typeof getPath(form.values, f.key) !== 'number');
    if (blank.length > 0) {
      form.setErrors(Object.fromEntries(blank.map((f) => [f.key, 'Enter a whole number'])));
      return;
    }
    if (!(await form.validate())) return;
    setSaving(true);
    const { update } = singleEndpoints(spec);
    const res = await apiRequest<ResourceRecord>(update.method, update.path, { body: patch });
    setSaving(false);
    if (!res.success || !res.result) {
      // Said once: on the fields it concerns, else as a toast.
      const onFields = Object.keys(res.errors ?? {}).filter((k) => singleFields(spec).some((f) => k === f.key || k.startsWith(`${f.key}.`)));
      if (res.errors) form.setErrors(res.errors);
      if (onFields.length === 0) toast.error(res.message);
      return;
    }
    queryClient.setQueryData(singleKeys.full(spec.name), res.result);
    void queryClient.invalidateQueries({ queryKey: singleKeys.all(spec.name), predicate: (q) => q.queryKey[2] !== 'full' });
    toast.success(res.message || `${spec.label} updated`);
  }

  const saved = typeof record.updatedAt === 'string' ? <>Last saved <DateTime value={record.updatedAt} size="xs" /></> : null;
  return (
    <UploadTarget.Provider value={resourceBase(spec.name)}>
    <form onSubmit={onSubmit} noValidate aria-label={spec.label}>
      <Stack gap="md">
        {canEdit ? null : (
          <Alert variant="light" color="gray" icon={<IconEye size={18} />} title="View only">
            You can see these settings; changing them needs the edit right on {spec.restriction}.
          </Alert>
        )}
        {spec.sections.map((section) => (
          <Paper key={section.title} withBorder p="md" radius="md" component="section" aria-label={section.title}>
            <Title order={3} fz="h5">
              {section.title}
            </Title>
            {section.description ? (
              <Text size="xs" c="dimmed" mb="sm">
                {section.description}
              </Text>
            ) : null}
            <SimpleGrid cols={{ base: 1, sm: section.columns ?? 2 }} spacing="sm">
              {section.fields.map((field) => (
                <FormField
                  key={field.key}
                  field={field}
                  value={getPath(form.values, field.key)}
                  onChange={(v) => form.setValue(field.key, clearedValue(field, v))}
                  error={form.errors[field.key]}
                  disabled={!canEdit}
                />
              ))}
            </SimpleGrid>
          </Paper>
        ))}
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {saved}
          </Text>
          {canEdit ? (
            <Group gap="xs">
              <Button variant="default" disabled={!dirty || saving} onClick={() => reset(valuesOf(spec, record))}>
                Discard changes
              </Button>
              <Button type="submit" loading={saving} disabled={!dirty}>
                Save settings
              </Button>
            </Group>
          ) : null}
        </Group>
      </Stack>
      <LeavePrompt blocker={blocker} title="Leave without saving?">
        Your changes to the {spec.label.toLowerCase()} have not been saved.
      </LeavePrompt>
    </form>
    </UploadTarget.Provider>
  );
}

/** The page of a single-record declaration (`/site-setting`): sections of fields, view-only without the edit right. */
export function SingleRecordPage({ spec }: { spec: SingleSpec }) {
  const { canEdit } = usePageAccess();
  const query = useQuery(singleQuery(spec));
  return (
    <>
      <PageHeader title={spec.label} description={spec.description} />
      <QueryStatus query={query} loadingLabel={`Loading the ${spec.label.toLowerCase()}`}>
        {query.data ? <SingleForm spec={spec} record={query.data} canEdit={canEdit} /> : null}
      </QueryStatus>
    </>
  );
}
