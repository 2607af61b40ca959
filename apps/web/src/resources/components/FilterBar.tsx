import { choicesPath, filterOptions, type FilterOption, type FilterSpec, type ReferenceSpec, type ResourceSpec } from '@pitboss/contract';
import { Button, Group, MultiSelect, Select, TextInput } from '@mantine/core';
import { IconSearch, IconX } from '@tabler/icons-react';
import type { ResourceListController } from '../hooks/useResourceList';
import { useDebouncedInput } from '../hooks/useDebouncedInput';
import { useCanPick } from '../hooks/useReference';
import { activeFilterCount } from '../listState';
import { midSentence } from '../text';
import { ReferenceSelect } from './ReferenceSelect';
import { DateRangeInput } from '../../components/DateRangeInput';

type Props = Pick<ResourceListController, 'spec' | 'state' | 'setSearch' | 'setFilter' | 'setFilters' | 'clearFilters'>;

function DebouncedText(props: { label: string; value: string; onCommit: (v: string) => void; placeholder?: string; type?: string; w?: number; name: string }) {
  const [text, onChange, flush] = useDebouncedInput(props.value, props.onCommit);
  return (
    <TextInput
      size="xs"
      label={props.label}
      name={props.name}
      placeholder={props.placeholder}
      type={props.type}
      w={props.w ?? 160}
      value={text}
      onChange={(e) => onChange(e.currentTarget.value)}
      onKeyDown={(e) => e.key === 'Enter' && flush()}
    />
  );
}

/**
 * A reference filter: the target's records picked by name (the URL keeps the id), offered by the
 * list's own choices endpoint (under the list's right: a sub-admin who may not browse the target
 * still picks by name); on a list open to every admin, which has none, the id is typed in without
 * the right to browse the target.
 */
function ReferenceFilter({ spec, filter, reference, value, setFilter }: { spec: ResourceSpec; filter: FilterSpec; reference: ReferenceSpec; value: string; setFilter: Props['setFilter'] }) {
  const choices = spec.restriction ? choicesPath(spec.name, { kind: 'filter', key: filter.key }) : undefined;
  const canPick = useCanPick(reference, choices);
  if (!canPick) {
    return <DebouncedText name={filter.key} label={`${filter.label} id`} placeholder="Id" value={value} onCommit={(v) => setFilter(filter.key, /^\d{1,18}$/.test(v.trim()) ? v.trim() : '')} />;
  }
  return <ReferenceSelect reference={reference} choices={choices} size="xs" w={220} name={filter.key} label={filter.label} placeholder="Any" value={value} onChange={(id) => setFilter(filter.key, id)} />;
}

/** One declared choice, picked by its label (searchable); the URL and the API get its value. A value from the URL that is not declared still shows, as itself. */
function OptionFilter({ filter, options, value, setFilter }: { filter: FilterSpec; options: readonly FilterOption[]; value: string; setFilter: Props['setFilter'] }) {
  const data = options.some((o) => o.value === value) || !value ? options : [{ value, label: value }, ...options];
  return (
    <Select
      size="xs"
      label={filter.label}
      name={filter.key}
      w={220}
      data={data.map((o) => ({ value: o.value, label: o.label }))}
      value={value || null}
      onChange={(v) => setFilter(filter.key, v ?? '')}
      placeholder="Any"
      searchable
      clearable
      nothingFoundMessage="No match"
      comboboxProps={{ withinPortal: true }}
    />
  );
}

function FilterControl({ spec, filter, values, setFilter, setFilters }: { spec: ResourceSpec; filter: FilterSpec; values: Record<string, string>; setFilter: Props['setFilter']; setFilters: Props['setFilters'] }) {
  switch (filter.type) {
    case 'equals':
      if (filter.reference) return <ReferenceFilter spec={spec} filter={filter} reference={filter.reference} value={values[filter.key] ?? ''} setFilter={setFilter} />;
      if (filter.options) return <OptionFilter filter={filter} options={filterOptions(filter) ?? []} value={values[filter.key] ?? ''} setFilter={setFilter} />;
      return <DebouncedText name={filter.key} label={filter.label} value={values[filter.key] ?? ''} onCommit={(v) => setFilter(filter.key, v.trim())} />;
    case 'oneOf':
      return (
        <MultiSelect
          size="xs"
          label={filter.label}
          name={filter.key}
          w={200}
          data={filter.options.map((o) => ({ value: o.value, label: o.label }))}
          value={values[filter.key] ? values[filter.key]!.split(',') : []}
          onChange={(v) => setFilter(filter.key, v.join(','))}
          placeholder={values[filter.key] ? undefined : 'Any'}
          clearable
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'range':
      return (
        <Group gap={4} align="flex-end" wrap="nowrap">
          {(['min', 'max'] as const).map((end) => {
            const name = `${filter.key}_${end}`;
            return (
              <DebouncedText
                key={end}
                name={name}
                type="number"
                w={96}
                label={`${filter.label} ${end === 'min' ? 'from' : 'to'}`}
                value={values[name] ?? ''}
                // Whole numbers only (the API's range filter); anything else clears the bound.
                onCommit={(v) => setFilter(name, /^-?\d{1,30}$/.test(v.trim()) ? v.trim() : '')}
              />
            );
          })}
        </Group>
      );
    case 'dateRange':
      return (
        <DateRangeInput
          label={filter.label}
          name={filter.key}
          from={values[`${filter.key}_from`] ?? ''}
          to={values[`${filter.key}_to`] ?? ''}
          onChange={(from, to) => setFilters({ [`${filter.key}_from`]: from, [`${filter.key}_to`]: to })}
        />
      );
  }
}

/** Search box and one control per declared filter; every change goes to the URL. */
export function FilterBar({ spec, state, setSearch, setFilter, setFilters, clearFilters }: Props) {
  const [q, onQ, flushQ] = useDebouncedInput(state.q, setSearch);
  const active = activeFilterCount(state);
  if (!spec.search && spec.filters.length === 0) return null;
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      {spec.search && (
        <TextInput
          size="xs"
          label="Search"
          name="q"
          aria-label={`Search ${midSentence(spec.plural)}`}
          placeholder={`Search ${spec.search}`}
          leftSection={<IconSearch size={14} />}
          w={240}
          value={q}
          onChange={(e) => onQ(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && flushQ()}
        />
      )}
      {spec.filters.map((f) => (
        <FilterControl key={f.key} spec={spec} filter={f} values={state.filters} setFilter={setFilter} setFilters={setFilters} />
      ))}
      {active > 0 && (
        <Button size="xs" variant="subtle" color="gray" leftSection={<IconX size={14} />} onClick={clearFilters}>
          Clear filters ({active})
        </Button>
      )}
    </Group>
  );
}
