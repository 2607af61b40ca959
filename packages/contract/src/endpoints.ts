import { apiDocsEndpoints } from './api-docs.js';
import { accountEndpoints, authEndpoints } from './modules/auth.js';
import { dashboardEndpoints } from './modules/dashboard.js';
import { eventHistoryEndpoints } from './modules/events.js';
import { marketOverviewEndpoints } from './modules/market-overview.js';
import { sessionEndpoints } from './modules/sessions.js';
import { savedViewEndpoints } from './modules/saved-views.js';
import { subAdminEndpoints } from './modules/sub-admins.js';
import { twoFactorEndpoints } from './modules/two-factor.js';
import { uploadsEndpoints } from './modules/uploads.js';
import { emailTemplateEndpoints } from './modules/email-templates.js';
import { cmsPageEndpoints } from './modules/cms-pages.js';
import { coinEndpoints } from './modules/coins.js';
import { rewardCardCmsEndpoints } from './modules/reward-card-cms.js';
import { ticketEndpoints } from './modules/tickets.js';
import { notificationEndpoints } from './modules/notifications.js';
import { packPlatformEndpoints } from './modules/booster-packs.js';
import { platformEndpoints } from './platform.js';
import { withdrawalEndpoints } from './modules/withdrawals.js';
import { reportEndpointDefs, resourceEndpoints, singleEndpointDefs } from './resources/derived.js';
import type { Endpoint } from './resources/endpoint.js';
import { REPORTS, RESOURCES, SINGLES } from './resources/index.js';

/**
 * Every endpoint written out by hand in the contract, by key (`'POST /api/admin/login'`). The web's
 * client takes these keys and is typed from this object (`import type`, so no schema reaches the
 * sign-in page's bundle); the server registers each with `route()`.
 */
const HAND_WRITTEN = { ...authEndpoints, ...accountEndpoints, ...dashboardEndpoints, ...subAdminEndpoints, ...sessionEndpoints, ...savedViewEndpoints, ...platformEndpoints, ...marketOverviewEndpoints, ...eventHistoryEndpoints, ...twoFactorEndpoints, ...apiDocsEndpoints, ...emailTemplateEndpoints, ...cmsPageEndpoints, ...uploadsEndpoints, ...ticketEndpoints, ...notificationEndpoints, ...packPlatformEndpoints, ...rewardCardCmsEndpoints, ...withdrawalEndpoints, ...coinEndpoints };

type ByKey<T extends Record<string, Endpoint>> = { [N in keyof T as T[N]['key']]: T[N] };
export const ENDPOINTS = Object.fromEntries(Object.values(HAND_WRITTEN).map((e) => [e.key, e])) as ByKey<typeof HAND_WRITTEN>;
export type Endpoints = typeof ENDPOINTS;
export type ApiKey = keyof Endpoints;

/**
 * Every endpoint of the API: the hand-written ones and those each declaration gives (resources,
 * single records, reports). The server's routes must be exactly these (a test compares).
 */
export function allEndpoints(): Endpoint[] {
  return [
    ...Object.values(ENDPOINTS),
    ...Object.values(RESOURCES).flatMap(resourceEndpoints),
    ...Object.values(SINGLES).flatMap((s) => Object.values(singleEndpointDefs(s))),
    ...Object.values(REPORTS).flatMap((r) => Object.values(reportEndpointDefs(r))),
  ];
}
