import type { AddressInfo } from 'node:net';
import { EventStreamParser, readAccess, type StreamEvent } from '@pitboss/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../app.js';
import type { AppContext } from '../context.js';
import { admins } from '../db/schema.js';
import { blockedIps } from '../modules/blocked-ips/table.js';
import { call, makeSubAdmin, startTestServer, superLogin, type TestServer } from '../../test/helpers.js';
import { EventStreams, MAX_BACKLOG, openEventStream } from './event-stream.js';

/**
 * The one server-sent-event helper both streams (market overview, notifications) answer with:
 * checked on a probe route with a short re-check interval, over a real socket (a stream stays
 * open). The session, right and blocked-address re-checks end it with 401/403; a reader too far
 * behind, a source that cannot start and a stopping server end it with 503.
 */
let s: TestServer;
let probe: BuiltApp;
let ctx: AppContext;
let base: string;
let token: string;
const streams = new EventStreams();
const checks: number[] = [];
const PROBE = '/api/admin/event-stream-probe';

beforeAll(async () => {
  s = await startTestServer();
  probe = await buildApp(
    { config: s.config, db: s.database.db, mailer: s.mailer },
    {
      logger: false,
      extend: (app, c) => {
        ctx = c;
        app.get<{ Querystring: { mode?: string } }>(PROBE, { config: { access: readAccess('Markets') } }, (req, reply) =>
          openEventStream<'hello' | 'big'>(req, reply, c, {
            access: readAccess('Markets'),
            streams,
            name: 'probe',
            unavailable: 'The probe is not available',
            checkMs: 100,
            onCheck: (admin) => void checks.push(admin.id),
            onOpen: async (stream) => {
              if (req.query.mode === 'fail') throw new Error('no source');
              stream.send('hello', { admin: req.admin!.id });
              // A reader that takes nothing: the socket's buffer passes MAX_BACKLOG and the stream ends.
              if (req.query.mode === 'flood') for (let i = 0; i < 256 && !stream.ended; i++) stream.send('big', 'x'.repeat(MAX_BACKLOG / 16));
              return () => undefined;
            },
          }),
        );
      },
    },
  );
  await probe.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(probe.app.server.address() as AddressInfo).port}`;
  token = await superLogin(s);
}, 60_000);

afterAll(async () => {
  await probe?.app.close();
  await s?.close();
});

/** Reads a stream to its end (or 10 s), as the web reads it: fetch with the Authorization header. */
async function readStream(bearer: string, query = '', whileOpen?: (events: StreamEvent[]) => Promise<void>) {
  const res = await fetch(`${base}${PROBE}${query}`, { headers: { authorization: `Bearer ${bearer}` }, signal: AbortSignal.timeout(10_000) });
  const events: StreamEvent[] = [];
  const parser = new EventStreamParser((e) => events.push(e));
  if (!res.ok || !res.body) return { res, events, end: null };
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.push(decoder.decode(chunk, { stream: true }));
  })();
  if (whileOpen) {
    while (!events.some((e) => e.event === 'hello')) await new Promise((r) => setTimeout(r, 20));
    await whileOpen(events);
  }
  await reading;
  const end = events.find((e) => e.event === 'end');
  return { res, events, end: end ? (JSON.parse(end.data) as { reason: string; status: number }) : null };
}

describe('openEventStream', () => {
  it('answers 200 as an event stream with the headers set so far, sends what its source sends, re-checks, and ends with 401 when the session ends', async () => {
    const t = await superLogin(s);
    checks.length = 0;
    const out = await readStream(t, '', async () => {
      while (checks.length < 2) await new Promise((r) => setTimeout(r, 20));
      expect(streams.size).toBe(1);
      expect((await call(s, 'POST', '/api/admin/logout', { token: t })).status).toBe(200);
    });
    expect(out.res.status).toBe(200);
    expect(out.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(out.res.headers.get('cache-control')).toBe('no-store');
    expect(out.res.headers.get('x-accel-buffering')).toBe('no');
    expect(out.events[0]).toMatchObject({ event: 'hello', data: JSON.stringify({ admin: checks[0] }) });
    expect(out.end).toEqual({ reason: 'Your session has ended, please sign in again', status: 401 });
    expect(streams.size).toBe(0);
  });

  it('ends with 403 when the admin loses the route\'s right, and with 401 when the address is blocked', async () => {
    const viewer = await makeSubAdmin(s, [{ name: 'Markets', canView: true, canEdit: false }], token);
    const lost = await readStream(viewer.token, '', async () => {
      await s.database.db.update(admins).set({ restriction: [{ name: 'Events', canView: true, canEdit: false }] }).where(eq(admins.id, Number(viewer.id)));
    });
    expect(lost.end).toEqual({ reason: 'You do not have permission to do this', status: 403 });

    const blocked = await readStream(token, '', async () => {
      await s.database.db.insert(blockedIps).values({ address: '127.0.0.1/32', reason: 'probe' });
      ctx.blockedIps.invalidate();
    });
    await s.database.db.delete(blockedIps).where(eq(blockedIps.address, '127.0.0.1/32'));
    ctx.blockedIps.invalidate();
    expect(blocked.end).toEqual({ reason: 'Your session has ended, please sign in again', status: 401 });
  });

  it('ends with 503 when the source cannot start, when the reader falls too far behind, and when the server stops', async () => {
    const failed = await readStream(token, '?mode=fail');
    expect(failed.events.map((e) => e.event)).toEqual(['end']);
    expect(failed.end).toEqual({ reason: 'The probe is not available', status: 503 });

    const flood = await readStream(token, '?mode=flood');
    expect(flood.end).toEqual({ reason: 'The stream fell too far behind: reconnect', status: 503 });
    expect(flood.events.filter((e) => e.event === 'big').length).toBeLessThan(256);

    const stopping = await readStream(token, '', async () => {
      expect(streams.size).toBe(1);
      streams.endAll('The server is stopping', 503);
    });
    expect(stopping.end).toEqual({ reason: 'The server is stopping', status: 503 });
    expect(streams.size).toBe(0);
  });
});
