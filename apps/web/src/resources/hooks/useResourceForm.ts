import { choicesPath, deleteRefusal, ERROR_CODES, mayCreate, type FormFieldSpec, type ResourceSpec } from '@pitboss/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useUnsavedChanges } from '../../lib/useUnsavedChanges';
import { useSchemaForm, type ParseSchema } from '../../lib/form';
import { toast } from '../../lib/toast';
import { usePageAccess } from '../../stores/auth';
import { createRecord, deleteRecord, fetchRecord, postAction, resourceKeys, resourcePath, updateRecord, type ResourceRecord, type WriteResponse } from '../api';
import { changedKeys, checkBody, emptyValues, newRecordValues, requestBody, valuesFromRecord, type FormValues } from '../formValues';
import { midSentence } from '../text';
import { moneyBody, useMoneyUnits } from '../money';

const acceptAll: ParseSchema<unknown> = { safeParse: (value) => ({ success: true, data: value }) };

/** An in-app path to return to (never another origin). */
function safeBack(value: string | null): string | null {
  return value && /^\/(?![/\\])[^\s]*$/.test(value) ? value : null;
}

/** Values a link gives the add form (a child's parent): select and reference fields only, by their key. */
function prefill(fields: readonly FormFieldSpec[], params: URLSearchParams): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    const v = params.get(f.key);
    if ((f.type === 'select' || f.type === 'reference') && v) values[f.key] = v;
  }
  return values;
}

/** A write the server wants confirmed (e.g. blocking a range that holds the admin's own IP). */
export interface PendingConfirmation {
  message: string;
}

/**
 * Headless form controller: loads the record (update), holds values and
 * per-field errors, validates with the contract's create/update schema,
 * puts the server's field errors back on the fields, tracks unsaved changes
 * (in-app navigation is blocked with a prompt, closing the tab warns), and
 * saves or deletes.
 */
