import { Text } from '@mantine/core';
import { displayDateTime, exactDateTime } from '../lib/dates';

/** A moment as the app shows it everywhere: relative when recent, absolute otherwise, exact on hover. */
export function DateTime({ value, size = 'sm' }: { value: unknown; size?: 'xs' | 'sm' | 'md' }) {
  const shown = displayDateTime(value);
  if (!shown) return null;
  return (
    <Text span size={size} style={{ whiteSpace: 'nowrap' }} title={exactDateTime(value)}>
      {shown}
    </Text>
  );
}
