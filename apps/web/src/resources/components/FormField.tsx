import { formatMoney, parseUnits, type FormFieldSpec } from '@pitboss/contract';
import { ActionIcon, Button, ColorInput, Group, Input, MultiSelect, NumberInput, PasswordInput, Select, Skeleton, Stack, Switch, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { lazy, Suspense, type ChangeEvent } from 'react';
import { useChoicesPath, useUploadPath } from '../formTargets';
import type { ResourceRecord } from '../api';
import { useCanPick } from '../hooks/useReference';
import { ReferenceSelect } from './ReferenceSelect';
import { useFieldOptions } from '../hooks/useFieldOptions';
import { fieldTypeOf } from '../extensions';
import { chosenThing, useMoneyUnit } from '../money';

export interface FormFieldProps {
  field: FormFieldSpec;
  value: unknown;
  onChange: (value: unknown) => void;
  error?: string;
  disabled: boolean;
  /** The loaded record, for labels the form does not hold (e.g. `moduleName` for `moduleId`). */
  record?: ResourceRecord;
}

const RICH_TEXT_NOTE = 'Basic formatting and links';
const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
// The editor is heavy: only forms with a rich-text field load it.
const RichTextField = lazy(() => import('./RichTextField'));
// The drop zone too: only forms with an image field load it.
const ImageField = lazy(() => import('./ImageField'));

/** An uploaded image: the drop zone and preview, posting to the form's upload endpoint. */
function ImageInput({ field, value, onChange, error, disabled }: FormFieldProps) {
  const uploadPath = useUploadPath();
  const text = typeof value === 'string' ? value : '';
  if (!uploadPath) throw new Error(`Image field ${field.key} outside a form that can upload`);
  return (
    <Suspense fallback={<Skeleton h={124} radius="sm" />}>
      <ImageField
        name={field.key}
        label={field.label}
        {...(field.description ? { description: field.description } : {})}
        {...(error ? { error } : {})}
        required={Boolean(field.required)}
        disabled={disabled}
        value={text}
        onChange={onChange}
        uploadPath={uploadPath}
      />
    </Suspense>
  );
}

type Pair = { key: string; value: string };
const pairsOf = (value: unknown): Pair[] =>
  Array.isArray(value) ? value.map((p) => ({ key: String((p as Pair)?.key ?? ''), value: String((p as Pair)?.value ?? '') })) : [];

/** A list of name/value pairs (a card's attributes): one row each, added and removed in place. */
function KeyValueField({ field, value, onChange, error, disabled }: FormFieldProps) {
  const pairs = pairsOf(value);
  const set = (i: number, part: keyof Pair, v: string) => onChange(pairs.map((p, j) => (j === i ? { ...p, [part]: v } : p)));
  return (
    <Input.Wrapper label={field.label} description={field.description} error={error} withAsterisk={field.required}>
      <Stack gap={6} mt={4} data-field={field.key}>
        {pairs.length === 0 && disabled && <Text size="sm" c="dimmed">None</Text>}
        {pairs.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place; names may repeat while typed.
          <Group key={i} gap="xs" wrap="nowrap">
            <TextInput aria-label={`${field.label} ${i + 1} name`} placeholder="Name" value={p.key} readOnly={disabled} onChange={(e) => set(i, 'key', e.currentTarget.value)} w={200} />
            <TextInput aria-label={`${field.label} ${i + 1} value`} placeholder="Value" value={p.value} readOnly={disabled} onChange={(e) => set(i, 'value', e.currentTarget.value)} style={{ flex: 1 }} />
            {!disabled && (
              <ActionIcon variant="subtle" color="red" aria-label={`Remove ${field.label.toLowerCase()} ${i + 1}`} onClick={() => onChange(pairs.filter((_, j) => j !== i))}>
                <IconTrash size={16} />
              </ActionIcon>
            )}
          </Group>
        ))}
        {!disabled && (
          <Group>
            <Button variant="light" size="compact-sm" leftSection={<IconPlus size={14} />} onClick={() => onChange([...pairs, { key: '', value: '' }])}>
              Add {field.label.toLowerCase().replace(/s$/, '')}
            </Button>
          </Group>
        )}
      </Stack>
    </Input.Wrapper>
  );
}

