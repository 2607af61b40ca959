import { Text } from '@mantine/core';
import { displayDateTime, exactDateTime, formatDateTime } from '../lib/dates';

/**
 * A moment as the app shows it everywhere: relative when recent, absolute otherwise, exact on hover.
 * `absolute`: always the date and time (a period's ends, "since" a date), still exact on hover.
 */
export function DateTime({ value, size = 'sm', absolute = false }: { value: unknown; size?: 'xs' | 'sm' | 'md'; absolute?: boolean }) {
  const shown = absolute ? formatDateTime(value) : displayDateTime(value);
  if (!shown) return null;
  return (
    <Text span size={size} style={{ whiteSpace: 'nowrap' }} title={exactDateTime(value)} data-datetime="">
      {shown}
    </Text>
  );
}
