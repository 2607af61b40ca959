import { fieldOptions, RESOURCES, type FormFieldSpec } from '@pitboss/contract';
import { useQuery } from '@tanstack/react-query';
import { fetchList, resourceKeys } from '../api';

export interface FieldOption {
  value: string;
  label: string;
}

/** Most option lists are short catalogues; one page of the API's maximum is plenty. */
const OPTIONS_LIMIT = 200;

/**
 * Options of a select field: the declared ones (`'countries'`: every country, "France (FR)"), or another resource's records
 * (`optionsFrom`: value = `_id`, label = `labelKey`, narrowed by its `filter`). When that list cannot be
 * read (no permission), or a current value is not among them (an inactive tag still linked), the
 * current value stays selectable under its label from the record, or `#id`.
 */
export function useFieldOptions(field: FormFieldSpec, currentValue: unknown, labelOf: (value: string) => string | undefined = () => undefined) {
  const from = field.optionsFrom;
  const source = from ? RESOURCES[from.resource] : undefined;
  const filter = from?.filter ?? {};
  const query = useQuery({
    queryKey: [...resourceKeys.options(from?.resource ?? ''), from?.labelKey ?? '', filter],
    queryFn: ({ signal }) => fetchList({ name: from!.resource }, { limit: OPTIONS_LIMIT, sort: source?.defaultSort, ...filter }, signal),
    enabled: Boolean(from),
    staleTime: 60_000,
  });

  const values = Array.isArray(currentValue) ? currentValue.map(String) : typeof currentValue === 'string' && currentValue ? [currentValue] : [];
  if (!from) {
    // Declared choices; a stored value they do not hold (a choice since withdrawn) still shows, as itself.
    const options: FieldOption[] = (fieldOptions(field) ?? []).map((o) => ({ value: o.value, label: o.label }));
    for (const value of values) if (!options.some((o) => o.value === value)) options.unshift({ value, label: labelOf(value) || value });
    return { options, loading: false, error: null };
  }

  const options: FieldOption[] = (query.data?.items ?? []).map((item) => ({ value: item._id, label: String(item[from.labelKey] ?? item._id) }));
  for (const value of values) if (!options.some((o) => o.value === value)) options.unshift({ value, label: labelOf(value) || `#${value}` });
  return { options, loading: query.isPending, error: query.error };
}
