import type { AppContext } from '../context.js';
import type { App } from '../http/types.js';
import { accountRoutes } from './account/routes.js';
import { authRoutes } from './auth/routes.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { siteSettingsRoutes } from './site-settings/routes.js';
import { adminRoutes } from './admins/routes.js';

/** Every module's routes. Each route declares its access in `config.access`. */
export function registerModules(app: App, ctx: AppContext): void {
  authRoutes(app, ctx);
  accountRoutes(app, ctx);
  dashboardRoutes(app, ctx);
  siteSettingsRoutes(app, ctx);
  adminRoutes(app, ctx);
}
