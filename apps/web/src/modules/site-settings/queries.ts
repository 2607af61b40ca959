import { siteSettingsResource, singleEndpoints, type SiteSettingsRecord } from '@pitboss/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

/** The header only needs the name: `?fields=siteName`. Kept under the settings page's key, so a save refreshes it. */
export const siteNameQuery = () =>
  queryOptions({
    queryKey: ['singles', siteSettingsResource.name, 'siteName'] as const,
    queryFn: ({ signal }) => api.get<Pick<SiteSettingsRecord, '_id' | 'siteName'>>(singleEndpoints(siteSettingsResource).read, { fields: 'siteName' }, signal),
    staleTime: 5 * 60_000,
  });
