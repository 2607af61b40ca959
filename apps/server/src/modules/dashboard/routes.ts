import { accessFor, dashboardEndpoints } from '@pitboss/contract';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { ok } from '../../http/envelope.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { countCard, dailyPoints, type DashboardCard, type DashboardFigures, type FigureContext } from './figures.js';

/**
 * The dashboard shows real figures from the data there is, each declared by the module that owns
 * its tables (`DashboardFigures`) and shown, in the order given, only to admins who may view that
 * module. Days are the caller's days (the `timezone` header). Every signed-in admin sees the page:
 * it is the fallback page of the access check, so it is never denied.
 */
export function dashboardRoutes(app: App, ctx: AppContext, figures: readonly DashboardFigures[]): void {
  route(app, dashboardEndpoints.dashboard, async (req) => {
    const tz = req.timezone;
    const c: FigureContext = { db: ctx.db, tz, todayStart: sql`(date_trunc('day', now() at time zone ${tz}) at time zone ${tz})` };
    const shown = figures.filter((f) => accessFor(req.admin!, f.restriction).canView);
    const cards: DashboardCard[] = [];
    for (const f of shown) for (const count of f.counts ?? []) cards.push(await countCard(c, count));
    for (const f of shown) if (f.cards) cards.push(...(await f.cards(c)));
    const series = [];
    for (const f of shown) for (const s of f.series ?? []) series.push({ key: s.key, label: s.label, points: await dailyPoints(c, s) });
    return ok({ cards, series, timezone: tz });
  });
}
