import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.js';
import { queryRows } from '../db/client.js';

/** Expired counters are deleted at most this often per instance (and only while requests come). */
const CLEANUP_EVERY_MS = 60_000;

type IncrCallback = (err: Error | null, res?: { current: number; ttl: number }) => void;

interface StoreOptions {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { method: string; url: string };
}

/**
 * A store for `@fastify/rate-limit` in PostgreSQL (table `rate_limits`), so every instance on the
 * database counts the same hits. One statement per request: an upsert that starts a new window when
 * the old one has expired and adds one otherwise (`insert … on conflict do update … returning`),
 * atomic under concurrent instances. Expired rows are deleted now and then, in the background.
 */
export function postgresRateLimitStore(db: Db, log: FastifyBaseLogger) {
  let lastCleanup = 0;
  const cleanup = () => {
    const now = Date.now();
    if (now - lastCleanup < CLEANUP_EVERY_MS) return;
    lastCleanup = now;
    queryRows(db, sql`delete from rate_limits where expires_at < now()`).catch((err: unknown) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'rate limit cleanup failed'));
  };

  return class PostgresRateLimitStore {
    readonly continueExceeding: boolean;
    readonly prefix: string;

    constructor(opts: object, prefix = 'rl:') {
      const options = opts as StoreOptions;
      // Exponential back-off would need the window to grow per hit; no route here asks for it.
      if (options.exponentialBackoff) throw new Error('The PostgreSQL rate-limit store does not support exponentialBackoff');
      this.continueExceeding = options.continueExceeding ?? false;
      this.prefix = prefix;
    }

    incr(key: string, cb: IncrCallback, timeWindow: number, max: number): void {
      cleanup();
      const k = this.prefix + key;
      // A hit past the limit restarts the window when continueExceeding is set (as the plugin's own stores do).
      const restartWhenOver = this.continueExceeding;
      queryRows<{ hits: number; ttl: number }>(
        db,
        sql`insert into rate_limits (key, hits, expires_at)
            values (${k}, 1, now() + ${timeWindow} * interval '1 millisecond')
            on conflict (key) do update set
              hits = case when rate_limits.expires_at <= now() then 1 else rate_limits.hits + 1 end,
              expires_at = case
                when rate_limits.expires_at <= now() then excluded.expires_at
                when ${restartWhenOver} and rate_limits.hits + 1 > ${max} then excluded.expires_at
                else rate_limits.expires_at end
            returning hits, greatest(0, ceil(extract(epoch from (expires_at - now())) * 1000))::int as ttl`,
      ).then(
        ([row]) => cb(null, { current: Number(row!.hits), ttl: Number(row!.ttl) }),
        (err: unknown) => cb(err instanceof Error ? err : new Error(String(err))),
      );
    }

    /** The plugin passes the route's merged limit options (its types name them differently from what it passes). */
    child(options: object): PostgresRateLimitStore {
      const routeOptions = options as StoreOptions;
      const route = routeOptions.routeInfo ? `${routeOptions.routeInfo.method}${routeOptions.routeInfo.url}:` : '';
      return new PostgresRateLimitStore(routeOptions, `${this.prefix}${route}`);
    }
  };
}
