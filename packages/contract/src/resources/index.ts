import { adminProfitReport } from '../modules/admin-profit.js';
import { auditLogResource } from '../modules/audit-log.js';
import { blockedIpsResource } from '../modules/blocked-ips.js';
import { blockedWalletsResource } from '../modules/blocked-wallets.js';
import { coinsResource } from '../modules/coins.js';
import { depositsResource } from '../modules/deposits.js';
import { faqsResource } from '../modules/faqs.js';
import { fiatPaymentsResource } from '../modules/fiat-payments.js';
import { ownLoginHistoryResource } from '../modules/login-history.js';
import { mailOutboxResource } from '../modules/mail-outbox.js';
import { emailTemplatesResource } from '../modules/email-templates.js';
import { cmsPagesResource } from '../modules/cms-pages.js';
import { modulesResource } from '../modules/modules.js';
import { subAdminLoginsResource } from '../modules/sub-admin-logins.js';
import { subAdminsResource } from '../modules/sub-admins.js';
import { subModulesResource } from '../modules/sub-modules.js';
import { supportCategoriesResource } from '../modules/support-categories.js';
import { tagsResource } from '../modules/tags.js';
import { signupReport, usersResource } from '../modules/users.js';
import { whitelistWalletsResource } from '../modules/whitelist-wallets.js';
import { withdrawalsResource } from '../modules/withdrawals.js';
import { approvalsResource } from '../modules/approvals.js';
import { balanceAdjustmentsResource } from '../modules/balance-adjustments.js';
import { killSwitchesResource } from '../modules/kill-switches.js';
import { reconciliationReport, reconciliationsResource } from '../modules/reconciliation.js';
import { seriesResource } from '../modules/series.js';
import { eventsResource } from '../modules/events.js';
import { marketsResource } from '../modules/markets.js';
import { resolutionsResource } from '../modules/resolutions.js';
import { closedPositionsResource, openPositionsResource, ordersResource, tradesResource } from '../modules/orders.js';
import { siteSettingsResource } from '../modules/site-settings.js';
import { tradeBotsResource } from '../modules/trade-bots.js';
import { rewardCardCmsResource } from '../modules/reward-card-cms.js';
import { cardCategoriesResource, cardCharactersResource, cardTiersResource, userCardsResource } from '../modules/cards.js';
import { ticketsResource } from '../modules/tickets.js';
import { rewardCardsResource, rewardGrantsResource } from '../modules/reward-cards.js';
import { offlineStoresResource, storeAllocationsResource, storeCodesResource } from '../modules/offline-stores.js';
import { boosterPackSettingsResource, boosterPacksResource, packOpeningsResource, packPurchasesResource } from '../modules/booster-packs.js';
import { AUDIT_OTHER_RESOURCES } from '../audit.js';
import { countryList } from '../lib/fields.js';
import type { ReportSpec } from './report.js';
import type { SingleSpec } from './single.js';
import type { ColumnSpec, FilterOption, FilterSpec, FormFieldSpec, ListViewSpec, ResourceSpec } from './spec.js';

/** Every declared resource, by API name. A new module adds one entry. */
export const RESOURCES: Record<string, ResourceSpec> = Object.fromEntries(
  [
    subAdminsResource, modulesResource, subModulesResource, auditLogResource, subAdminLoginsResource,
    blockedIpsResource, blockedWalletsResource, whitelistWalletsResource, faqsResource, tagsResource, supportCategoriesResource,
    mailOutboxResource, ownLoginHistoryResource,
    usersResource, coinsResource, depositsResource, withdrawalsResource, fiatPaymentsResource,
    seriesResource, eventsResource, marketsResource, resolutionsResource,
    ordersResource, tradesResource, openPositionsResource, closedPositionsResource,
    tradeBotsResource,
    cardTiersResource, cardCategoriesResource, cardCharactersResource, userCardsResource, rewardCardCmsResource,
    emailTemplatesResource, cmsPagesResource,
    ticketsResource,
    boosterPacksResource, packPurchasesResource, packOpeningsResource,
    offlineStoresResource, storeAllocationsResource, storeCodesResource,
    rewardCardsResource, rewardGrantsResource,
    approvalsResource,
    balanceAdjustmentsResource,
    killSwitchesResource,
    reconciliationsResource,
  ].map((r) => [r.name, r]),
);

