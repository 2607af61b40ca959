import { RESOURCES, type ReferenceSpec } from '@pitboss/contract';
import { Group, Loader, Select, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useReferenceLabel, useReferenceSearch, type ReferenceOption } from '../hooks/useReference';
import { midSentence } from '../text';

export interface ReferenceSelectProps {
  reference: ReferenceSpec;
  name: string;
  label: string;
  /** The chosen record's id, '' for none. */
  value: string;
  onChange: (id: string) => void;
  description?: string | undefined;
  placeholder?: string | undefined;
  error?: string | undefined;
  required?: boolean | undefined;
  readOnly?: boolean | undefined;
  size?: 'xs' | 'sm';
  w?: number;
  /** A label the page already holds for the value (the record's `moduleName`), shown until the target is read. */
  knownLabel?: string | undefined;
  /** The input's own choices endpoint (`choicesPath`); without it, the target's list (for an admin who may browse it). */
  choices?: string | undefined;
}

/** Search-as-you-type picker of another resource's record: shows its label, keeps its id. */
export function ReferenceSelect(props: ReferenceSelectProps) {
  const { reference, value } = props;
  const target = RESOURCES[reference.resource];
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState(false);
  // The option just picked: its label shows at once, before the record is read by id.
  const [picked, setPicked] = useState<ReferenceOption | null>(null);
  const current = useReferenceLabel(reference, value, true, props.knownLabel ?? (picked?.value === value ? picked.label : undefined), props.choices);
  const currentLabel = value ? (current.label ?? `#${value}`) : '';
  // The input shows the chosen record's label: that text is not a search.
  const term = search.trim() === currentLabel ? '' : search.trim();
  const [debounced] = useDebouncedValue(term, 250);
  const results = useReferenceSearch(reference, debounced, open, props.choices);
  const data: ReferenceOption[] = [...results.options];
  // The chosen record stays an option (the input shows its label), first when not among the matches.
  if (value && !data.some((o) => o.value === value)) data.unshift({ value, label: currentLabel });
  const searching = results.loading || debounced !== term;
  const what = target ? midSentence(target.plural) : reference.resource;
  return (
    <Select
      name={props.name}
      label={props.label}
      description={props.description}
      size={props.size}
      w={props.w}
      placeholder={props.placeholder ?? `Search ${what}`}
      withAsterisk={props.required}
      error={props.error ?? (current.missing ? `No ${target ? midSentence(target.label) : 'record'} with id ${value}` : undefined)}
      readOnly={props.readOnly}
      searchable
      clearable={!props.required && !props.readOnly}
      data={data}
      value={value || null}
      onChange={(v, option) => {
        setPicked(v && option ? { value: v, label: option.label } : null);
        props.onChange(v ?? '');
      }}
      // Closed, the input shows the chosen record's label (it may arrive after the value: a link holds only the id).
      searchValue={open ? search : currentLabel}
      onSearchChange={setSearch}
      // The server searched already: show what it found, in its order.
      filter={({ options }) => options}
      onDropdownOpen={() => {
        setSearch(currentLabel);
        setOpen(true);
      }}
      onDropdownClose={() => setOpen(false)}
      rightSection={open && searching ? <Loader size={14} /> : undefined}
      nothingFoundMessage={searching ? 'Searching…' : results.error ? `Could not search: ${results.error.message}` : `No ${what} match`}
      renderOption={({ option }) => (
        <Group gap="xs" justify="space-between" wrap="nowrap" w="100%">
          <Text size="sm" truncate>
            {option.label}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace">
            #{option.value}
          </Text>
        </Group>
      )}
      // A narrow input's list (a filter's) as wide as its labels ("Genesis Booster at Le Comptoir des Cartes"), never narrower than the input.
      comboboxProps={
        props.w
          ? { withinPortal: true, width: 'max-content', position: 'bottom-start', styles: { dropdown: { minWidth: props.w, maxWidth: 'min(32rem, 95vw)' } } }
          : { withinPortal: true }
      }
      data-reference={reference.resource}
    />
  );
}
