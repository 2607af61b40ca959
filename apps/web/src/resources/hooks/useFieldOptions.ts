import { RESOURCES, type FormFieldSpec } from '@pitboss/contract';
import { useQuery } from '@tanstack/react-query';
import { fetchList, resourceKeys } from '../api';

export interface FieldOption {
  value: string;
  label: string;
}

/** Most option lists are short catalogues; one page of the API's maximum is plenty. */
const OPTIONS_LIMIT = 200;

/**
 * Options of a select field: the declared ones, or another resource's records
 * (`optionsFrom`: value = `_id`, label = `labelKey`). When that list cannot be
 * read (no permission), the current value stays selectable under a fallback label.
 */
export function useFieldOptions(field: FormFieldSpec, currentValue: unknown, currentLabel?: string) {
  const from = field.optionsFrom;
  const source = from ? RESOURCES[from.resource] : undefined;
  const query = useQuery({
    queryKey: [...resourceKeys.options(from?.resource ?? ''), from?.labelKey ?? ''],
    queryFn: ({ signal }) => fetchList({ name: from!.resource }, { limit: OPTIONS_LIMIT, sort: source?.defaultSort }, signal),
    enabled: Boolean(from),
    staleTime: 60_000,
  });

  if (!from) return { options: (field.options ?? []).map((o) => ({ value: o.value, label: o.label })), loading: false, error: null };

  const options: FieldOption[] = (query.data?.items ?? []).map((item) => ({ value: item._id, label: String(item[from.labelKey] ?? item._id) }));
  const value = typeof currentValue === 'string' ? currentValue : '';
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: currentLabel || `#${value}` });
  return { options, loading: query.isPending, error: query.error };
}
