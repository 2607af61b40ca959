import type { RestrictionEntry } from '@pitboss/contract';

/** Rights as the matrix holds them: only granted names, `canEdit` implying `canView`. */
export function normaliseRights(value: unknown): RestrictionEntry[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((e): e is RestrictionEntry => typeof e === 'object' && e !== null && typeof (e as RestrictionEntry).name === 'string')
    .map((e): RestrictionEntry => {
      const rights = Array.isArray(e.rights) ? e.rights.filter((r): r is string => typeof r === 'string') : [];
      const base = { name: e.name, canView: e.canView === true || e.canEdit === true || rights.length > 0, canEdit: e.canEdit === true };
      return rights.length ? { ...base, rights } : base;
    })
    .filter((e) => e.canView);
}
