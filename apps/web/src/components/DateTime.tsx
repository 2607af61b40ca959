import { Text } from '@mantine/core';
import { displayDateTime, exactDateTime, formatDateTime } from '../lib/dates';

/**
 * A moment as the app shows it everywhere: relative when recent, absolute otherwise, exact on hover.
 * `absolute`: always the date and time (a period's ends, "since" a date), still exact on hover.
 * `wrap`: the day and the time may go on two lines ("26 Nov 2026," over "14:05") when the space is
 * short (a table's column), each whole; the text is the same.
 */
export function DateTime({ value, size = 'sm', absolute = false, wrap = false }: { value: unknown; size?: 'xs' | 'sm' | 'md'; absolute?: boolean; wrap?: boolean }) {
  const shown = absolute ? formatDateTime(value) : displayDateTime(value);
  if (!shown) return null;
  const cut = wrap ? shown.indexOf(', ') : -1;
  return (
    <Text span size={size} style={{ whiteSpace: cut < 0 ? 'nowrap' : 'normal' }} title={exactDateTime(value)} data-datetime="">
      {cut < 0 ? (
        shown
      ) : (
        <>
          <span style={{ whiteSpace: 'nowrap' }}>{shown.slice(0, cut + 1)}</span> <span style={{ whiteSpace: 'nowrap' }}>{shown.slice(cut + 2)}</span>
        </>
      )}
    </Text>
  );
}
