import { sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { migrationState, queryRows } from '../db/client.js';
import { PUBLIC } from './access.js';
import type { App } from './types.js';

/** How long readiness waits for the database before it says not ready. */
const READY_TIMEOUT_MS = 2_000;

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Probes for a load balancer or an orchestrator, outside the admin API (no session, no rate
 * limit, no envelope):
 * - `GET /healthz`: the process answers (liveness);
 * - `GET /readyz`: the database answers within 2 s and has every migration this build ships, and
 *   the instance is not shutting down (readiness: 503 otherwise, with the reason).
 */
export function registerProbes(app: App, ctx: AppContext, draining: () => boolean): void {
  app.get('/healthz', { config: { access: PUBLIC } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok', uptimeSeconds: Math.round(process.uptime()) };
  });
  app.get('/readyz', { config: { access: PUBLIC } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    if (draining()) return reply.status(503).send({ status: 'shutting down' });
    try {
      await within(READY_TIMEOUT_MS, queryRows(ctx.db, sql`select 1`));
      const { shipped, applied } = await within(READY_TIMEOUT_MS, migrationState(ctx.db));
      if (applied < shipped) return reply.status(503).send({ status: 'migrations pending', shipped, applied });
      return { status: 'ready', migrations: applied };
    } catch (err) {
      return reply.status(503).send({ status: 'database unavailable', detail: err instanceof Error ? err.message : String(err) });
    }
  });
}
