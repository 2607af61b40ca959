import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Db, DbOrTx } from './client.js';

/*
 * PostgreSQL's LISTEN/NOTIFY, the same on both drivers. A NOTIFY sent inside a transaction is
 * delivered when (and only if) it commits, to every connection listening on the channel: other
 * instances on the same PostgreSQL included. Identical notifications of one transaction are
 * delivered once. So "publish after commit" is one statement in the writing transaction, and
 * every instance hears every committed change, its own included.
 */

/** Sends `payload` on `channel` when the caller's transaction commits (nothing if it rolls back). */
export async function notify(tx: DbOrTx, channel: string, payload: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${channel}, ${payload})`);
}

export interface ListenHandlers {
  /** A notification, in commit order. */
  onNotify(payload: string): void;
  /**
   * The feed was (re)established after a loss: notifications sent meanwhile are gone, so
   * whatever they would have updated must be read again. Not called for the first connection.
   */
  onResync(): void;
  onError?(err: Error): void;
}

export interface Listener {
  /** Resolves once the first LISTEN is in place (changes committed after it are heard). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Listens on `channel` of the app's database. On PostgreSQL it holds one dedicated connection (not
 * one of the pool's: LISTEN belongs to a session), and reconnects with a growing delay when that
 * connection is lost, calling `onResync` once it is back. On PGlite (one embedded database, one
 * process) it uses PGlite's own `listen`.
 */
export function listen(db: Db, channel: string, handlers: ListenHandlers): Listener {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a plain channel name: ${channel}`);
  const client = (db as unknown as { $client: unknown }).$client;
  if (client instanceof pg.Pool) return listenPg(client, channel, handlers);
  return listenPglite(client as PGlite, channel, handlers);
}

function listenPglite(client: PGlite, channel: string, handlers: ListenHandlers): Listener {
  let unlisten: (() => Promise<void>) | null = null;
  let closed = false;
  const ready = client.listen(channel, (payload) => handlers.onNotify(payload)).then(async (u) => {
    if (closed) await u();
    else unlisten = u;
  });
  return {
    ready,
    async close() {
      closed = true;
      await ready.catch(() => undefined);
      if (unlisten && !client.closed) await unlisten().catch(() => undefined);
      unlisten = null;
    },
  };
}

function listenPg(pool: pg.Pool, channel: string, handlers: ListenHandlers): Listener {
  let closed = false;
  let current: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let delay = 250;
  let first = true;
  let resolveReady!: () => void;
  const ready = new Promise<void>((resolve) => {
    resolveReady = resolve;
  });

  const connect = async (): Promise<void> => {
    timer = null;
    if (closed) return;
    const c = new pg.Client(pool.options);
    const lost = (err?: Error) => {
      if (current !== c) return;
      current = null;
      c.removeAllListeners('notification');
      c.end().catch(() => undefined);
      if (err) handlers.onError?.(err);
      schedule();
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (m) => {
      if (m.channel === channel) handlers.onNotify(m.payload ?? '');
    });
    try {
      current = c;
      await c.connect();
      await c.query(`listen ${channel}`);
    } catch (err) {
      lost(err as Error);
      return;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    delay = 250;
    if (first) {
      first = false;
      resolveReady();
    } else handlers.onResync();
  };
  const schedule = () => {
    if (closed || timer) return;
    timer = setTimeout(() => void connect(), delay);
    timer.unref();
    delay = Math.min(delay * 2, 10_000);
  };
  void connect();
  return {
    ready,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      resolveReady();
      const c = current;
      current = null;
      if (c) await c.end().catch(() => undefined);
    },
  };
}
