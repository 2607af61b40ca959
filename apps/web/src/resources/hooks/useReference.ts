import { accessFor, CHOICES_LIMIT, RESOURCES, type ReferenceSpec } from '@pitboss/contract';
import { useQuery } from '@tanstack/react-query';
import { useAdmin } from '../../stores/auth';
import { fetchChoices, fetchList, fetchRecord, resourceKeys } from '../api';

export interface ReferenceOption {
  value: string;
  label: string;
}

/** How many matches the picker shows: enough to pick from, small at any table size (as many as a choices endpoint gives). */
export const REFERENCE_RESULTS = CHOICES_LIMIT;

const labelOf = (reference: ReferenceSpec, record: Record<string, unknown>): string => {
  const v = record[reference.labelKey];
  return typeof v === 'string' && v !== '' ? v : `#${String(record._id)}`;
};

/**
 * Whether this admin may pick the reference's target by name: through the input's own choices
 * endpoint (`choices`: under the right of its list, form or action), else by browsing the target.
 * Otherwise the input is a plain id box and nothing asks the target's API (no 403 on every keystroke).
 */
export function useCanPick(reference: ReferenceSpec, choices?: string): boolean {
  const admin = useAdmin();
  const target = RESOURCES[reference.resource];
  if (choices) return true;
  if (!target || !admin) return false;
  return target.restriction === null || accessFor(admin, target.restriction).canView;
}

/**
 * The label of one referenced record, read by id: from the input's choices endpoint (`choices`), else
 * from the target's record (cached with the target's records); `known` until then.
 */
export function useReferenceLabel(reference: ReferenceSpec, id: string, enabled: boolean, known?: string, choices?: string): { label: string | undefined; missing: boolean } {
  const valid = enabled && /^\d{1,18}$/.test(id);
  const query = useQuery({
    queryKey: resourceKeys.record(reference.resource, id),
    queryFn: ({ signal }) => fetchRecord({ name: reference.resource }, id, signal),
    enabled: valid && !choices,
    staleTime: 60_000,
    retry: false,
  });
  const chosen = useQuery({
    queryKey: ['choices', choices, 'ids', id],
    queryFn: ({ signal }) => fetchChoices(choices!, { ids: id }, signal),
    enabled: valid && Boolean(choices),
    staleTime: 60_000,
    retry: false,
  });
  if (!id) return { label: undefined, missing: false };
  if (choices) {
    const found = chosen.data?.items.find((c) => c._id === id);
    if (found) return { label: found.label, missing: false };
    return { label: known, missing: chosen.isError || (chosen.isSuccess && !found) };
  }
  if (query.data) return { label: labelOf(reference, query.data), missing: false };
  return { label: known, missing: query.isError };
}

/**
 * The target's records matching what the admin typed: its list endpoint with `q` (the target's own
 * search, so a user among a million is found on the server, not in a page loaded up front), ~20 of
 * them; typed digits also look the id up directly. Runs only while `enabled` (the dropdown is open).
 */
export function useReferenceSearch(reference: ReferenceSpec, term: string, enabled: boolean, choices?: string) {
  const target = RESOURCES[reference.resource];
  const search = useQuery({
    queryKey: choices ? ['choices', choices, 'q', term] : [...resourceKeys.all(reference.resource), 'search', term, reference.filter ?? {}],
    queryFn: async ({ signal }): Promise<ReferenceOption[]> => {
      // The input's own choices endpoint applies the declaration's filter and the caller's rights.
      if (choices) return (await fetchChoices(choices, { q: term || undefined }, signal)).items.map((c) => ({ value: c._id, label: c.label }));
      // The declaration's filter narrows the offer (open events only); the server's rules still decide.
      const list = await fetchList({ name: reference.resource }, { ...reference.filter, q: term || undefined, limit: REFERENCE_RESULTS, sort: target?.defaultSort }, signal);
      return list.items.map((item) => ({ value: item._id, label: labelOf(reference, item) }));
    },
    enabled: enabled && Boolean(target),
    staleTime: 30_000,
    retry: false,
  });
  const asId = /^\d{1,18}$/.test(term) ? term : '';
  const byId = useReferenceLabel(reference, asId, enabled && asId !== '', undefined, choices);
  const options: ReferenceOption[] = [];
  if (asId && byId.label !== undefined) options.push({ value: asId, label: byId.label });
  for (const item of search.data ?? []) if (!options.some((o) => o.value === item.value)) options.push(item);
  return { options, loading: search.isFetching, error: search.error };
}
