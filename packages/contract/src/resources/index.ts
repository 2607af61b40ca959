import { auditLogResource, modulesResource, subAdminLoginsResource, subAdminsResource, subModulesResource } from './admin-controller.js';
import { blockedIpsResource, blockedWalletsResource, faqsResource, supportCategoriesResource, tagsResource, whitelistWalletsResource } from './admin-settings.js';
import { ownLoginHistoryResource } from './account.js';
import { mailOutboxResource } from './mail-outbox.js';
import { coinsResource, depositsResource, fiatPaymentsResource, usersResource, withdrawalsResource } from './money.js';
import type { ResourceSpec } from './spec.js';

export * from './spec.js';
export * from './solana.js';
export * from './ip.js';
export * from './admin-settings.js';
export * from './admin-controller.js';
export * from './mail-outbox.js';
export * from './account.js';
export * from './money.js';

/** Every declared resource, by API name. */
export const RESOURCES: Record<string, ResourceSpec> = Object.fromEntries(
  [
    subAdminsResource, modulesResource, subModulesResource, auditLogResource, subAdminLoginsResource,
    blockedIpsResource, blockedWalletsResource, whitelistWalletsResource, faqsResource, tagsResource, supportCategoriesResource,
    mailOutboxResource, ownLoginHistoryResource,
    usersResource, coinsResource, depositsResource, withdrawalsResource, fiatPaymentsResource,
  ].map((r) => [r.name, r]),
);

/** The resource whose list, add or update page is this route pattern. */
export function resourceForPage(pattern: string): { spec: ResourceSpec; page: 'list' | 'add' | 'update' } | undefined {
  for (const spec of Object.values(RESOURCES)) {
    if (spec.pages.list === pattern) return { spec, page: 'list' };
    if (spec.pages.add === pattern) return { spec, page: 'add' };
    if (spec.pages.update === pattern) return { spec, page: 'update' };
  }
  return undefined;
}