/** Every declared report, by API name. */
export const REPORTS: Record<string, ReportSpec> = Object.fromEntries([signupReport, adminProfitReport, reconciliationReport].map((r) => [r.name, r]));

export const reportForPage = (page: string): ReportSpec | undefined => Object.values(REPORTS).find((r) => r.page === page);

/** Every single-record resource (settings), by API name. */
export const SINGLES: Record<string, SingleSpec> = Object.fromEntries([siteSettingsResource, boosterPackSettingsResource].map((r) => [r.name, r]));

export const singleForPage = (page: string): SingleSpec | undefined => Object.values(SINGLES).find((r) => r.page === page);

/** The resource whose list, add or update page (or one of its list views) is this route pattern. */
export function resourceForPage(pattern: string): { spec: ResourceSpec; page: 'list' | 'add' | 'update' } | { spec: ResourceSpec; page: 'view'; view: ListViewSpec } | undefined {
  for (const spec of Object.values(RESOURCES)) {
    if (spec.pages.list === pattern) return { spec, page: 'list' };
    if (spec.pages.add === pattern) return { spec, page: 'add' };
    if (spec.pages.update === pattern) return { spec, page: 'update' };
    const view = spec.views?.find((v) => v.page === pattern);
    if (view) return { spec, page: 'view', view };
  }
  return undefined;
}

/**
 * Every API resource name with its declaration's title (a resource's plural, a single's label, a
 * report's title) and the audit log's other names: what `options: 'resources'` offers, by label.
 */
export function resourceNameOptions(): FilterOption[] {
  const named = new Map<string, string>();
  for (const r of Object.values(RESOURCES)) named.set(r.name, r.plural);
  for (const s of Object.values(SINGLES)) named.set(s.name, s.label);
  for (const r of Object.values(REPORTS)) named.set(r.name, r.title);
  for (const [name, label] of Object.entries(AUDIT_OTHER_RESOURCES)) if (!named.has(name)) named.set(name, label);
  return [...named].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
}

let countryChoices: FilterOption[] | null = null;
/** Every country code `isCountryCode` accepts, as "France (FR)", by name: what `options: 'countries'` offers. */
export function countryOptions(): readonly FilterOption[] {
  countryChoices ??= countryList().map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }));
  return countryChoices;
}

/** The declared choices of a filter (a `oneOf`'s, an `equals` with `options`), or null when it takes free text or a record. */
export function filterOptions(filter: FilterSpec): readonly FilterOption[] | null {
  if (filter.type === 'oneOf') return filter.options;
  if (filter.type === 'equals' && filter.options) {
    if (filter.options === 'resources') return resourceNameOptions();
    if (filter.options === 'countries') return countryOptions();
    return filter.options;
  }
  return null;
}

/** The declared choices of a form field (a `select`'s `options`, `'countries'` among them), or null when it declares none (`optionsFrom`, free input). */
export function fieldOptions(field: Pick<FormFieldSpec, 'options'>): readonly FilterOption[] | null {
  if (field.options === 'countries') return countryOptions();
  return field.options ?? null;
}

/** The declared option a column's value is, by its filter of the same key (its label and colour), or undefined: the value as it is. */
export function columnValueOption(spec: ResourceSpec, column: ColumnSpec, value: unknown): FilterOption | undefined {
  if (typeof value !== 'string') return undefined;
  const filter = spec.filters.find((f) => f.key === column.key);
  if (!filter) return undefined;
  return filterOptions(filter)?.find((o) => o.value === String(value));
}

/** What a column shows for a value its filter of the same key declares (the label), or undefined: the value as it is. */
export function columnValueLabel(spec: ResourceSpec, column: ColumnSpec, value: unknown): string | undefined {
  return columnValueOption(spec, column, value)?.label;
}
