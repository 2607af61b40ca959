import { accessFor, childListSpec, choicesPath, fieldApplies, RESOURCES, resourceBase, stateOf, type FormFieldSpec, type ResourceSpec } from '@pitboss/contract';
import { Alert, Anchor, Badge, Box, Button, Group, Paper, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconArchive, IconArrowLeft, IconDeviceFloppy, IconEye, IconHistory, IconList, IconPencil, IconRestore, IconTrash } from '@tabler/icons-react';
import { Suspense, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { useAdmin } from '../../stores/auth';
import { fieldError, otherErrors } from '../formValues';
import { useResourceForm, type ResourceFormController } from '../hooks/useResourceForm';
import { ConfirmModal, LeavePrompt } from './ConfirmModal';
import { FormField } from './FormField';
import { RecordActions } from './RecordActions';
import { RecordDetails } from './RecordDrawer';
import { ResourceListPage } from './ResourceListPage';
import { RecordHistory } from './RecordHistory';
import { midSentence } from '../text';
import { fieldTypeOf, recordTabsOf } from '../extensions';
import { isNotFound } from '../../lib/api';
import { ChoicesTarget, UploadTarget } from '../formTargets';
import { MoneyUnitsTarget } from '../money';

/** Why a field declared `editableIn` some states cannot change in the record's current one, or null. */
function lockedNote(form: ResourceFormController, field: FormFieldSpec): string | null {
  if (form.mode !== 'update' || !field.editableIn || !form.record || !form.spec.states) return null;
  const status = String(form.record.status);
  if (field.editableIn.includes(status)) return null;
  const state = stateOf(form.spec, status);
  return `Fixed: the ${midSentence(form.spec.states.noun)} is ${state.label.toLowerCase()}`;
}

function FormBody({ form }: { form: ResourceFormController }) {
  const general = otherErrors(form.errors, form.fields);
  const disabled = !form.canEdit || form.saving;
  return (
    <UploadTarget.Provider value={resourceBase(form.spec.name)}>
    <ChoicesTarget.Provider value={(key) => choicesPath(form.spec.name, { kind: 'form', key })}>
    <MoneyUnitsTarget.Provider value={form.units}>
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void form.save();
      }}
    >
      <Stack gap="md">
        {(form.formMessage || general.length > 0) && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={16} />} p="sm">
            {[form.formMessage, ...general].filter(Boolean).map((m) => (
              <Text size="sm" key={m}>
                {m}
              </Text>
            ))}
          </Alert>
        )}
        {form.fields.filter((field) => fieldApplies(field, form.values)).map((field) => {
          const locked = lockedNote(form, field);
          return (
            <Box key={field.key} maw={fieldTypeOf(field.type)?.wide ? undefined : 640} data-locked={locked ? 'true' : undefined}>
              <FormField
                field={locked ? { ...field, description: locked } : field}
                value={form.values[field.key]}
                onChange={(v) => form.setValue(field.key, v)}
                error={fieldError(form.errors, field.key)}
                disabled={disabled || locked !== null}
                record={form.record}
              />
            </Box>
          );
        })}
        {form.canEdit && (
          <Group justify="flex-end" gap="xs" pt="xs">
            {form.dirty && (
              <Text size="xs" c="dimmed" mr="auto">
                Unsaved changes
              </Text>
            )}
            <Button variant="default" component={Link} to={form.backTo}>
              Cancel
            </Button>
            <Button
              type="submit" loading={form.saving} leftSection={<IconDeviceFloppy size={16} />} disabled={form.mode === 'update' && !form.dirty}
              color={form.mode === 'add' && form.spec.adding?.danger ? 'red' : undefined}
            >
              {form.mode === 'add' ? (form.spec.adding?.submit ?? `Create ${midSentence(form.spec.label)}`) : 'Save changes'}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
    </MoneyUnitsTarget.Provider>
    </ChoicesTarget.Provider>
    </UploadTarget.Provider>
  );
}

