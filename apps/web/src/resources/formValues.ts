import { fieldApplies, fieldOptions, type FormFieldSpec } from '@pitboss/contract';
import { fieldTypeOf } from './extensions';
import dayjs from 'dayjs';
import { issuesToErrors, type FieldErrors, type ParseSchema } from '../lib/form';
import { moneyInputValue, type MoneyUnits } from './money';

/** Form values by field key: strings for text-like inputs, numbers (or '' when empty), booleans, string lists, rights. */
export type FormValues = Record<string, unknown>;

function emptyValue(field: FormFieldSpec): unknown {
  const own = fieldTypeOf(field.type);
  if (own) return own.empty();
  switch (field.type) {
    case 'number':
      return '';
    case 'switch':
      return false;
    case 'tags':
    case 'multiselect':
      return [];
    case 'keyvalue':
      return [];
    case 'select': {
      // An optional static choice starts on its first option (e.g. status: Active); a required one must be chosen.
      const first = field.required ? undefined : fieldOptions(field)?.[0];
      return first ? first.value : '';
    }
    default:
      return '';
  }
}

export function emptyValues(fields: readonly FormFieldSpec[]): FormValues {
  return Object.fromEntries(fields.map((f) => [f.key, emptyValue(f)]));
}

/** What a new record's form starts on: each field's declared `initial` value, else empty. */
export function newRecordValues(fields: readonly FormFieldSpec[]): FormValues {
  return Object.fromEntries(fields.map((f) => [f.key, f.initial ?? emptyValue(f)]));
}

/** The form's values for a stored record; a money field in its coin's units (`units`, read beforehand: `useMoneyUnits`). */
export function valuesFromRecord(fields: readonly FormFieldSpec[], record: Record<string, unknown>, units: MoneyUnits = {}): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const v = record[field.key];
    const own = fieldTypeOf(field.type);
    if (own) {
      values[field.key] = own.fromRecord(v);
      continue;
    }
    switch (field.type) {
      case 'money':
        values[field.key] = moneyInputValue(field, v, units[field.key], record);
        break;
      case 'number':
        values[field.key] = typeof v === 'number' ? v : v === null || v === undefined || v === '' ? '' : Number(v);
        break;
      case 'switch':
        values[field.key] = v === true;
        break;
      case 'tags':
      case 'multiselect':
        values[field.key] = Array.isArray(v) ? v.map(String) : [];
        break;
      case 'datetime':
        values[field.key] = toLocalInput(v);
        break;
      case 'keyvalue':
        values[field.key] = Array.isArray(v) ? v.map((p) => ({ key: String((p as { key?: unknown })?.key ?? ''), value: String((p as { value?: unknown })?.value ?? '') })) : [];
        break;
      default:
        values[field.key] = v === null || v === undefined ? '' : String(v);
    }
  }
  return values;
}

/** The format of `<input type="datetime-local">`: the admin's own time, to the minute. */
export const LOCAL_INPUT_FORMAT = 'YYYY-MM-DDTHH:mm';

/** An instant from the API (ISO) as the admin's local time for the input; '' when none. */
export function toLocalInput(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(String(value));
  return d.isValid() ? d.format(LOCAL_INPUT_FORMAT) : String(value);
}

/** The input's local time as the instant the API takes (ISO, UTC); anything unreadable is sent as typed, for the schema to report. */
export function fromLocalInput(value: string): string {
  if (value === '') return '';
  const d = dayjs(value);
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && d.isValid() ? d.toISOString() : value;
}

/** A value as the API takes it: numbers as numbers, an empty number as "not given", local times as instants. */
function apiValue(field: FormFieldSpec, value: unknown): unknown {
  if (field.type === 'datetime') return fromLocalInput(typeof value === 'string' ? value : '');
  if (field.type === 'number') {
    if (value === '' || value === null || value === undefined) return undefined;
    const n = typeof value === 'number' ? value : Number(value);
    return Number.isFinite(n) ? n : value;
  }
  return value;
}

const isEmpty = (v: unknown) => v === '' || v === null || v === undefined;

/** Comparable form of the values: an order that does not matter taken out. */
function comparable(field: FormFieldSpec, value: unknown): unknown {
  const own = fieldTypeOf(field.type);
  if (own) return own.comparable ? own.comparable(value) : value;
  if (field.type === 'number') return value === '' ? '' : Number(value);
  // A list of ids is a set: its order is the picker's, not a change.
  if (field.type === 'multiselect' && Array.isArray(value)) return value.map(String).sort();
  return value;
}