export function useResourceForm(spec: ResourceSpec, id?: string) {
  const mode: 'add' | 'update' = id ? 'update' : 'add';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const access = usePageAccess();
  // Adding needs the create right (`createRight`, else edit); changing a record, edit.
  const canEdit = mode === 'add' ? mayCreate(spec, access) : access.canEdit && !spec.readOnly;
  const schema = (mode === 'add' ? spec.create : spec.update) as ParseSchema<unknown> | undefined;
  const fields: FormFieldSpec[] = useMemo(() => (spec.form ?? []).filter((f) => mode === 'add' || !f.createOnly), [spec.form, mode]);

  const recordQuery = useQuery({
    queryKey: resourceKeys.record(spec.name, id ?? ''),
    queryFn: ({ signal }) => fetchRecord(spec, id!, signal),
    enabled: mode === 'update',
    // The form keeps its own copy; a background refetch must not reset edits.
    staleTime: Infinity,
  });
  const record: ResourceRecord | undefined = recordQuery.data;
  // Money fields show the stored minor units in their coin's units: the record's coins are read first.
  const choicesFor = useCallback((key: string) => choicesPath(spec.name, { kind: 'form', key }), [spec.name]);
  const recordUnits = useMoneyUnits(fields, record, choicesFor);

  // Opened from a parent's tab (`/add-market?eventId=7&back=/update-event/7`): the parent is chosen,
  // and saving or cancelling goes back to its page.
  const [searchParams] = useSearchParams();
  const backTo = safeBack(searchParams.get('back')) ?? spec.pages.list;
  const [initial, setInitial] = useState<FormValues>(() => (mode === 'add' ? { ...newRecordValues(fields), ...prefill(fields, searchParams) } : emptyValues(fields)));
  const form = useSchemaForm<FormValues, unknown>(schema ?? acceptAll, initial);

  // Fill the form from the loaded record. When the same record comes back
  // refreshed (after "End sessions", "Restore"…), unsaved edits are kept and
  // only the untouched fields take the server's values.
  const filledFor = useRef<ResourceRecord | null>(null);
  useEffect(() => {
    if (!record || !recordUnits.ready || filledFor.current === record) return;
    const refresh = filledFor.current !== null && filledFor.current._id === record._id;
    filledFor.current = record;
    const values = valuesFromRecord(fields, record, recordUnits.units);
    const merged = { ...values };
    if (refresh) for (const key of changedKeys(fields, form.values, initial)) merged[key] = form.values[key];
    setInitial(values);
    form.reset(merged);
  }, [record, recordUnits.ready, recordUnits.units, fields, form.reset, form.values, initial]);

  // The coins of the money fields as the form now stands (a pack's coin changed: its price reads in the new one).
  const units = useMoneyUnits(fields, { ...record, ...form.values }, choicesFor);

  const dirtyKeys = useMemo(() => (canEdit ? changedKeys(fields, form.values, initial) : []), [canEdit, fields, form.values, initial]);
  const dirty = dirtyKeys.length > 0;

  // ── Leaving with unsaved changes ─────────────────────────────────────────
  const { blocker, allowLeave } = useUnsavedChanges(dirty);

  const backToList = useCallback(() => {
    allowLeave();
    navigate(backTo);
  }, [allowLeave, navigate, backTo]);

  // ── Save ─────────────────────────────────────────────────────────────────
  const [saving, setSaving] = useState(false);
  const [confirmation, setConfirmation] = useState<PendingConfirmation | null>(null);
  const [formMessage, setFormMessage] = useState<string | null>(null);

  const handleFailure = useCallback(
    (res: WriteResponse) => {
      if (res.code === ERROR_CODES.CONFIRM_REQUIRED) {
        setConfirmation({ message: res.message });
        return;
      }
      // Said once: on the fields (or the form's alert, for errors no field shows), else as a toast.
      if (res.errors && Object.keys(res.errors).length > 0) form.setErrors(res.errors);
      else toast.error(res.message);
    },
    [form.setErrors],
  );

  const save = useCallback(
    async (extra: Record<string, unknown> = {}) => {
      if (!canEdit || !schema || saving) return;
      setFormMessage(null);
      const body = requestBody(fields, mode, form.values, initial);
      if (mode === 'update' && Object.keys(body).length === 0) {
        toast.success('Nothing to save');
        return;
      }
      const money = moneyBody(fields, body, units.units, { ...record, ...form.values });
      if (!money.ok) {
        form.setErrors(money.errors);
        setFormMessage('Check the highlighted fields');
        return;
      }
      const checked = checkBody(schema, fields, money.body);
      if (!checked.ok) {
        form.setErrors(checked.errors);
        setFormMessage('Check the highlighted fields');
        return;
      }
      setSaving(true);
      let res: WriteResponse<ResourceRecord>;
      try {
        const payload = { ...checked.body, ...extra };
        res = mode === 'add' ? await createRecord(spec, payload) : await updateRecord(spec, id!, payload);
      } finally {
        setSaving(false);
      }
      if (!res.success) {
        handleFailure(res);
        return;
      }
      setConfirmation(null);
      toast.success(res.message);
      await queryClient.invalidateQueries({ queryKey: resourceKeys.all(spec.name) });
      backToList();
    },
    [canEdit, schema, saving, fields, mode, form.values, form.setErrors, initial, spec, id, handleFailure, queryClient, backToList, units.units, record],
  );

  /** The server asked for confirmation: send the same body again, confirmed. */
  const confirmSave = useCallback(() => save({ confirm: true }), [save]);
  const cancelConfirmation = useCallback(() => setConfirmation(null), []);

  // ── Delete ───────────────────────────────────────────────────────────────
  const archived = spec.deleteMode === 'archive' && Boolean(record?.archivedAt);
  const canDelete =
    canEdit && mode === 'update' && (spec.deleteMode === 'delete' || (spec.deleteMode === 'archive' && !archived)) && !(record && deleteRefusal(spec, record));
  const [deleting, setDeleting] = useState(false);
  const remove = useCallback(async () => {
    if (!canDelete || !id) return false;
    setDeleting(true);
    try {
      const res = await deleteRecord(spec, id);
      if (!res.success) {
        toast.error(res.message);
        return false;
      }
      toast.success(res.message);
      queryClient.removeQueries({ queryKey: resourceKeys.record(spec.name, id) });
      await queryClient.invalidateQueries({ queryKey: resourceKeys.all(spec.name) });
      backToList();
      return true;
    } finally {
      setDeleting(false);
    }
  }, [canDelete, id, spec, queryClient, backToList]);

  // ── Restore (archive resources) ──────────────────────────────────────────
  const canRestore = canEdit && mode === 'update' && archived;
  const restore = useCallback(async () => {
    if (!canRestore || !id) return;
    const res = await postAction(resourcePath(spec.name, `/${encodeURIComponent(id)}/restore`));
    if (!res.success) {
      toast.error(res.message);
      return;
    }
    toast.success(res.message);
    await queryClient.invalidateQueries({ queryKey: resourceKeys.all(spec.name) });
  }, [canRestore, id, spec, queryClient]);

  const title = mode === 'add' ? (spec.adding?.label ?? `Add ${midSentence(spec.label)}`) : record ? String(record[spec.titleField] ?? spec.label) : spec.label;

  return {
    spec,
    mode,
    id,
    fields,
    /** Where Cancel and a save go: the list, or the parent's page the form was opened from. */
    backTo,
    title,
    record,
    isLoading: mode === 'update' && (recordQuery.isPending || !recordUnits.ready),
    /** The coin of each money field, as the form now stands. */
    units: units.units,
    loadError: recordQuery.error,
    reload: recordQuery.refetch,
    canEdit,
    /** The admin holds the edit right on this page (a read-only resource is still changed through its actions). */
    hasEditRight: access.canEdit,
    canDelete,
    canRestore,
    restore,
    archived,
    values: form.values,
    setValue: form.setValue,
    errors: form.errors,
    formMessage,
    dirty,
    saving,
    save,
    confirmation,
    confirmSave,
    cancelConfirmation,
    deleting,
    remove,
    backToList,
    /** In-app navigation held back by unsaved changes: `proceed()` or `reset()`. */
    blocker,
  };
}

export type ResourceFormController = ReturnType<typeof useResourceForm>;
