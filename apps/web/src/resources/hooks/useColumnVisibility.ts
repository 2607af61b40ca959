import type { ColumnSpec, ResourceSpec } from '@pitboss/contract';
import { useCallback, useMemo, useState } from 'react';

const storageKey = (name: string) => `pitboss.columns.${name}`;

function readStored(name: string): Record<string, boolean> {
  try {
    const raw = localStorage.getItem(storageKey(name));
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'boolean')) as Record<string, boolean>;
    }
  } catch {
    // unreadable or unavailable storage: the declared defaults apply
  }
  return {};
}

/**
 * Which columns show, per resource, kept in local storage. Only the user's
 * choices are stored, so a column added to the declaration later shows (or
 * hides) by its own default.
 */
export function useColumnVisibility(spec: Pick<ResourceSpec, 'name' | 'columns'>) {
  const [choices, setChoices] = useState<Record<string, boolean>>(() => readStored(spec.name));

  const isVisible = useCallback((column: ColumnSpec) => choices[column.key] ?? !column.hidden, [choices]);

  const setVisible = useCallback(
    (key: string, visible: boolean) => {
      setChoices((prev) => {
        const next = { ...prev, [key]: visible };
        try {
          localStorage.setItem(storageKey(spec.name), JSON.stringify(next));
        } catch {
          // storage full or blocked: the choice lasts for this page only
        }
        return next;
      });
    },
    [spec.name],
  );

  const reset = useCallback(() => {
    setChoices({});
    try {
      localStorage.removeItem(storageKey(spec.name));
    } catch {
      // nothing stored
    }
  }, [spec.name]);

  const visibleColumns = useMemo(() => {
    const shown = spec.columns.filter(isVisible);
    // Never an empty table: with everything hidden, the first column stays.
    return shown.length > 0 ? shown : spec.columns.slice(0, 1);
  }, [spec.columns, isVisible]);

  return { visibleColumns, isVisible, setVisible, reset };
}
