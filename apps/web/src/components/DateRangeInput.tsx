import '@mantine/dates/styles.css';
import { DatePickerInput } from '@mantine/dates';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { DATE_FORMAT } from '../lib/dates';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (v: string | null | undefined): string | null => (v && DAY.test(v) ? v : null);

/**
 * A range of days as the rest of the app writes dates ("3 Nov 2026 – 26 Nov 2026", the admin's time
 * zone), picked on a calendar. Values are `YYYY-MM-DD` (what the API's `_from`/`_to` take); either
 * end may be open. Its own chunk with the page that uses it (never the first load).
 */
export function DateRangeInput(props: {
  label: string;
  /** The form name of the field ("createdAt"): the inputs carry `<name>_from` and `<name>_to`. */
  name: string;
  from: string;
  to: string;
  onChange: (from: string, to: string) => void;
  /** Whether both ends must be set (a report's period) or the range can be cleared. */
  required?: boolean;
  maxToday?: boolean;
  w?: number;
}) {
  // The range being picked (first day chosen, second not yet) lives here until it is whole.
  const [value, setValue] = useState<[string | null, string | null]>([day(props.from), day(props.to)]);
  useEffect(() => setValue([day(props.from), day(props.to)]), [props.from, props.to]);
  return (
    <DatePickerInput
      type="range"
      size="xs"
      w={props.w ?? 250}
      label={props.label}
      name={props.name}
      placeholder="Any time"
      valueFormat={DATE_FORMAT}
      labelSeparator="–"
      allowSingleDateInRange
      clearable={!props.required}
      maxDate={props.maxToday ? dayjs().format('YYYY-MM-DD') : undefined}
      value={value}
      onChange={([from, to]) => {
        setValue([from, to]);
        if (from && !to) return;
        if (props.required && (!from || !to)) return;
        props.onChange(day(from) ?? '', day(to) ?? '');
      }}
      popoverProps={{ withinPortal: true }}
      data-testid={`date-range-${props.name}`}
    />
  );
}
