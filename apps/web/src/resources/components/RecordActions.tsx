import { accessFor, availableActions, type ActionSpec, type ResourceSpec } from '@pitboss/contract';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { issuesToErrors } from '../../lib/form';
import { toast } from '../../lib/toast';
import { useAdmin } from '../../stores/auth';
import { postAction, resourceKeys, resourcePath, type ResourceRecord } from '../api';
import { FormField } from './FormField';

interface Props {
  spec: ResourceSpec;
  record: ResourceRecord;
  size?: 'xs' | 'sm';
  /** After an action succeeded (the record's queries are refreshed already). */
  onDone?: (record: ResourceRecord | undefined) => void;
}

const initialValues = (action: ActionSpec): Record<string, unknown> => Object.fromEntries((action.fields ?? []).map((f) => [f.key, f.type === 'switch' ? false : '']));

/**
 * The declared actions of one record, as buttons: only those its state allows and the admin's
 * rights permit (the server checks both again). Each opens its form or confirmation.
 */
export function RecordActions({ spec, record, size = 'sm', onDone }: Props) {
  // The resource's own access, not the page's: on a user's page the withdrawals tab needs Withdraw rights.
  const admin = useAdmin();
  const access = admin && spec.restriction ? accessFor(admin, spec.restriction) : { canView: false, canEdit: false };
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<ActionSpec | null>(null);
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const actions = availableActions(spec, record, access);
  if (actions.length === 0) return null;

  const start = (action: ActionSpec) => {
    setValues(initialValues(action));
    setErrors({});
    setOpen(action);
  };
  const close = () => {
    if (!busy) setOpen(null);
  };

  const submit = async () => {
    if (!open) return;
    let body: Record<string, unknown> = {};
    if (open.input) {
      const parsed = open.input.safeParse(values);
      if (!parsed.success) {
        setErrors(issuesToErrors(parsed.error.issues));
        return;
      }
      body = values;
    }
    setBusy(true);
    try {
      const res = await postAction(resourcePath(spec.name, `/${encodeURIComponent(record._id)}/${open.name}`), body);
      if (!res.success) {
        if (res.errors) setErrors(res.errors);
        toast.error(res.message);
        // A state that changed meanwhile: show the record as it is now.
        if (res.code === 'INVALID_STATE') await queryClient.invalidateQueries({ queryKey: resourceKeys.all(spec.name) });
        return;
      }
      toast.success(res.message);
      setOpen(null);
      await queryClient.invalidateQueries({ queryKey: resourceKeys.all(spec.name) });
      onDone?.(res.result as ResourceRecord | undefined);
    } finally {
      setBusy(false);
    }
  };

  const title = String(record[spec.titleField] ?? spec.label);
  const general = Object.entries(errors).filter(([k]) => !(open?.fields ?? []).some((f) => f.key === k));

  return (
    <>
      <Group gap="xs" wrap="wrap">
        {actions.map((a) => (
          <Button key={a.name} size={size} variant={a.danger ? 'light' : 'default'} color={a.danger ? 'red' : undefined} onClick={() => start(a)} data-action={a.name}>
            {a.label}
          </Button>
        ))}
      </Group>
      <Modal opened={open !== null} onClose={close} title={<Text fw={600}>{open ? `${open.label}: ${title}` : ''}</Text>} centered>
        {open && (
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <Stack>
              {open.confirm && <Text size="sm">{open.confirm}</Text>}
              {general.length > 0 && (
                <Alert color="red" variant="light" p="xs">
                  {general.map(([k, m]) => (
                    <Text size="sm" key={k}>
                      {m}
                    </Text>
                  ))}
                </Alert>
              )}
              {(open.fields ?? []).map((f) => (
                <FormField
                  key={f.key}
                  field={f}
                  value={values[f.key]}
                  onChange={(v) => {
                    setValues((prev) => ({ ...prev, [f.key]: v }));
                    setErrors((prev) => {
                      const { [f.key]: _gone, ...rest } = prev;
                      return rest;
                    });
                  }}
                  error={errors[f.key]}
                  disabled={busy}
                />
              ))}
              <Group justify="flex-end">
                <Button variant="default" onClick={close} disabled={busy}>
                  Cancel
                </Button>
                <Button type="submit" loading={busy} color={open.danger ? 'red' : undefined} data-autofocus={open.fields?.length ? undefined : true}>
                  {open.label}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Modal>
    </>
  );
}
