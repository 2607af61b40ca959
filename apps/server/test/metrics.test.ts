import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intervalJob } from '../src/lib/interval-job.js';
import { call, startTestServer, superLogin, type TestServer } from './helpers.js';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one sample line (`name{labels} value`), 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const set = line.slice(name.length + 1, line.lastIndexOf('}'));
    if (Object.entries(labels).every(([k, v]) => set.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

/** Lets an interval job tick once (a working one and a failing one), then stops them. */
async function intervalJobOnce(): Promise<void> {
  let ran: () => void = () => undefined;
  const ticked = new Promise<void>((resolve) => {
    ran = resolve;
  });
  const errors: Error[] = [];
  const stop = intervalJob(async () => ran(), { name: 'metrics_test_job', intervalMs: 5, onError: (e) => errors.push(e) });
  let failed: () => void = () => undefined;
  const failedOnce = new Promise<void>((resolve) => {
    failed = resolve;
  });
  const stopFailing = intervalJob(async () => {
    throw new Error('boom');
  }, { name: 'metrics_test_failing_job', intervalMs: 5, onError: () => failed() });
  await Promise.all([ticked, failedOnce]);
  await stop();
  await stopFailing();
}

describe('GET /metrics', () => {
  let off: TestServer;
  let on: TestServer;
  beforeAll(async () => {
    off = await startTestServer();
    on = await startTestServer({ METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await off?.close();
    await on?.close();
  });

  it('is off (404) without METRICS_TOKEN', async () => {
    expect((await call(off, 'GET', '/metrics')).status).toBe(404);
    expect((await call(off, 'GET', '/metrics', { token: TOKEN })).status).toBe(404);
  });

  it('asks for the token: none or a wrong one is a 401', async () => {
    expect((await call(on, 'GET', '/metrics')).status).toBe(401);
    const wrong = await call(on, 'GET', '/metrics', { token: `${TOKEN}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((await call(on, 'GET', '/metrics', { headers: { authorization: `Basic ${TOKEN}` } })).status).toBe(401);
  });

  it('counts requests by route pattern and status, and reports the mail queue and the pool', async () => {
    const scrape = async () => {
      const res = await call(on, 'GET', '/metrics', { token: TOKEN });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      return res.raw;
    };
    const before = await scrape();
    const token = await superLogin(on);
    for (let i = 0; i < 3; i++) expect((await call(on, 'GET', `/api/admin/sub-admins/${900 + i}`, { token })).status).toBe(404);
    expect((await call(on, 'GET', '/api/admin/profile', { token })).status).toBe(200);
    await intervalJobOnce();
    const after = await scrape();
    const route = (r: string, status: string) => ({ method: 'GET', route: r, status });
    expect(sample(after, 'pitboss_http_requests_total', route('/api/admin/sub-admins/:id', '404')) - sample(before, 'pitboss_http_requests_total', route('/api/admin/sub-admins/:id', '404'))).toBe(3);
    expect(sample(after, 'pitboss_http_requests_total', route('/api/admin/profile', '200')) - sample(before, 'pitboss_http_requests_total', route('/api/admin/profile', '200'))).toBe(1);
    expect(sample(after, 'pitboss_http_request_duration_seconds_count', route('/api/admin/profile', '200'))).toBeGreaterThanOrEqual(1);
    // Never the raw URL as a label.
    expect(after).not.toContain('/api/admin/sub-admins/900');
    expect(after).toMatch(/^pitboss_mail_outbox_pending \d+$/m);
    // A job's run is counted under its name, whatever its outcome.
    expect(sample(after, 'pitboss_job_runs_total', { job: 'metrics_test_job', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'pitboss_job_runs_total', { job: 'metrics_test_failing_job', outcome: 'error' })).toBeGreaterThanOrEqual(1);
    if (on.driver === 'postgres') expect(after).toMatch(/^pitboss_db_pool_connections\{state="total"\} [1-9]\d*$/m);
  });
});