function SelectField({ field, value, onChange, error, disabled }: FormFieldProps) {
  // Declared options, or another resource's records (`optionsFrom`: a guaranteed card tier).
  const { options } = useFieldOptions(field, value);
  return (
    <Select
      name={field.key}
      label={field.label}
      description={field.description}
      placeholder={field.placeholder ?? `Choose ${field.label.toLowerCase()}`}
      withAsterisk={field.required}
      data={options}
      value={typeof value === 'string' && value !== '' ? value : null}
      onChange={(v) => onChange(v ?? '')}
      error={error}
      readOnly={disabled}
      searchable={options.length > 8}
      nothingFoundMessage="No match"
      allowDeselect={!field.required}
      clearable={!field.required && !field.options && !disabled}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/**
 * Several ids of another resource (an event's tags): labels of linked records the options do not
 * list (an inactive tag) come from the record's names field (`tagIds` → `tags`, in the same order).
 */
function MultiSelectField({ field, value, onChange, error, disabled, record }: FormFieldProps) {
  const namesKey = field.key.replace(/Ids$/, 's');
  const ids = record && Array.isArray(record[field.key]) ? (record[field.key] as unknown[]).map(String) : [];
  const names = record && namesKey !== field.key && Array.isArray(record[namesKey]) ? (record[namesKey] as unknown[]).map(String) : [];
  const selected = Array.isArray(value) ? value.map(String) : [];
  const { options, loading, error: optionsError } = useFieldOptions(field, selected, (v) => names[ids.indexOf(v)]);
  return (
    <MultiSelect
      name={field.key}
      label={field.label}
      description={field.description}
      placeholder={disabled ? undefined : loading ? 'Loading…' : (field.placeholder ?? `Choose ${field.label.toLowerCase()}`)}
      withAsterisk={field.required}
      data={options}
      value={selected}
      onChange={(v) => onChange(v)}
      error={error ?? (optionsError ? `Could not load the choices: ${optionsError.message}` : undefined)}
      readOnly={disabled}
      searchable
      clearable={!disabled}
      hidePickedOptions
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/**
 * Another resource's record: a search-as-you-type picker, offered by the form's or action's own
 * choices endpoint; outside those (a single record's form), by the target's list, or its id typed
 * in when the admin may not view that resource.
 */
function ReferenceField({ field, value, onChange, error, disabled, record }: FormFieldProps) {
  const reference = field.reference!;
  const choices = useChoicesPath(field.key);
  const canPick = useCanPick(reference, choices);
  const text = typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
  if (!canPick) {
    return (
      <TextInput
        name={field.key}
        label={field.label}
        description={field.description ?? 'The id (you cannot browse this list)'}
        placeholder="Id"
        inputMode="numeric"
        withAsterisk={field.required}
        error={error}
        readOnly={disabled}
        value={text}
        onChange={(e) => onChange(e.currentTarget.value.replace(/\D/g, ''))}
      />
    );
  }
  // The record may carry the label already (`moduleName` beside `moduleId`): shown while the target is read.
  const labelKey = field.key.replace(/Id$/, 'Name');
  const known = record && labelKey !== field.key && typeof record[labelKey] === 'string' && String(record[field.key]) === text ? (record[labelKey] as string) : undefined;
  return (
    <ReferenceSelect
      reference={reference}
      name={field.key}
      label={field.label}
      description={field.description}
      placeholder={field.placeholder}
      error={error}
      required={field.required}
      readOnly={disabled}
      value={text}
      onChange={onChange}
      knownLabel={known}
      choices={choices}
    />
  );
}

/**
 * An amount typed in its coin's units (`5`, `0.25`), the coin's symbol beside it and the value read
 * back under it (`= 5.000000 USDC`); too many decimals or an unreadable number are said at once. The
 * form posts it as minor units (`moneyBody`), refusing what the field does not allow (a negative
 * amount, zero) on the field.
 */
function MoneyField(props: FormFieldProps) {
  const { field, value, onChange, error, disabled } = props;
  const unit = useMoneyUnit(field.key);
  const text = typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
  const common = { name: field.key, label: field.label, placeholder: field.placeholder, readOnly: disabled, withAsterisk: field.required, value: text, maw: 320 };
  const change = (e: ChangeEvent<HTMLInputElement>) => onChange(e.currentTarget.value);
  // Not money for the choices made (a reward's threshold in shares): a whole number as typed.
  if (unit === null) return <TextInput {...common} inputMode="numeric" description={field.description} error={error} onChange={change} />;
  if (!unit) {
    const hint = field.money?.field ? `Choose the ${chosenThing(field.money.field)} first` : undefined;
    return <TextInput {...common} inputMode="decimal" description={[field.description, hint].filter(Boolean).join(' · ') || undefined} error={error} onChange={change} />;
  }
  // Said while typing: the shape and the decimals; the sign and zero when posting.
  const parsed = text.trim() === '' ? null : parseUnits(text, unit.decimals, unit.symbol, { negative: true, zero: true });
  const echo = parsed?.ok ? `= ${formatMoney(parsed.value, unit.decimals, unit.symbol)}` : null;
  return (
    <TextInput
      {...common}
      inputMode="decimal"
      autoComplete="off"
      data-money-decimals={unit.decimals}
      rightSection={<Text size="xs" c="dimmed" ff="monospace">{unit.symbol}</Text>}
      rightSectionWidth={Math.max(44, unit.symbol.length * 9 + 16)}
      // Read back under the amount, before the field's note: "= 5.000000 USDC · Negative to debit".
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      description={[echo, field.description].filter(Boolean).join(' · ') || undefined}
      error={error ?? (parsed && !parsed.ok ? parsed.error : undefined)}
      onChange={change}
    />
  );
}

/** One form field, rendered by its declared type. */
export function FormField(props: FormFieldProps) {
  const { field, value, onChange, error, disabled } = props;
  // Without the edit right the values stay fully legible: read-only, not greyed-out disabled inputs.
  const common = { name: field.key, label: field.label, description: field.description, placeholder: field.placeholder, error, readOnly: disabled, withAsterisk: field.required };
  const text = typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
  switch (field.type) {
    case 'text':
      return <TextInput {...common} value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'email':
      return <TextInput {...common} type="email" autoComplete="off" value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'password':
      return <PasswordInput {...common} autoComplete="new-password" value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'textarea':
      return <Textarea {...common} autosize minRows={3} maxRows={10} value={text} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'richtext':
      return (
        <Suspense fallback={<Skeleton h={220} radius="sm" />}>
          <RichTextField
            name={field.key}
            label={field.label}
            description={field.description ?? RICH_TEXT_NOTE}
            {...(error ? { error } : {})}
            required={Boolean(field.required)}
            disabled={disabled}
            value={text}
            onChange={onChange}
          />
        </Suspense>
      );
    case 'number':
      return (
        <NumberInput
          {...common}
          allowDecimal={false}
          w={200}
          value={typeof value === 'number' || typeof value === 'string' ? value : ''}
          onChange={(v) => onChange(v)}
        />
      );
    case 'select':
      return <SelectField {...props} />;
    case 'multiselect':
      return <MultiSelectField {...props} />;
    case 'datetime':
      // The admin's local time; the form sends the instant (formValues). Shown with the zone it is in.
      return (
        <TextInput
          {...common}
          description={[field.description, `Your time (${LOCAL_ZONE})`].filter(Boolean).join(' · ')}
          type="datetime-local"
          maw={320}
          value={text}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    case 'reference':
      return <ReferenceField {...props} />;
    case 'money':
      return <MoneyField {...props} />;
    case 'image':
      return <ImageInput {...props} />;
    case 'keyvalue':
      return <KeyValueField {...props} />;
    case 'color':
      return <ColorInput {...common} format="hex" w={220} value={text} onChange={(v) => onChange(v)} disallowInput={false} swatches={['#868e96', '#2f9e44', '#1971c2', '#7048e8', '#f08c00', '#e03131']} />;
    case 'switch':
      // Read-only like the other fields, not disabled: a disabled switch is greyed out whether on or
      // off, so a view-only admin could not tell (Opening enabled). Controlled: a click changes nothing.
      return (
        <Switch name={field.key} label={field.label} description={field.description} error={error} checked={value === true}
          aria-readonly={disabled || undefined} style={disabled ? { cursor: 'default' } : undefined}
          onChange={(e) => { if (!disabled) onChange(e.currentTarget.checked); }} />
      );
    case 'tags':
      return (
        <TagsInput
          {...common}
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={(v) => onChange(v)}
          placeholder={disabled ? undefined : (field.placeholder ?? 'Type and press Enter')}
          clearable={!disabled}
        />
      );
    default: {
      // A type a module owns (extensions.ts): its own input.
      const own = fieldTypeOf(field.type);
      if (!own) throw new Error(`Field ${field.key}: no input for the type "${field.type}" (register it in its module's extensions.tsx)`);
      return (
        <Suspense fallback={<Skeleton h={120} radius="sm" />}>
          <own.Input {...props} />
        </Suspense>
      );
    }
  }
}
