import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportFailures, startHarness, type Harness } from './harness';

/** The built server as a process: probes for a load balancer, and a clean, bounded shutdown. */
let h: Harness;

beforeAll(async () => {
  // Info: the shutdown's own lines are what this file checks.
  h = await startHarness({ env: { LOG_LEVEL: 'info' } });
});

reportFailures(() => h);

afterAll(async () => {
  await h?.stop();
});

describe('running in production', () => {
  it('answers /healthz and /readyz outside the API, then on SIGTERM finishes the request in flight, says not ready, and exits 0', async () => {
    const health = await fetch(`${h.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const ready = await fetch(`${h.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    const readyBody = (await ready.json()) as { status: string; migrations: number };
    expect(readyBody.status).toBe('ready');
    expect(readyBody.migrations).toBeGreaterThan(10);
    // Not the app's page, not the API's envelope, never cached.
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect((await fetch(`${h.baseUrl}/readyz/x`)).headers.get('content-type')).toContain('text/html');

    const token = await h.loginToken(h.adminEmail, h.adminPassword);
    // A request in flight when the signal arrives still gets its whole answer.
    const inFlight = fetch(`${h.baseUrl}/api/admin/audit-log/export`, { headers: { authorization: `Bearer ${token}`, timezone: 'UTC' } }).then(async (r) => ({
      status: r.status,
      text: await r.text(),
    }));
    await new Promise((r) => setTimeout(r, 5));
    const exit = await h.signalServer('SIGTERM');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.text.split('\r\n')[0]).toContain('Time');
    expect(exit).toEqual({ code: 0, signal: null });
    expect(h.serverOutput()).toContain('shut down cleanly');
  });
});
