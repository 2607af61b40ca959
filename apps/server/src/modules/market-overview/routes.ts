import { canUseApi, EVENT_STREAM_PING, formatEvent, marketOverviewEndpoints, type MarketOverviewEventName } from '@pitboss/contract';
import type { AppContext } from '../../context.js';
import { ok } from '../../http/envelope.js';
import { route } from '../../http/route.js';
import type { App } from '../../http/types.js';
import { liveSessionAdmin } from '../auth/sessions.js';
import { MarketOverviewHub, type Subscriber } from './hub.js';
import { marketDepth, overviewRows } from './service.js';

/** Every this often a stream gets a comment line (keeps proxies from timing it out) and its session and right are checked again. */
export const STREAM_CHECK_MS = 15_000;
/** A stream whose reader is this far behind (bytes not yet taken by the socket) is ended: it reconnects and starts from a snapshot. */
const MAX_BACKLOG = 1 << 20;

/**
 * The market overview: two snapshot endpoints and the stream (README, "Market overview").
 *
 * The stream is authenticated like every API call, by the `Authorization: Bearer` header, before
 * the handler runs (the route's declared access: `Markets`, read), so the web reads it with
 * `fetch` rather than `EventSource` (which cannot send a header): the session token never goes
 * into a URL, where access logs, proxies and the browser history would keep it.
 */
export function marketOverviewRoutes(app: App, ctx: AppContext): void {
  const hub = new MarketOverviewHub(ctx.db, ctx.log);
  const streams = new Map<Subscriber, (reason: string, status: number) => void>();
  // Open streams would keep the server from closing: end them first, then the change feed.
  app.addHook('preClose', async () => {
    await hub.close((sub) => streams.get(sub)?.('The server is stopping', 503));
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
    const sessionId = req.session!.id;
    const access = marketOverviewEndpoints.stream.access;

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // Proxies (nginx) pass each event on at once instead of buffering the answer.
      'x-accel-buffering': 'no',
    });
    res.write(EVENT_STREAM_PING);

    let ended = false;
    let unsubscribe: (() => void) | null = null;
    let timer: NodeJS.Timeout | null = null;
    const cleanup = () => {
      ended = true;
      if (timer) clearInterval(timer);
      timer = null;
      unsubscribe?.();
      unsubscribe = null;
      streams.delete(sub);
    };
    const end = (reason: string, status: number) => {
      if (ended) return;
      res.write(formatEvent('end', JSON.stringify({ reason, status })));
      cleanup();
      res.end();
    };
    const sub: Subscriber = {
      market,
      send(event: MarketOverviewEventName, data: unknown) {
        if (ended) return;
        if (res.writableLength > MAX_BACKLOG) return end('The stream fell too far behind: reconnect', 503);
        res.write(formatEvent(event, JSON.stringify(data)));
      },
    };
    streams.set(sub, end);
    res.on('close', cleanup);

    timer = setInterval(() => {
      void (async () => {
        // The session may have ended, the admin been disabled or lost the right, the address been blocked.
        const admin = await liveSessionAdmin(ctx.db, ctx.config, sessionId);
        if (ended) return;
        if (!admin || (await ctx.blockedIps.isBlocked(req.ip))) return end('Your session has ended, please sign in again', 401);
        if (access.kind === 'module' && !canUseApi(admin, access.restriction, access.access)) return end('You do not have permission to do this', 403);
        res.write(EVENT_STREAM_PING);
      })().catch((err: unknown) => req.log.warn({ err: (err as Error).message }, 'market overview: stream check failed'));
    }, STREAM_CHECK_MS);
    timer.unref();

    try {
      const u = await hub.subscribe(sub);
      if (ended) u();
      else unsubscribe = u;
    } catch (err) {
      req.log.warn({ err: (err as Error).message }, 'market overview: a stream could not start');
      end('The overview is not available right now: retry in a moment', 503);
    }
    return reply;
  });
}
