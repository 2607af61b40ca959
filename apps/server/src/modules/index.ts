import type { AppContext } from '../context.js';
import type { App } from '../http/types.js';
import { accountRoutes, ownLoginHistoryDef } from './account/routes.js';
import { authRoutes } from './auth/routes.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { siteSettingsRoutes } from './site-settings/routes.js';
import { adminRoutes } from './admins/routes.js';
import { auditLogDef, modulesDef, subAdminLoginsDef, subAdminsDef, subModulesDef } from './admins/resources.js';
import { blockedIpsDef, blockedWalletsDef, faqsDef, supportCategoriesDef, tagsDef, whitelistWalletsDef } from './admin-settings/resources.js';
import { mailOutboxDef } from './mail-outbox/resource.js';
import { coinsDef } from './coins/resource.js';
import { depositsDef } from './deposits/resource.js';
import { fiatPaymentsDef } from './fiat-payments/resource.js';
import { usersDef } from './users/resource.js';
import { withdrawalsDef } from './withdrawals/resource.js';
import { adminProfitReportDef } from './ledger/profit-report.js';
import { signupReportDef } from './users/report.js';
import { registerReport } from '../resources/report.js';
import { registerResource } from '../resources/register.js';
import { platformRoutes } from './platform/routes.js';

/** Every module's routes. Each route declares its access in `config.access`. */
export function registerModules(app: App, ctx: AppContext): void {
  authRoutes(app, ctx);
  accountRoutes(app, ctx);
  dashboardRoutes(app, ctx);
  siteSettingsRoutes(app, ctx);
  adminRoutes(app, ctx);
  platformRoutes(app, ctx);
  // Declared resources: one line each.
  for (const def of [
    subAdminsDef, modulesDef, subModulesDef, auditLogDef, subAdminLoginsDef,
    blockedIpsDef(() => ctx.blockedIps.invalidate()), blockedWalletsDef, whitelistWalletsDef, faqsDef, tagsDef, supportCategoriesDef,
    mailOutboxDef, ownLoginHistoryDef,
    usersDef, coinsDef, depositsDef(ctx.config), withdrawalsDef(ctx.config), fiatPaymentsDef,
  ]) {
    registerResource(app, ctx, def);
  }
  for (const report of [signupReportDef, adminProfitReportDef]) registerReport(app, ctx, report);
}
