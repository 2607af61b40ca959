import { useCallback, useRef, useState, type ChangeEvent } from 'react';

/** The part of a zod schema the form reads (structural, so the web app needs no direct zod import). */
export interface ParseSchema<Out> {
  safeParse(value: unknown): { success: true; data: Out } | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

/** A schema, or a loader of one (the sign-in page loads zod only when the form is submitted). */
export type SchemaSource<Out> = ParseSchema<Out> | (() => Promise<ParseSchema<Out>>);

export type FieldErrors = Record<string, string>;

export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

export function setPath<T>(obj: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split('.');
  const base = (obj ?? {}) as Record<string, unknown>;
  if (head === undefined) return obj;
  return { ...base, [head]: rest.length === 0 ? value : setPath(base[head], rest.join('.'), value) } as T;
}

/** zod issues → `{ 'socialLinks.twitter': 'message' }`, first message per field. */
export function issuesToErrors(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_form';
    errors[key] ??= issue.message;
  }
  return errors;
}

/**
 * A small form state: values, per-field errors, client validation with a
 * contract schema, and server errors (the envelope's `errors`, keyed by
 * field path) put back on the fields.
 */
export function useSchemaForm<Values extends object, Out>(schema: SchemaSource<Out>, initialValues: Values) {
  const [values, setValues] = useState<Values>(initialValues);
  const [errors, setErrors] = useState<FieldErrors>({});
  const valuesRef = useRef(values);
  valuesRef.current = values;

  const setValue = useCallback((path: string, value: unknown) => {
    setValues((v) => setPath(v, path, value));
    setErrors((e) => {
      if (!(path in e)) return e;
      const { [path]: _removed, ...rest } = e;
      return rest;
    });
  }, []);

  /** Validates the current values; returns the parsed output or null (errors shown on the fields). */
  const validate = useCallback(async (): Promise<Out | null> => {
    const resolved = typeof schema === 'function' ? await schema() : schema;
    const parsed = resolved.safeParse(valuesRef.current);
    if (parsed.success) {
      setErrors({});
      return parsed.data;
    }
    setErrors(issuesToErrors(parsed.error.issues));
    return null;
  }, [schema]);

  // Without an argument, back to the first render's values.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the first render's values on purpose, not later props.
  const reset = useCallback((next?: Values) => {
    setValues(next ?? initialValues);
    setErrors({});
  }, []);

  /** Props for a Mantine text-like input. */
  const textProps = (path: string) => ({
    name: path,
    value: String(getPath(values, path) ?? ''),
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValue(path, e.currentTarget.value),
    error: errors[path],
  });

  /** Props for a Mantine Switch/Checkbox. */
  const checkProps = (path: string) => ({
    name: path,
    checked: Boolean(getPath(values, path)),
    onChange: (e: ChangeEvent<HTMLInputElement>) => setValue(path, e.currentTarget.checked),
    error: errors[path],
  });

  return { values, setValues, errors, setErrors, setValue, validate, reset, textProps, checkProps };
}
