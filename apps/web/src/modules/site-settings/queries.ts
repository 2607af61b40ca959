import type { SiteSettingsRecord } from '@pitboss/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const siteSettingsKeys = {
  all: ['site-settings'] as const,
  full: ['site-settings', 'full'] as const,
  siteName: ['site-settings', 'siteName'] as const,
};

export const siteSettingsQuery = () =>
  queryOptions({ queryKey: siteSettingsKeys.full, queryFn: ({ signal }) => api.get<SiteSettingsRecord>('/api/admin/getSiteSetting', undefined, signal) });

/** The header only needs the name: `?fields=siteName`. */
export const siteNameQuery = () =>
  queryOptions({
    queryKey: siteSettingsKeys.siteName,
    queryFn: ({ signal }) => api.get<Pick<SiteSettingsRecord, '_id' | 'siteName'>>('/api/admin/getSiteSetting', { fields: 'siteName' }, signal),
    staleTime: 5 * 60_000,
  });
