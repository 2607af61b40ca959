import { RESTRICTION_MODULE, RESTRICTION_NAMES, SIDEBAR_GROUPS, type RestrictionName } from '@pitboss/contract';
import { useQuery } from '@tanstack/react-query';
import { fetchApi } from '../../lib/api';

export interface CatalogueGroup {
  module: string;
  /** Restriction names, in display order. */
  names: RestrictionName[];
}

/** The contract's own grouping: every restriction name under its sidebar group. */
export function fallbackCatalogue(): CatalogueGroup[] {
  return SIDEBAR_GROUPS.map((module) => ({
    module,
    names: RESTRICTION_NAMES.filter((n) => RESTRICTION_MODULE[n] === module),
  })).filter((g) => g.names.length > 0);
}

/**
 * The permission catalogue for the rights matrix (`GET /api/admin/permission-catalogue`,
 * readable with the Sub Admin right): active sub modules grouped by their
 * active module, in the catalogue's order; the contract's grouping if the
 * catalogue is empty.
 */
export function usePermissionCatalogue() {
  const query = useQuery({
    // Under the resources' keys, so editing modules or sub modules refreshes the matrix.
    queryKey: ['resources', 'sub-modules', 'catalogue'],
    queryFn: async ({ signal }) => {
      const { groups } = await fetchApi('GET /api/admin/permission-catalogue', { signal });
      return { groups: groups.length > 0 ? groups : fallbackCatalogue(), source: groups.length > 0 ? ('catalogue' as const) : ('contract' as const) };
    },
    staleTime: 60_000,
  });
  return { groups: query.data?.groups ?? [], source: query.data?.source, isLoading: query.isPending, error: query.error, refetch: query.refetch };
}
