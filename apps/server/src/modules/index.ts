import type { AppContext } from '../context.js';
import type { App } from '../http/types.js';
import { registerReport } from '../resources/report.js';
import type { ResourceDef } from '../resources/define.js';
import { registerResources } from '../resources/register.js';
import { registerSingle } from '../resources/single.js';
import { apiDocsRoutes } from './api-docs/routes.js';
import { accountRoutes } from './account/routes.js';
import { adminProfitReportDef } from './admin-profit/report.js';
import { auditLogDef } from './audit-log/resource.js';
import { authRoutes } from './auth/routes.js';
import { twoFactorRoutes } from './two-factor/routes.js';
import { sessionRoutes } from './auth/session-routes.js';
import { savedViewRoutes } from './saved-views/routes.js';
import { blockedIpsDef } from './blocked-ips/resource.js';
import { blockedWalletsDef } from './blocked-wallets/resource.js';
import { coinsDef } from './coins/resource.js';
import { dashboardRoutes } from './dashboard/routes.js';
import type { DashboardFigures } from './dashboard/figures.js';
import { usersDashboard } from './users/dashboard.js';
import { withdrawalsDashboard } from './withdrawals/dashboard.js';
import { depositsDashboard } from './deposits/dashboard.js';
import { adminsDashboard } from './sub-admins/dashboard.js';
import { auditDashboard } from './audit-log/dashboard.js';
import { mailDashboard } from './mail-outbox/dashboard.js';
import { marketsDashboard } from './markets/dashboard.js';
import { tradingDashboard } from './orders/dashboard.js';
import { ticketsDashboard } from './tickets/dashboard.js';
import { packsDashboard } from './booster-packs/dashboard.js';
import { reconciliationDashboard } from './reconciliation/dashboard.js';
import { coinRoutes } from './coins/routes.js';
import { eventHistoryRoutes } from './events/routes.js';
import { marketOverviewRoutes } from './market-overview/routes.js';
import { depositsDef } from './deposits/resource.js';
import { faqsDef } from './faqs/resource.js';
import { fiatPaymentsDef } from './fiat-payments/resource.js';
import { ownLoginHistoryDef } from './login-history/resource.js';
import { mailOutboxDef } from './mail-outbox/resource.js';
import { modulesDef } from './modules/resource.js';
import { platformRoutes } from './platform/routes.js';
import { siteSettingsDef } from './site-settings/resource.js';
import { subAdminLoginsDef } from './sub-admin-logins/resource.js';
import { subAdminsDef } from './sub-admins/resource.js';
import { adminRoutes } from './sub-admins/routes.js';
import { subModulesDef } from './sub-modules/resource.js';
import { supportCategoriesDef } from './support-categories/resource.js';
import { tagsDef } from './tags/resource.js';
import { signupReportDef } from './users/report.js';
import { usersDef } from './users/resource.js';
import { whitelistWalletsDef } from './whitelist-wallets/resource.js';
import { withdrawalsDef } from './withdrawals/resource.js';
import { seriesDef } from './series/resource.js';
import { eventsDef } from './events/resource.js';
import { marketsDef } from './markets/resource.js';
import { resolutionsDef } from './resolutions/resource.js';
import { ordersDef } from './orders/resource.js';
import { closedPositionsDef, openPositionsDef } from './positions/resource.js';
import { tradesDef } from './trades/resource.js';
import { tradeBotsDef } from './trade-bots/resource.js';
import { uploadsRoutes } from './uploads/routes.js';
import { rewardCardCmsDef } from './reward-card-cms/resource.js';
import { cardCategoriesDef, cardCharactersDef, cardTiersDef, userCardsDef } from './cards/resource.js';
import { emailTemplatesDef } from './email-templates/resource.js';
import { emailTemplateRoutes } from './email-templates/routes.js';
import { cmsPagesDef } from './cms-pages/resource.js';
import { cmsPageRoutes } from './cms-pages/routes.js';
import { ticketsDef } from './tickets/resource.js';
import { ticketRoutes } from './tickets/routes.js';
import { notificationRoutes } from './notifications/routes.js';
import { withdrawalRoutes } from './withdrawals/routes.js';
import { boosterPackSettingsDef, boosterPacksDef, packOpeningsDef, packPurchasesDef } from './booster-packs/resource.js';
import { boosterPackPlatformRoutes } from './booster-packs/routes.js';
import { rewardCardCmsPlatformRoutes } from './reward-card-cms/routes.js';
import { rewardCardsDef, rewardGrantsDef } from './reward-cards/resource.js';
import { offlineStoresDef, storeAllocationsDef, storeCodesDef } from './offline-stores/resource.js';
import { approvalsDef } from './approvals/resource.js';
import { balanceAdjustmentsDef } from './balance-adjustments/resource.js';
import { killSwitchesDef } from './kill-switches/resource.js';
import { reconciliationsDef } from './reconciliation/resource.js';
import { reconciliationReportDef } from './reconciliation/report.js';

