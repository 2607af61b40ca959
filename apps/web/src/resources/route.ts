import { reportForPage, resourceForPage, singleForPage } from '@pitboss/contract';
import type { ComponentType } from 'react';

type PageModule = { default: ComponentType };

/**
 * For the router: the page module of a route pattern when a resource declares
 * it (list, add or update) or a report does, or null. Loaded lazily, so the resource
 * declarations (and their schemas) stay out of the first-load bundle.
 */
export function resourcePageFor(pattern: string): (() => Promise<PageModule>) | null {
  if (resourceForPage(pattern) || singleForPage(pattern)) return () => import('./ResourcePage');
  if (reportForPage(pattern)) return () => import('./components/ReportPage');
  return null;
}
