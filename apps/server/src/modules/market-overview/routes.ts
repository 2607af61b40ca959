import { marketOverviewEndpoints, type MarketOverviewEventName } from '@pitboss/contract';
import type { AppContext } from '../../context.js';
import { ok } from '../../http/envelope.js';
import { EventStreams, openEventStream } from '../../http/event-stream.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { MarketOverviewHub } from './hub.js';
import { marketDepth, overviewRows } from './service.js';

/**
 * The market overview: two snapshot endpoints and the stream (docs/markets.md, "Market overview").
 *
 * The stream is authenticated like every API call, by the `Authorization: Bearer` header, before
 * the handler runs (the route's declared access: `Markets`, read), so the web reads it with
 * `fetch` rather than `EventSource` (which cannot send a header): the session token never goes
 * into a URL, where access logs, proxies and the browser history would keep it.
 */
export function marketOverviewRoutes(app: App, ctx: AppContext): void {
  const hub = new MarketOverviewHub(ctx.db, ctx.log);
  const streams = new EventStreams();
  // Open streams would keep the server from closing: the hub refuses new ones at once, the open ones end, then the change feed closes.
  app.addHook('preClose', async () => {
    const closing = hub.close();
    streams.endAll('The server is stopping', 503);
    await closing;
  });

  route(app, marketOverviewEndpoints.overview, async () => ok({ markets: await overviewRows(ctx.db), at: new Date().toISOString() }));

  route(app, marketOverviewEndpoints.depth, async (req) => {
    const depth = await marketDepth(ctx.db, Number(req.params.id));
    return ok(depth);
  });

  route(app, marketOverviewEndpoints.stream, async (req, reply) => {
    const market = req.query.market === undefined ? null : Number(req.query.market);
    // An unknown market is a 404 while an answer can still be given.
    if (market !== null) await marketDepth(ctx.db, market);
    return openEventStream<MarketOverviewEventName>(req, reply, ctx, {
      access: marketOverviewEndpoints.stream.access,
      streams,
      name: 'market overview',
      unavailable: 'The overview is not available right now: retry in a moment',
      onOpen: (stream) => hub.subscribe({ market, send: stream.send }),
    });
  });
}
