import type { z } from 'zod';
import type { RestrictionName } from '../restrictions.js';
import type { FormFieldSpec } from './spec.js';

/**
 * A single-record resource: one row for the whole platform (site settings, booster pack settings).
 * Declared like a resource: its record schema, its update schema (any subset of fields), the right,
 * the page, and the form in sections. From it come the read and update endpoints (audited, with the
 * right), and the web's settings page (sections, view-only for viewers, only changed fields sent,
 * unsaved-changes guard), with no module code on either side.
 */
export interface SingleSectionSpec<K extends string = string> {
  title: string;
  description?: string;
  /** Columns of the section's grid on wide screens (switches stack). */
  columns?: 1 | 2 | 3;
  fields: readonly FormFieldSpec<K>[];
}

export interface SingleSpec<K extends string = string> {
  /** API and audit name. */
  name: string;
  label: string;
  description?: string;
  restriction: RestrictionName;
  page: string;
  /** The record as the API returns it (`_id`, the fields, `updatedAt`). */
  record: z.ZodObject;
  /** Any subset of the fields; missing ones keep their value. */
  update: z.ZodType;
  /** Paths the seed fixes; default `GET` and `PATCH /api/admin/<name>`. */
  endpoints?: { read: string; update: { method: 'POST' | 'PATCH'; path: string } };
  /** Readable by every signed-in admin (the header shows the site name), not only the restriction's viewers. */
  readableByEveryAdmin?: boolean;
  sections: readonly SingleSectionSpec<K>[];
}

/** A record's field keys, and `parent.child` for fields of a nested object (social links). */
export type FieldPath<T> = Extract<keyof T, string> | { [P in Extract<keyof T, string>]: T[P] extends Record<string, unknown> ? `${P}.${Extract<keyof T[P], string>}` : never }[Extract<keyof T, string>];

/** A single-record declaration typed by its record schema: every form key must be a field (or a nested field) of the record. */
export function singleSpec<S extends z.ZodObject>(record: S, spec: Omit<SingleSpec<FieldPath<z.infer<S>>>, 'record'>): SingleSpec<FieldPath<z.infer<S>>> {
  return { ...spec, record };
}

export function singleEndpoints(spec: SingleSpec): { read: string; update: { method: 'POST' | 'PATCH'; path: string } } {
  return spec.endpoints ?? { read: `/api/admin/${spec.name}`, update: { method: 'PATCH', path: `/api/admin/${spec.name}` } };
}

/** The form fields of every section, in order. */
export function singleFields(spec: SingleSpec): FormFieldSpec[] {
  return spec.sections.flatMap((s) => s.fields);
}
