// List and export figures (QUALITY.md): keyset pages at any depth over 1 M
// audit entries, and a streamed CSV export of 1 M rows with the server's
// memory growth. PGlite by default; BENCH_DATABASE_URL=postgres://… for PostgreSQL.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { createMailer } from '../apps/server/src/mail/mailer.js';
import { bootstrap } from '../apps/server/src/seed/bootstrap.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function benchLists(): Promise<void> {
  const base = process.env.BENCH_DATABASE_URL;
  let databaseUrl: string | undefined;
  let drop: (() => Promise<void>) | null = null;
  if (base) {
    const name = `pitboss_bench_${randomBytes(4).toString('hex')}`;
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`create database ${name}`);
    await c.end();
    const u = new URL(base);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    drop = async () => {
      const d = new pg.Client({ connectionString: base });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    };
  }
  const config = loadConfig({ APP_MODE: 'production', ADMIN_EMAIL: 'bench@pitboss.test', ADMIN_PASSWORD: 'Bench-Password-1', LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1' } as NodeJS.ProcessEnv);
  const database = await openDatabase({ databaseUrl, dataDir: 'memory://' });
  await bootstrap(database.db, config);
  const driver = database.driver === 'pglite' ? 'PGlite' : 'PostgreSQL';

  let t = performance.now();
  // 1 M audit entries, one a second going back in time, spread over 30 resources.
  await database.db.execute(sql`
    insert into audit_log (admin_id, admin_email, action, resource, record_id, before, after, ip, created_at)
    select 1, 'bench@pitboss.test', case when i % 3 = 0 then 'update' else 'create' end, 'res' || (i % 30), (i % 5000)::text,
           null, jsonb_build_object('n', i, 'label', 'row ' || i), '10.0.' || (i % 250) || '.' || (i % 200),
           timestamptz '2026-01-01' + make_interval(secs => i)
    from generate_series(1, ${ROWS}) as g(i)`);
  await database.db.execute(sql`analyze audit_log`);
  console.log(`lists: ${ROWS.toLocaleString('en-US')} audit entries inserted in ${((performance.now() - t) / 1000).toFixed(1)} s (${driver})`);

  const mailer = createMailer({ db: database.db, smtpUrl: undefined, from: config.mailFrom, log: pino({ level: 'silent' }) });
  const { app } = await buildApp({ config, db: database.db, mailer }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const login = await app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: 'bench@pitboss.test', password: 'Bench-Password-1' } });
  const token = login.json().result.token as string;
  const headers = { authorization: `Bearer ${token}`, timezone: 'Europe/Paris' };

  // Keyset pages at random depths, 50 rows each, newest first.
  const samples: number[] = [];
  for (let k = 0; k < 300; k++) {
    const i = 1 + Math.floor(Math.random() * ROWS);
    const cursor = Buffer.from(JSON.stringify([new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), String(i)])).toString('base64url');
    const s = performance.now();
    const res = await app.inject({ method: 'GET', url: `/api/admin/audit-log?limit=50&cursor=${cursor}`, headers });
    samples.push(performance.now() - s);
    if (res.statusCode !== 200) throw new Error(`list failed: ${res.body}`);
  }
  samples.sort((a, b) => a - b);
  console.log(`lists: audit-log keyset page of 50 at random depth: p50 ${pct(samples, 50).toFixed(1)} ms, p99 ${pct(samples, 99).toFixed(1)} ms (bar p99 ≤ 50 ms)`);
  const filtered: number[] = [];
  for (let k = 0; k < 100; k++) {
    const s = performance.now();
    await app.inject({ method: 'GET', url: `/api/admin/audit-log?limit=50&resource=res${k % 30}&createdAt_from=2026-01-03`, headers });
    filtered.push(performance.now() - s);
  }
  filtered.sort((a, b) => a - b);
  console.log(`lists: audit-log filtered by resource + date range, first page: p50 ${pct(filtered, 50).toFixed(1)} ms, p99 ${pct(filtered, 99).toFixed(1)} ms`);

  // Streamed export over real HTTP; server memory sampled while it runs.
  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const rss0 = process.memoryUsage().rss;
  let peakHeap = heap0;
  let peakRss = rss0;
  // Retained memory: collect, then read the heap, every 250 ms while the export runs.
  const timer = setInterval(() => {
    global.gc?.();
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  }, 250);
  // The client is curl in its own process, so the figure is the server's alone.
  t = performance.now();
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('curl', ['-s', '-o', '/dev/null', '-w', '%{size_download}', '-H', `authorization: Bearer ${token}`, '-H', 'timezone: Europe/Paris', `http://127.0.0.1:${port}/api/admin/audit-log/export`]);
    let size = '';
    child.stdout.on('data', (chunk: Buffer) => (size += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(size));
  });
  const bytes = Number(out);
  clearInterval(timer);
  const secs = (performance.now() - t) / 1000;
  const rowsOut = ROWS;
  console.log(
    `export: ${rowsOut.toLocaleString('en-US')} rows streamed in ${secs.toFixed(1)} s = ${Math.round(rowsOut / secs).toLocaleString('en-US')} rows/s, ${(bytes / 1e6).toFixed(0)} MB ` +
      `(bar ≥ 200,000), retained heap growth ${((peakHeap - heap0) / 1e6).toFixed(0)} MB, RSS growth ${((peakRss - rss0) / 1e6).toFixed(0)} MB (bar < 100 MB) (${driver})`,
  );
  await app.close();
  mailer.close();
  await database.close();
  if (drop) await drop();
}
