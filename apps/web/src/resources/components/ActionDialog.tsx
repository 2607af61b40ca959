import { choicesPath, type ActionSpec } from '@pitboss/contract';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { issuesToErrors } from '../../lib/form';
import { ChoicesTarget } from '../formTargets';
import { FormField } from './FormField';
import { moneyBody, MoneyUnitsTarget, useMoneyUnits } from '../money';

/** Each field's first value: the record's field it names (`initialFrom`), else empty. */
const initialValues = (action: ActionSpec, record?: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  Object.fromEntries(
    (action.fields ?? []).map((f) => {
      const from = f.initialFrom ? record?.[f.initialFrom] : undefined;
      return [f.key, typeof from === 'string' ? from : f.type === 'switch' ? false : f.type === 'tags' || f.type === 'multiselect' ? [] : ''];
    }),
  );

/**
 * What sending an action came to: nothing more to show (done, or handled by the caller), the
 * server's field errors, or the server asking to confirm first (`CONFIRM_REQUIRED`, with why): the
 * dialog then shows why and sends again with `confirm: true` when the admin confirms.
 */
export type SubmitAnswer = undefined | { errors: Record<string, string> } | { confirmRequired: string };

interface Props {
  /** The declaration the action belongs to (its fields' choices come from its endpoints). */
  resource: string;
  /** The action whose form or confirmation is open; null: closed. */
  action: ActionSpec | null;
  title: string;
  /** Said under the action's own confirmation (what "all matching" covers…). */
  note?: ReactNode;
  /** What the action acts on, shown first (the record's code and link, a selection's totals). */
  subject?: ReactNode;
  /** The one record it acts on (none for a selection): fields declaring `initialFrom` start on its values. */
  record?: Readonly<Record<string, unknown>>;
  onClose: () => void;
  /**
   * Sends the checked input; resolves to the server's field errors to show them on the form, to its
   * request to confirm first, or to nothing when the caller has handled the answer.
   */
  submit: (input: Record<string, unknown>) => Promise<SubmitAnswer>;
}

/** An action's confirmation and form (its declared fields, checked with its input schema), for one record or a selection. */
export function ActionDialog({ resource, action, title, note, subject, record, onClose, submit }: Props) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal opened={action !== null} onClose={() => !busy && onClose()} title={<Text fw={600}>{title}</Text>} centered size={subject ? 'xl' : 'md'}>
      {action && (
        <ChoicesTarget.Provider value={(key) => choicesPath(resource, { kind: 'action', action: action.name, key })}>
          <ActionForm key={action.name} resource={resource} action={action} note={note} subject={subject} record={record} busy={busy} setBusy={setBusy} onCancel={onClose} submit={submit} />
        </ChoicesTarget.Provider>
      )}
    </Modal>
  );
}

function ActionForm({ resource, action, note, subject, record, busy, setBusy, onCancel, submit }: { resource: string; action: ActionSpec; note?: ReactNode; subject?: ReactNode; record?: Props['record']; busy: boolean; setBusy: (b: boolean) => void; onCancel: () => void; submit: Props['submit'] }) {
  const [values, setValues] = useState<Record<string, unknown>>(() => initialValues(action, record));
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The server's request to confirm first (why), once it asked: the next send confirms.
  const [confirmRequired, setConfirmRequired] = useState<string | null>(null);
  const fields = action.fields ?? [];
  const units = useMoneyUnits(fields, values, (key) => choicesPath(resource, { kind: 'action', action: action.name, key }));
  const general = Object.entries(errors).filter(([k]) => !(action.fields ?? []).some((f) => f.key === k));

  const send = async () => {
    let input: Record<string, unknown> = {};
    if (action.input) {
      // Amounts typed in the coin's units go as minor units.
      const money = moneyBody(fields, values, units.units, values);
      if (!money.ok) {
        setErrors(money.errors);
        return;
      }
      const parsed = action.input.safeParse(money.body);
      if (!parsed.success) {
        setErrors(issuesToErrors(parsed.error.issues));
        return;
      }
      input = money.body;
    }
    setBusy(true);
    try {
      const answer = await submit(confirmRequired ? { ...input, confirm: true } : input);
      if (answer && 'confirmRequired' in answer) setConfirmRequired(answer.confirmRequired);
      else if (answer) setErrors(answer.errors);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <Stack>
        {subject}
        {action.confirm && <Text size="sm">{action.confirm}</Text>}
        {note && (
          <Text size="sm" c="dimmed">
            {note}
          </Text>
        )}
        {confirmRequired && (
          <Alert color="orange" variant="light" p="xs" data-testid="confirm-required" role="alert">
            <Text size="sm">{confirmRequired}</Text>
          </Alert>
        )}
        {general.length > 0 && (
          <Alert color="red" variant="light" p="xs">
            {general.map(([k, m]) => (
              <Text size="sm" key={k}>
                {m}
              </Text>
            ))}
          </Alert>
        )}
        <MoneyUnitsTarget.Provider value={units.units}>
        {fields.map((f) => (
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
        </MoneyUnitsTarget.Provider>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy} color={action.danger ? 'red' : undefined} data-autofocus={action.fields?.length ? undefined : true}>
            {confirmRequired ? `${action.label} anyway` : action.label}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
