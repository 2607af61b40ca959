import { createHash, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import client from 'prom-client';
import type { AppContext } from '../context.js';
import { queryRows } from '../db/client.js';
import { PUBLIC } from '../http/access.js';
import type { App } from '../http/types.js';

/**
 * Prometheus metrics of this process (`GET /metrics`, prom-client's text format). One registry per
 * process: the HTTP hooks and the jobs feed it; the database pool and the mail queue are read at
 * each scrape from the instance that answers.
 */
export const metricsRegistry = new client.Registry();
client.collectDefaultMetrics({ register: metricsRegistry, prefix: 'pitboss_' });

const httpRequests = new client.Counter({
  name: 'pitboss_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});
const httpDuration = new client.Histogram({
  name: 'pitboss_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});
const jobRuns = new client.Counter({
  name: 'pitboss_job_runs_total',
  help: 'Runs of background jobs (order expiry, trade bots, mail delivery), by job and outcome',
  labelNames: ['job', 'outcome'] as const,
  registers: [metricsRegistry],
});
const jobDuration = new client.Histogram({
  name: 'pitboss_job_duration_seconds',
  help: 'Time a background job run took, by job',
  labelNames: ['job'] as const,
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
  registers: [metricsRegistry],
});
const poolConnections = new client.Gauge({
  name: 'pitboss_db_pool_connections',
  help: 'PostgreSQL connection pool of the answering instance: total, idle, and requests waiting for a connection (absent on PGlite)',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
});
const mailPending = new client.Gauge({
  name: 'pitboss_mail_outbox_pending',
  help: 'Mails in the outbox waiting to be delivered (status pending)',
  registers: [metricsRegistry],
});

/** Runs one tick of a background job, counted and timed under its name. */
export async function timedJob<T>(job: string, run: () => Promise<T>): Promise<T> {
  const end = jobDuration.startTimer({ job });
  try {
    const out = await run();
    jobRuns.inc({ job, outcome: 'ok' });
    return out;
  } catch (err) {
    jobRuns.inc({ job, outcome: 'error' });
    throw err;
  } finally {
    end();
  }
}

const digest = (v: string) => createHash('sha256').update(v).digest();

/** Whether the `Authorization` header carries the token (compared in constant time). */
export function metricsAuthorized(configured: string, header: string | undefined): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return m !== null && timingSafeEqual(digest(configured), digest(m[1]!));
}

/**
 * Counts every answer under its route pattern (`/api/admin/users/:id`, never the raw URL, so the
 * label set stays small) and serves `GET /metrics`: 404 unless `METRICS_TOKEN` is set, then only
 * with `Authorization: Bearer <METRICS_TOKEN>`. Outside the admin API: no session, no rate limit.
 */
export function registerMetrics(app: App, ctx: AppContext): void {
  app.addHook('onResponse', async (req, reply) => {
    const labels = { method: req.method, route: req.is404 ? 'unmatched' : (req.routeOptions.url ?? 'unmatched'), status: String(reply.statusCode) };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
  const pool = (ctx.db as unknown as { $client?: unknown }).$client;
  app.get('/metrics', { config: { access: PUBLIC } }, async (req, reply) => {
    const token = ctx.config.metricsToken;
    if (!token) return reply.status(404).type('text/plain').send('Not found');
    if (!metricsAuthorized(token, req.headers.authorization)) {
      return reply.status(401).header('www-authenticate', 'Bearer realm="metrics"').type('text/plain').send('A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>)');
    }
    if (pool instanceof pg.Pool) {
      poolConnections.set({ state: 'total' }, pool.totalCount);
      poolConnections.set({ state: 'idle' }, pool.idleCount);
      poolConnections.set({ state: 'waiting' }, pool.waitingCount);
    }
    const [row] = await queryRows<{ n: number }>(ctx.db, sql`select count(*)::int as n from mail_outbox where status = 'pending'`);
    mailPending.set(Number(row?.n ?? 0));
    return reply.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
  });
}
