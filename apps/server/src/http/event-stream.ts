import { canUseApi, EVENT_STREAM_PING, formatEvent, type EndpointAccess } from '@pitboss/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { liveSessionAdmin, type AdminRow } from '../modules/auth/sessions.js';

/** Every this often a stream gets a comment line (keeps proxies from timing it out) and its session and right are checked again. */
export const STREAM_CHECK_MS = 15_000;
/** A stream whose reader is this far behind (bytes not yet taken by the socket) is ended: it reconnects and starts from a snapshot. */
export const MAX_BACKLOG = 1 << 20;

/** One open server-sent-event stream, as the module that feeds it sees it. */
export interface EventStream<E extends string = string> {
  /** Writes one event; ends the stream (503) instead when its reader is `MAX_BACKLOG` behind; nothing once it has ended. */
  send(event: E, data: unknown): void;
  /** Writes an `end` event ({ reason, status }: the web says the reason and does not reconnect on 401/403) and closes the answer. */
  end(reason: string, status: number): void;
  readonly ended: boolean;
}

/** A module's open streams, so its `preClose` hook can end them (open streams would keep the server from closing). */
export class EventStreams {
  private readonly open = new Set<EventStream>();
  add(stream: EventStream): void {
    this.open.add(stream);
  }
  delete(stream: EventStream): void {
    this.open.delete(stream);
  }
  get size(): number {
    return this.open.size;
  }
  endAll(reason: string, status: number): void {
    for (const s of [...this.open]) s.end(reason, status);
  }
}

export interface EventStreamOptions<E extends string> {
  /** The route's declared access: re-checked against the admin's rights as they are now. */
  access: EndpointAccess;
  /** The module's open streams (this one is added while it is open). */
  streams: EventStreams;
  /** Names the stream in log lines ("market overview"). */
  name: string;
  /** The reason sent when `onOpen` fails. */
  unavailable: string;
  /** Subscribes the stream to its source (sending it a snapshot first); returns the unsubscribe, called when the stream ends. */
  onOpen(stream: EventStream<E>): Promise<() => void>;
  /** After each passed re-check, with the admin as they are now (their rights may have changed). */
  onCheck?(admin: AdminRow): Promise<void> | void;
  /** How often the session is checked again (tests shorten it). */
  checkMs?: number;
}

/**
 * Answers a request with a server-sent-event stream. The request was authenticated like every
 * API call (the `Authorization` header, checked by the route's declared access before the
 * handler ran: the web reads streams with `fetch`, so the session token never goes into a URL).
 * The reply is hijacked and written by hand: the headers Fastify set so far (CORS, security) plus
 * the stream's own, then a ping. Every `checkMs` the stream is checked again: it ends with 401 when
 * the session ended, the admin was disabled or the address blocked, and with 403 when the admin
 * lost the route's right; otherwise it gets a ping (which keeps proxies from timing it out).
 * Returns the hijacked reply, for the handler to return.
 */
export async function openEventStream<E extends string>(req: FastifyRequest, reply: FastifyReply, ctx: AppContext, opts: EventStreamOptions<E>): Promise<FastifyReply> {
  const sessionId = req.session!.id;
  const { access } = opts;
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
    opts.streams.delete(stream);
  };
  const stream: EventStream<E> = {
    get ended() {
      return ended;
    },
    send(event, data) {
      if (ended) return;
      if (res.writableLength > MAX_BACKLOG) return stream.end('The stream fell too far behind: reconnect', 503);
      res.write(formatEvent(event, JSON.stringify(data)));
    },
    end(reason, status) {
      if (ended) return;
      res.write(formatEvent('end', JSON.stringify({ reason, status })));
      cleanup();
      res.end();
    },
  };
  opts.streams.add(stream);
  res.on('close', cleanup);

  timer = setInterval(() => {
    void (async () => {
      // The session may have ended, the admin been disabled or lost the right, the address been blocked.
      const admin = await liveSessionAdmin(ctx.db, ctx.config, sessionId);
      if (ended) return;
      if (!admin || (await ctx.blockedIps.isBlocked(req.ip))) return stream.end('Your session has ended, please sign in again', 401);
      if (access.kind === 'module' && !canUseApi(admin, access.restriction, access.access, access.right)) return stream.end('You do not have permission to do this', 403);
      await opts.onCheck?.(admin);
      if (!ended) res.write(EVENT_STREAM_PING);
    })().catch((err: unknown) => req.log.warn({ err: (err as Error).message }, `${opts.name}: stream check failed`));
  }, opts.checkMs ?? STREAM_CHECK_MS);
  timer.unref();

  try {
    const u = await opts.onOpen(stream);
    if (ended) u();
    else unsubscribe = u;
  } catch (err) {
    req.log.warn({ err: (err as Error).message }, `${opts.name}: a stream could not start`);
    stream.end(opts.unavailable, 503);
  }
  return reply;
}
