import { rewardCardCmsEndpoints as ep } from '@pitboss/contract';
import { asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { ok } from '../../http/envelope.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { rewardCardCmsBlocks } from './table.js';

/** `GET /api/platform/v1/reward-card-page`: the active blocks of the public reward-card page, by order (then id). */
export function rewardCardCmsPlatformRoutes(app: App, ctx: AppContext): void {
  route(app, ep.platformRewardCardPage, async () => {
    const rows = await ctx.db
      .select()
      .from(rewardCardCmsBlocks)
      .where(eq(rewardCardCmsBlocks.status, 'active'))
      .orderBy(asc(rewardCardCmsBlocks.sortOrder), asc(rewardCardCmsBlocks.id));
    const latest = rows.reduce<Date | null>((m, r) => (m === null || r.updatedAt > m ? r.updatedAt : m), null);
    return ok({
      blocks: rows.map((r) => ({ _id: String(r.id), title: r.title, body: r.body, imageUrl: r.imageUrl, sortOrder: r.sortOrder, updatedAt: r.updatedAt.toISOString() })),
      updatedAt: latest?.toISOString() ?? null,
    });
  });
}
