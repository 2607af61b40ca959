import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app.js';
import { ensureDemoTotpKey, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { createMailer } from './mail/mailer.js';
import { bootstrap } from './seed/bootstrap.js';
import { DEMO_SUBADMIN_PASSWORD, seedDemo } from './seed/demo.js';
import { isFreshDatabase, loadDemoSnapshot, type LoadSnapshotResult, snapshotProblem } from './seed/snapshot.js';
import { imageStore } from './modules/uploads/storage.js';
import { simulatorEnabled, startSimulator } from './seed/simulator.js';
import { startJobs } from './jobs.js';
import pino from 'pino';

/** The longest a shutdown may take before the process exits anyway. */
const SHUTDOWN_GRACE_MS = Number(process.env.SHUTDOWN_GRACE_MS ?? 15_000);

async function main(): Promise<void> {
  const started = Date.now();
  const config = loadConfig();
  ensureDemoTotpKey(config);
  const log = pino({ level: config.logLevel });
  // Moved into the database (migration 0035): said, not silently ignored.
  if (process.env.LARGE_DEPOSIT_ALERT !== undefined) log.warn('LARGE_DEPOSIT_ALERT is no longer read: each coin has its large-deposit threshold on its page (Coin › Coin List)');
  const pgliteDir = path.join(config.dataDir, 'pglite');
  if (!config.databaseUrl && !fs.existsSync(path.join(pgliteDir, 'PG_VERSION'))) process.stdout.write(`  Creating the database in ${pgliteDir} (first start only)…\n`);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: pgliteDir,
    onIdleError: (err) => log.warn({ err: err.message }, 'an idle database connection failed; it will be replaced'),
  });
  // A first start in demo mode loads the demo platform's snapshot, dated to now (seconds), when it
  // matches this build's migrations and seed; else (or on PostgreSQL with data) it seeds live below.
  let loaded: LoadSnapshotResult | null = null;
  if (config.appMode === 'demo' && (await isFreshDatabase(database.db))) {
    const problem = snapshotProblem();
    if (problem) process.stdout.write(`  No demo snapshot to load (${problem}): seeding live, which takes a minute or more.\n`);
    else {
      const t = Date.now();
      process.stdout.write('  Loading the demo platform (first start only), dated to now…\n');
      loaded = await loadDemoSnapshot(database.db, {
        images: imageStore(config), dataDir: config.dataDir,
        admin: { email: config.adminEmail, name: config.adminName, password: config.adminPassword },
        onProgress: (message) => process.stdout.write(`    ${message}\n`),
      });
      process.stdout.write(`    ${loaded.rows} rows in ${loaded.tables} tables and ${loaded.files} files, in ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
    }
  }
  const booted = await bootstrap(database.db, config);
  const boot = loaded ? { createdAdmin: loaded.createdAdmin } : booted;
  // A first start in demo mode without the snapshot seeds the demo platform part by part, saying so as
  // it goes; a later start finds every part done.
  const demoSeeded = loaded !== null || (config.appMode === 'demo'
    && (await seedDemo(database.db, log, {
        images: imageStore(config), dataDir: config.dataDir,
        onPart: ({ step, done, total }) => {
          if (done === 0) process.stdout.write('  Seeding the demo platform (first start only):\n');
          process.stdout.write(`    ${done + 1}/${total} ${step}…\n`);
        },
        onSeeded: ({ seconds }) => process.stdout.write(`      done in ${seconds.toFixed(1)} s\n`),
      })));
  const stopSimulator = config.appMode === 'demo' && simulatorEnabled(process.env) ? startSimulator({ db: database.db, log }) : null;
  const mailer = createMailer({ db: database.db, smtpUrl: config.smtpUrl, from: config.mailFrom, log, retry: config.mailRetry });
  const built = await buildApp({ config, db: database.db, mailer });
  const { app } = built;
  // GTD expiry, trade bots, mail delivery (and its LISTEN), condition notifications, purges: shared by every instance (see jobs.ts).
  const stopJobs = startJobs({ db: database.db, mailer, log, images: imageStore(config), ticketWaitingAlertMinutes: config.ticketWaitingAlertMinutes });

  // SIGTERM/SIGINT: readiness turns 503, new connections are refused, requests in flight finish,
  // jobs stop (their advisory locks are released with their transactions), the database closes.
  // Bounded: after SHUTDOWN_GRACE_MS the process exits anyway.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: shutting down`);
    const force = setTimeout(() => {
      log.error(`shutdown took longer than ${SHUTDOWN_GRACE_MS} ms: exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    built.drain();
    await stopJobs();
    await stopSimulator?.();
    await app.close();
    mailer.close();
    await database.close();
    log.info('shut down cleanly');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = config.publicUrl.replace(/:\d+$/, '') === config.publicUrl ? config.publicUrl : config.publicUrl;
  const lines = [
    '',
    `  Pitboss back-office (${config.appMode} mode, ${database.driver === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL'})`,
    `  listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}  (public URL ${url})`,
  ];
  if (boot.createdAdmin) {
    lines.push(`  First super admin created: ${boot.createdAdmin.email}`);
    if (boot.createdAdmin.generated) lines.push(`  Password (shown once, change it after signing in): ${boot.createdAdmin.password}`);
    else lines.push('  Password: the ADMIN_PASSWORD you configured');
  } else {
    lines.push(`  Sign in with your existing super admin (ADMIN_EMAIL ${config.adminEmail}).`);
  }
  if (config.appMode === 'demo') lines.push(`  Demo sub-admins (e.g. maya.support@pitboss.local) sign in with ${DEMO_SUBADMIN_PASSWORD}${demoSeeded ? ` (demo data ${loaded ? 'loaded' : 'seeded'} now)` : ''}`);
  if (!config.smtpUrl) {
    lines.push('  No SMTP_URL: mail is not sent. It is held in Templates & CMS › Mail Outbox (/mail-outbox),');
    lines.push('  where a super admin sees reset links.');
  }
  lines.push(`  Ready in ${((Date.now() - started) / 1000).toFixed(1)} s`, '');
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err) => {
  const detail = err instanceof Error ? (process.env.LOG_LEVEL === 'debug' ? (err.stack ?? err.message) : err.message) : String(err);
  process.stderr.write(`Pitboss failed to start: ${detail}\n`);
  process.exit(1);
});