/** The add/update page of any declared resource: a thin view over `useResourceForm`. */
export function ResourceFormPage({ spec, id }: { spec: ResourceSpec; id?: string }) {
  const form = useResourceForm(spec, id);
  const admin = useAdmin();
  const location = useLocation();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const isArchive = spec.deleteMode === 'archive';
  const historyAllowed = form.mode === 'update' && admin !== null && accessFor(admin, 'Audit Log').canView;
  const state = spec.states && form.record ? stateOf(spec, form.record.status) : null;
  // Child lists the admin may view, each a tab with its own list scoped to this record.
  const children =
    form.mode === 'update' && admin
      ? (spec.children ?? []).flatMap((c) => {
          const child = RESOURCES[c.resource];
          return child?.restriction && accessFor(admin, child.restriction).canView ? [{ ...c, spec: child }] : [];
        })
      : [];

  const extraTabs = form.mode === 'update' && admin ? recordTabsOf(spec.name).filter((t) => t.visible(admin)) : [];

  // `?tab=child:markets` opens that tab (a record added from it comes back there).
  const requestedTab = new URLSearchParams(location.search).get('tab') ?? '';
  const tabs = ['details', ...children.map((c) => `child:${c.resource}`), ...extraTabs.map((t) => t.value), ...(historyAllowed ? ['history'] : [])];

  let body: ReactNode;
  if (form.isLoading) {
    body = (
      <Stack gap="md" maw={640}>
        {Array.from({ length: Math.max(2, form.fields.length) }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders in a fixed order
          <Skeleton key={i} h={52} radius="sm" />
        ))}
      </Stack>
    );
  } else if (form.loadError && isNotFound(form.loadError)) {
    // Nothing to retry: the record is gone (deleted, or a wrong link).
    body = (
      <Alert color="gray" variant="light" icon={<IconAlertTriangle size={18} />} title={`This ${midSentence(spec.label)} does not exist`}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">It may have been deleted, or the link is wrong.</Text>
          <Anchor component={Link} to={spec.pages.list} size="sm">
            Back to {midSentence(spec.plural)}
          </Anchor>
        </Stack>
      </Alert>
    );
  } else if (form.loadError) {
    body = (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={`Could not load this ${midSentence(spec.label)}`}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{form.loadError.message}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void form.reload()}>
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  } else if (form.fields.length === 0 && form.record) {
    // A resource edited only through its actions (users, payments): its page shows the record.
    body = <RecordDetails spec={spec} record={form.record} />;
  } else {
    body = <FormBody form={form} />;
  }
  // Figures the declaration shows above the form (a trade bot's last run and P&L), in its order.
  const figures = spec.figures?.length && form.record && !form.isLoading && !form.loadError
    ? spec.figures.flatMap((key) => spec.columns.filter((c) => c.key === key))
    : [];
  if (figures.length && form.record && form.fields.length > 0) {
    body = (
      <Stack gap="lg">
        <RecordDetails spec={{ ...spec, columns: figures }} record={form.record} />
        {body}
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Anchor component={Link} to={spec.pages.list} size="sm">
            <Group gap={4}>
              <IconArrowLeft size={14} />
              {spec.plural}
            </Group>
          </Anchor>
          <Group gap="xs">
            <Title order={1} fz="h2" lh="var(--mantine-h2-line-height)">
              {form.title}
            </Title>
            {state && (
              <Badge variant="light" color={state.color} size="lg" data-testid="record-state">
                {state.label}
              </Badge>
            )}
          </Group>
        </Stack>
        <Group gap="xs">
          {form.mode === 'update' && form.record && !form.isLoading && !form.loadError && <RecordActions spec={spec} record={form.record} />}
          {form.canRestore && (
            <Button variant="light" leftSection={<IconRestore size={16} />} onClick={() => void form.restore()}>
              Restore
            </Button>
          )}
          {form.canDelete && !form.isLoading && !form.loadError && (
            <Button color="red" variant="light" leftSection={isArchive ? <IconArchive size={16} /> : <IconTrash size={16} />} onClick={() => setConfirmDelete(true)}>
              {isArchive ? 'Archive' : 'Delete'}
            </Button>
          )}
        </Group>
      </Group>

      {form.archived && (
        <Alert variant="light" color="yellow" icon={<IconArchive size={16} />} p="sm">
          <Text size="sm">This {midSentence(spec.label)} is archived: it is hidden from lists until restored.</Text>
        </Alert>
      )}

      {/* Said only where it is true: a resource changed only through its actions (a user, a withdrawal)
          shows no form, and an admin with the edit right has those actions. */}
      {!form.canEdit && (!form.hasEditRight || form.fields.length > 0) && (
        <Alert variant="light" color="gray" icon={<IconEye size={16} />} p="sm" data-testid="read-only-notice">
          <Text size="sm">You can view this {midSentence(spec.label)} but not change it.</Text>
        </Alert>
      )}

      <Paper withBorder radius="md" p="lg">
        {(historyAllowed || children.length > 0 || extraTabs.length > 0) && id ? (
          <Tabs defaultValue={tabs.includes(requestedTab) ? requestedTab : 'details'} keepMounted={false}>
            <Tabs.List mb="md">
              <Tabs.Tab value="details" leftSection={<IconPencil size={14} />}>
                Details
              </Tabs.Tab>
              {children.map((c) => (
                <Tabs.Tab key={c.resource} value={`child:${c.resource}`} leftSection={<IconList size={14} />}>
                  {c.label}
                </Tabs.Tab>
              ))}
              {extraTabs.map((t) => (
                <Tabs.Tab key={t.value} value={t.value} leftSection={t.icon}>
                  {t.label}
                </Tabs.Tab>
              ))}
              {historyAllowed && (
                <Tabs.Tab value="history" leftSection={<IconHistory size={14} />}>
                  History
                </Tabs.Tab>
              )}
            </Tabs.List>
            <Tabs.Panel value="details">{body}</Tabs.Panel>
            {children.map((c) => (
              <Tabs.Panel key={c.resource} value={`child:${c.resource}`}>
                {/* The filter takes the parent's id, or the field it names (a trade bot's user) once the record is loaded. */}
                {c.parentKey && form.record?.[c.parentKey] === undefined ? null : (
                  <ResourceListPage
                    spec={childListSpec(c.spec, c)}
                    fixed={{ [c.filter]: c.parentKey ? String(form.record?.[c.parentKey]) : id }}
                    embedded
                    parentPath={`${location.pathname}?tab=child:${c.resource}`}
                  />
                )}
              </Tabs.Panel>
            ))}
            {extraTabs.map((t) => (
              <Tabs.Panel key={t.value} value={t.value}>
                <Suspense fallback={null}>{t.render(id, form.canEdit, { values: form.values, record: form.record })}</Suspense>
              </Tabs.Panel>
            ))}
            {historyAllowed && (
              <Tabs.Panel value="history">
                <RecordHistory spec={spec} id={id} />
              </Tabs.Panel>
            )}
          </Tabs>
        ) : (
          body
        )}
      </Paper>

      <ConfirmModal
        opened={confirmDelete}
        title={`${isArchive ? 'Archive' : 'Delete'} this ${midSentence(spec.label)}?`}
        confirmLabel={isArchive ? 'Archive' : 'Delete'}
        loading={form.deleting}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          void form.remove().then((done) => !done && setConfirmDelete(false));
        }}
      >
        {isArchive
          ? `“${form.title}” will be hidden from lists; it can be restored later.`
          : `“${form.title}” will be deleted. This cannot be undone.`}
      </ConfirmModal>

      <ConfirmModal
        opened={form.confirmation !== null}
        title="Please confirm"
        confirmLabel="Yes, save anyway"
        loading={form.saving}
        onCancel={form.cancelConfirmation}
        onConfirm={() => void form.confirmSave()}
      >
        {form.confirmation?.message}
      </ConfirmModal>

      <LeavePrompt blocker={form.blocker} title="Leave without saving?">
        Your changes to this {midSentence(spec.label)} have not been saved.
      </LeavePrompt>
    </Stack>
  );
}
