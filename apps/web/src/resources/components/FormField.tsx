import type { FormFieldSpec, RestrictionEntry } from '@pitboss/contract';
import { MultiSelect, NumberInput, PasswordInput, Select, Skeleton, Switch, TagsInput, Textarea, TextInput } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { ResourceRecord } from '../api';
import { useCanPick } from '../hooks/useReference';
import { PermissionMatrix } from '../../modules/sub-admins/PermissionMatrix';
import { ReferenceSelect } from './ReferenceSelect';
import { useFieldOptions } from '../hooks/useFieldOptions';
import { OddsField } from './OddsField';

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
      allowDeselect={!field.required}
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

/** Another resource's record: a search-as-you-type picker, or its id typed in when the admin may not view that resource. */
function ReferenceField({ field, value, onChange, error, disabled, record }: FormFieldProps) {
  const reference = field.reference!;
  const canPick = useCanPick(reference);
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
    case 'switch':
      return <Switch name={field.key} label={field.label} description={field.description} error={error} disabled={disabled} checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />;
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
    case 'odds':
      return <OddsField {...props} />;
    case 'permissions':
      return (
        <PermissionMatrix
          label={field.label}
          description={field.description}
          value={value}
          onChange={(v: RestrictionEntry[]) => onChange(v)}
          disabled={disabled}
          error={error}
        />
      );
  }
}