export function sameValue(field: FormFieldSpec, a: unknown, b: unknown): boolean {
  return JSON.stringify(comparable(field, a)) === JSON.stringify(comparable(field, b));
}

export function changedKeys(fields: readonly FormFieldSpec[], values: FormValues, initial: FormValues): string[] {
  return fields.filter((f) => !sameValue(f, values[f.key], initial[f.key])).map((f) => f.key);
}

/**
 * The request body: every field when creating, only the changed ones when
 * updating (PATCH is partial).
 */
export function requestBody(fields: readonly FormFieldSpec[], mode: 'add' | 'update', values: FormValues, initial: FormValues): Record<string, unknown> {
  const hiddenNow = fields.filter((f) => !fieldApplies(f, values) && !isEmpty(initial[f.key])).map((f) => f.key);
  const keys = mode === 'add' ? fields.map((f) => f.key) : [...new Set([...changedKeys(fields, values, initial), ...hiddenNow])];
  const body: Record<string, unknown> = {};
  for (const key of keys) {
    const field = fields.find((f) => f.key === key)!;
    // A field that does not apply to the choices made (`visibleWhen`) is null: not asked for, and cleared when it held a value.
    if (!fieldApplies(field, values)) {
      if (mode === 'add' || !isEmpty(initial[key])) body[key] = null;
      continue;
    }
    const v = apiValue(field, values[key]);
    if (v !== undefined) body[key] = v;
    // A number emptied on an update: '' for `checkBody`, which clears it (null) when the schema allows it.
    else if (mode === 'update' && field.type === 'number') body[key] = '';
  }
  return body;
}

/** A single record's optional choice cleared is null (none): the booster pack settings' guaranteed tier back to no guarantee. */
export const clearedValue = (field: FormFieldSpec, v: unknown) => ((field.type === 'select' || field.type === 'reference') && !field.required && v === '' ? null : v);

/** Fields a cleared value ('') clears on the server (null) when the schema allows it: a number or a choice. */
const CLEARABLE = new Set<FormFieldSpec['type']>(['number', 'select', 'reference', 'money']);

/**
 * Checks the body with the contract schema (the one the server uses). An
 * empty optional field the schema refuses as '' (a slug pattern, say) is sent
 * as null when it is a number or a choice the schema takes as null (cleared:
 * back to "none" or the default), else it means "not given" and is left out
 * rather than reported. The body sent is the
 * checked one as typed, not the parsed output: a create schema's parse fills
 * defaults, which the server does itself. (Update schemas have no defaults:
 * the contract's `updateSchemaOf`.)
 */
export function checkBody(
  schema: ParseSchema<unknown>,
  fields: readonly FormFieldSpec[],
  body: Record<string, unknown>,
): { ok: true; body: Record<string, unknown> } | { ok: false; errors: FieldErrors } {
  let checked = body;
  let parsed = schema.safeParse(checked);
  if (!parsed.success) {
    const errors = issuesToErrors(parsed.error.issues);
    const droppable = fields.filter((f) => !f.required && body[f.key] === '' && errors[f.key]);
    if (droppable.length === 0) return { ok: false, errors };
    checked = { ...body };
    // A cleared number or choice the schema takes as null (a pack's own size, a guaranteed tier) is sent as null.
    const nulls = droppable.filter((f) => CLEARABLE.has(f.type));
    for (const f of nulls) checked[f.key] = null;
    if (nulls.length) {
      const again = schema.safeParse(checked);
      const still = again.success ? {} : issuesToErrors(again.error.issues);
      for (const f of nulls) if (still[f.key]) delete checked[f.key];
    }
    for (const f of droppable) if (checked[f.key] === '') delete checked[f.key];
    parsed = schema.safeParse(checked);
    if (!parsed.success) return { ok: false, errors: issuesToErrors(parsed.error.issues) };
  }
  return { ok: true, body: checked };
}

/** The error for a field: its own key, or the first nested one (`restriction.0.name`). */
export function fieldError(errors: FieldErrors, key: string): string | undefined {
  if (errors[key]) return errors[key];
  const nested = Object.keys(errors).find((k) => k.startsWith(`${key}.`));
  return nested ? errors[nested] : undefined;
}

/** Errors that belong to no field of the form (shown above it). */
export function otherErrors(errors: FieldErrors, fields: readonly FormFieldSpec[]): string[] {
  return Object.entries(errors)
    .filter(([k]) => !fields.some((f) => k === f.key || k.startsWith(`${f.key}.`)))
    .map(([, message]) => message);
}
