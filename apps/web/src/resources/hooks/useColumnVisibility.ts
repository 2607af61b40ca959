import { RESOURCES, type ColumnSpec, type ResourceSpec } from '@pitboss/contract';
import { useCallback, useMemo, useState } from 'react';

const shownByDefault = (columns: readonly ColumnSpec[]) =>
  columns
    .filter((c) => !c.hidden)
    .map((c) => c.key)
    .join(',');

/**
 * Where a list's column choices are kept: per resource, and per arrangement of it that shows other
 * columns by default (a view such as the unresolved markets, a tab that leaves out its parent), so
 * showing a column on one page does not show it on the others.
 */
export function columnsStorageKey(spec: Pick<ResourceSpec, 'name' | 'columns'>): string {
  const own = RESOURCES[spec.name];
  const defaults = shownByDefault(spec.columns);
  return !own || shownByDefault(own.columns) === defaults ? `pitboss.columns.${spec.name}` : `pitboss.columns.${spec.name}@${defaults}`;
}

function readStored(key: string): Record<string, boolean> {
  try {
    const raw = localStorage.getItem(key);
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
 * Which columns show, per resource (and arrangement: `columnsStorageKey`), kept in local storage. Only the user's
 * choices are stored, so a column added to the declaration later shows (or
 * hides) by its own default.
 */
export function useColumnVisibility(spec: Pick<ResourceSpec, 'name' | 'columns'>) {
  const storageKey = columnsStorageKey(spec);
  const [choices, setChoices] = useState<Record<string, boolean>>(() => readStored(storageKey));

  const isVisible = useCallback((column: ColumnSpec) => choices[column.key] ?? !column.hidden, [choices]);

  const setVisible = useCallback(
    (key: string, visible: boolean) => {
      setChoices((prev) => {
        const next = { ...prev, [key]: visible };
        try {
          localStorage.setItem(storageKey, JSON.stringify(next));
        } catch {
          // storage full or blocked: the choice lasts for this page only
        }
        return next;
      });
    },
    [storageKey],
  );

  const reset = useCallback(() => {
    setChoices({});
    try {
      localStorage.removeItem(storageKey);
    } catch {
      // nothing stored
    }
  }, [storageKey]);

  /** Shows exactly these columns (a saved view's), or with null the declared defaults. */
  const showOnly = useCallback(
    (keys: readonly string[] | null) => {
      if (keys === null) {
        reset();
        return;
      }
      const next = Object.fromEntries(spec.columns.map((c) => [c.key, keys.includes(c.key)]));
      setChoices(next);
      try {
        localStorage.setItem(storageKey, JSON.stringify(next));
      } catch {
        // storage full or blocked: the choice lasts for this page only
      }
    },
    [spec.columns, storageKey, reset],
  );

  const visibleColumns = useMemo(() => {
    const shown = spec.columns.filter(isVisible);
    // Never an empty table: with everything hidden, the first column stays.
    return shown.length > 0 ? shown : spec.columns.slice(0, 1);
  }, [spec.columns, isVisible]);

  return { visibleColumns, isVisible, setVisible, reset, showOnly };
}
