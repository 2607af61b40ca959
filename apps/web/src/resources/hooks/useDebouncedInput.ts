import { useDebouncedCallback } from '@mantine/hooks';
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A text input whose value is committed (to the URL) after a pause in
 * typing. The shown text follows the committed value when it changes from
 * elsewhere (Clear filters, the back button), but not while typing.
 */
export function useDebouncedInput(committed: string, commit: (value: string) => void, delay = 350) {
  const [text, setText] = useState(committed);
  const typing = useRef(false);
  useEffect(() => {
    if (!typing.current) setText(committed);
  }, [committed]);
  const debounced = useDebouncedCallback((value: string) => {
    typing.current = false;
    commit(value);
  }, delay);
  const onChange = useCallback(
    (value: string) => {
      typing.current = true;
      setText(value);
      debounced(value);
    },
    [debounced],
  );
  /** Commit now (Enter). */
  const flush = useCallback(() => debounced.flush(), [debounced]);
  return [text, onChange, flush] as const;
}
