import type { AdminDetail, FormFieldType } from '@pitboss/contract';
import type { ComponentType, ReactNode } from 'react';
import type { FormFieldProps } from './components/FormField';

/**
 * What a module adds to the resource mechanism, registered by the module itself
 * (`modules/<name>/extensions.tsx`, loaded once by `modules/extensions.ts`): its own form field
 * types, the tabs of its record pages, and the context shown beside a record's decision. The
 * mechanism reads these registries and imports no module.
 */

/** A form field type a module owns (the sub-admins' permission matrix, the packs' odds). */
export interface FieldTypeDef {
  /** The input (lazy: the forms that have none do not load it). */
  Input: ComponentType<FormFieldProps>;
  /** The value of an empty form. */
  empty(): unknown;
  /** The form's value for a stored record's value. */
  fromRecord(value: unknown): unknown;
  /** What the unsaved-changes check compares (an order that does not matter taken out). */
  comparable?(value: unknown): unknown;
  /** Takes the form's whole width (a matrix), not the usual column. */
  wide?: boolean;
}

/** What a tab sees of the record page: the form's current values (unsaved edits included) and the record as loaded. */
export interface RecordTabContext {
  values: Record<string, unknown>;
  record: Record<string, unknown> | undefined;
}

/** A tab a resource's record page adds beside its details, children and history: a view no declaration covers. */
export interface RecordTab {
  value: string;
  label: string;
  icon: ReactNode;
  visible(admin: AdminDetail): boolean;
  render(id: string, canEdit: boolean, page: RecordTabContext): ReactNode;
}

const fieldTypes = new Map<FormFieldType, FieldTypeDef>();
const recordTabs = new Map<string, readonly RecordTab[]>();
const recordContexts = new Map<string, (id: string) => ReactNode>();

function once<K, V>(registry: Map<K, V>, key: K, value: V, what: string): void {
  if (registry.has(key)) throw new Error(`${what} "${String(key)}" is registered twice`);
  registry.set(key, value);
}

export const registerFieldType = (type: FormFieldType, def: FieldTypeDef): void => once(fieldTypes, type, def, 'Field type');
/** The tabs of a resource's record pages (by resource name). */
export const registerRecordTabs = (resource: string, tabs: readonly RecordTab[]): void => once(recordTabs, resource, tabs, 'Record tabs of');
/** What an admin deciding on a record sees beside it (a withdrawal's risk), by resource name. */
export const registerRecordContext = (resource: string, render: (id: string) => ReactNode): void => once(recordContexts, resource, render, 'Record context of');

export const fieldTypeOf = (type: FormFieldType): FieldTypeDef | undefined => fieldTypes.get(type);
export const recordTabsOf = (resource: string): readonly RecordTab[] => recordTabs.get(resource) ?? [];
export const recordContextOf = (resource: string): ((id: string) => ReactNode) | undefined => recordContexts.get(resource);
