import { RESTRICTION_MODULE, RESTRICTION_NAMES, SIDEBAR_GROUPS } from '@pitboss/contract';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../lib/api';
import { fetchList } from '../api';

export interface CatalogueGroup {
  module: string;
  /** Restriction names, in display order. */
  names: string[];
}

interface ModuleItem {
  _id: string;
  name: string;
  sortOrder: number;
  status: string;
}
interface SubModuleItem {
  _id: string;
  name: string;
  moduleId: string;
  moduleName: string;
  sortOrder: number;
  status: string;
}

const CATALOGUE_QUERY = { limit: 200, sort: 'sortOrder' };

/** The contract's own grouping: every restriction name under its sidebar group. */
export function fallbackCatalogue(): CatalogueGroup[] {
  return SIDEBAR_GROUPS.map((module) => ({
    module,
    names: RESTRICTION_NAMES.filter((n) => RESTRICTION_MODULE[n] === module),
  })).filter((g) => g.names.length > 0);
}

function groupCatalogue(modules: ModuleItem[], subModules: SubModuleItem[]): CatalogueGroup[] {
  const groups: CatalogueGroup[] = [];
  const active = subModules.filter((s) => s.status === 'active');
  for (const m of modules.filter((x) => x.status === 'active')) {
    const names = active.filter((s) => s.moduleId === m._id).map((s) => s.name);
    if (names.length > 0) groups.push({ module: m.name, names: [...new Set(names)] });
  }
  return groups;
}

/**
 * The permission catalogue for the rights matrix: active sub modules grouped
 * by their (active) module, in the catalogue's order. An admin who may not
 * read modules or sub modules (403) gets the contract's grouping instead.
 */
export function usePermissionCatalogue() {
  const query = useQuery({
    // Under the two resources' keys, so editing either refreshes the matrix.
    queryKey: ['resources', 'sub-modules', 'catalogue'],
    queryFn: async ({ signal }) => {
      try {
        const [modules, subModules] = await Promise.all([
          fetchList<ModuleItem>({ name: 'modules' }, CATALOGUE_QUERY, signal),
          fetchList<SubModuleItem>({ name: 'sub-modules' }, CATALOGUE_QUERY, signal),
        ]);
        const groups = groupCatalogue(modules.items, subModules.items);
        return { groups: groups.length > 0 ? groups : fallbackCatalogue(), source: groups.length > 0 ? ('catalogue' as const) : ('contract' as const) };
      } catch (err) {
        if (err instanceof ApiError && err.status === 403) return { groups: fallbackCatalogue(), source: 'contract' as const };
        throw err;
      }
    },
    staleTime: 60_000,
  });
  return { groups: query.data?.groups ?? [], source: query.data?.source, isLoading: query.isPending, error: query.error, refetch: query.refetch };
}