/** What each module shows on the dashboard, in the dashboard's order (its cards, then its series). */
const DASHBOARD_FIGURES: readonly DashboardFigures[] = [
  usersDashboard, withdrawalsDashboard, depositsDashboard, adminsDashboard, auditDashboard, mailDashboard,
  marketsDashboard, tradingDashboard, ticketsDashboard, packsDashboard, reconciliationDashboard,
];

/** Every declared resource's server definition, as the app registers them (the export test walks them all). */
export function resourceDefs(ctx: Pick<AppContext, 'config' | 'blockedIps'>): ResourceDef[] {
  return [
    subAdminsDef, modulesDef, subModulesDef, auditLogDef, subAdminLoginsDef,
    blockedIpsDef(() => ctx.blockedIps.invalidate()), blockedWalletsDef, whitelistWalletsDef, faqsDef, tagsDef, supportCategoriesDef,
    mailOutboxDef, ownLoginHistoryDef, approvalsDef,
    usersDef, balanceAdjustmentsDef, coinsDef, depositsDef(ctx.config), withdrawalsDef(ctx.config), fiatPaymentsDef, reconciliationsDef,
    seriesDef, eventsDef, marketsDef, resolutionsDef,
    ordersDef, tradesDef, openPositionsDef, closedPositionsDef,
    tradeBotsDef, killSwitchesDef,
    cardTiersDef, cardCategoriesDef, cardCharactersDef, userCardsDef, rewardCardCmsDef,
    emailTemplatesDef, cmsPagesDef,
    ticketsDef,
    boosterPacksDef, packPurchasesDef, packOpeningsDef,
    offlineStoresDef, storeAllocationsDef, storeCodesDef,
    rewardCardsDef, rewardGrantsDef,
  ];
}

/** Every module's routes. Each route declares its access in `config.access`. */
export function registerModules(app: App, ctx: AppContext): void {
  authRoutes(app, ctx);
  accountRoutes(app, ctx);
  twoFactorRoutes(app, ctx);
  sessionRoutes(app, ctx);
  dashboardRoutes(app, ctx, DASHBOARD_FIGURES);
  adminRoutes(app, ctx);
  platformRoutes(app, ctx);
  boosterPackPlatformRoutes(app, ctx);
  rewardCardCmsPlatformRoutes(app, ctx);
  marketOverviewRoutes(app, ctx);
  eventHistoryRoutes(app, ctx);
  apiDocsRoutes(app, ctx);
  uploadsRoutes(app, ctx);
  emailTemplateRoutes(app, ctx);
  cmsPageRoutes(app, ctx);
  ticketRoutes(app, ctx);
  notificationRoutes(app, ctx);
  withdrawalRoutes(app, ctx);
  coinRoutes(app, ctx);
  savedViewRoutes(app, ctx);
  // Declared resources: one line each in `resourceDefs` (registered together: references between them are checked at start).
  registerResources(app, ctx, resourceDefs(ctx));
  for (const single of [siteSettingsDef, boosterPackSettingsDef] as const) registerSingle(app, ctx, single as Parameters<typeof registerSingle>[2]);
  for (const report of [signupReportDef, adminProfitReportDef, reconciliationReportDef]) registerReport(app, ctx, report);
}
