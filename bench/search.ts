// Reference pickers over a big table (QUALITY.md: 1 M users): the users list's own search as an
// admin types (`GET /api/admin/users?q=…&limit=20`) and the label read by id, and what a picker
// asks now, its own choices endpoint (the deposits' User filter, over a deposit for every fourth user). PGlite by default; BENCH_DATABASE_URL=postgres://… for PostgreSQL.
import { scratchPostgres } from './scratch-db.js';
import { createHash } from 'node:crypto';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { createMailer } from '../apps/server/src/mail/mailer.js';
import { bootstrap } from '../apps/server/src/seed/bootstrap.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SAMPLES = 60;

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function benchSearch(): Promise<void> {
  const base = process.env.BENCH_DATABASE_URL;
  let databaseUrl: string | undefined;
  let drop: (() => Promise<void>) | null = null;
  if (base) {
    const scratch = await scratchPostgres(base);
    databaseUrl = scratch.databaseUrl;
    drop = scratch.drop;
  }
  const config = loadConfig({ APP_MODE: 'production', TOTP_ENCRYPTION_KEY: 'ab'.repeat(32), ADMIN_EMAIL: 'bench@pitboss.test', ADMIN_PASSWORD: 'Bench-Password-1', LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1' } as NodeJS.ProcessEnv);
  const database = await openDatabase({ databaseUrl, dataDir: 'memory://' });
  await bootstrap(database.db, config);
  const driver = database.driver === 'pglite' ? 'PGlite' : 'PostgreSQL';

  const t = performance.now();
  // Usernames of 27 characters: a prefix and 20 hex digits, so a 6-character piece is all but unique.
  await database.db.execute(sql`
    insert into users (username, email, country, signup_ip, created_at)
    select 'player_' || left(md5(i::text), 20), 'p' || i || '@players.test', 'DE', '198.51.100.9', timestamptz '2026-01-01' + make_interval(secs => i)
    from generate_series(1, ${ROWS}) as g(i)`);
  // A pending deposit for every fourth user: the deposits' User filter offers those users only.
  await database.db.execute(sql`
    insert into deposits (user_id, coin_id, amount, tx_signature, from_address, created_at)
    select u.id, (select min(id) from coins), 1000000, 'sig' || u.id, 'addr' || u.id, u.created_at from users u where u.id % 4 = 0`);
  await database.db.execute(sql`analyze users`);
  await database.db.execute(sql`analyze deposits`);
  console.log(`search: ${ROWS.toLocaleString('en-US')} users and ${Math.floor(ROWS / 4).toLocaleString('en-US')} deposits inserted in ${((performance.now() - t) / 1000).toFixed(1)} s (${driver})`);

  const mailer = createMailer({ db: database.db, smtpUrl: undefined, from: config.mailFrom, log: pino({ level: 'silent' }) });
  const { app } = await buildApp({ config, db: database.db, mailer }, { logger: false });
  const login = await app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: 'bench@pitboss.test', password: 'Bench-Password-1' } });
  const headers = { authorization: `Bearer ${login.json().result.token as string}`, timezone: 'UTC' };
  const md5 = (i: number) => createHash('md5').update(String(i)).digest('hex');

  const kinds: [string, (i: number) => string][] = [
    ['part of a name (one match)', (i) => `/api/admin/users?limit=20&q=${md5(i).slice(4, 10)}`],
    ['a whole email', (i) => `/api/admin/users?limit=20&q=${encodeURIComponent(`p${i}@players.test`)}`],
    ['no match', (i) => `/api/admin/users?limit=20&q=zz${i}`],
    ['everyone (an empty box)', () => '/api/admin/users?limit=20'],
    ['the label of one user, by id', (i) => `/api/admin/users/${i}`],
    // What the pickers ask now: the input's own choices endpoint (a filter's offers the users its list's rows point at).
    ['deposits\' User filter choices, part of a name', (i) => `/api/admin/deposits/choices/filter/userId?q=${md5(i - (i % 4) || 4).slice(4, 10)}`],
    ['deposits\' User filter choices, a name with no deposit', (i) => `/api/admin/deposits/choices/filter/userId?q=${md5(i % 4 === 0 ? i + 1 : i).slice(4, 10)}`],
    ['deposits\' User filter choices, everyone (an empty box)', () => '/api/admin/deposits/choices/filter/userId'],
    ['deposits\' User filter choices, the label of one user, by id', (i) => `/api/admin/deposits/choices/filter/userId?ids=${i}`],
  ];
  for (const [label, url] of kinds) {
    const samples: number[] = [];
    for (let k = 0; k < SAMPLES; k++) {
      const i = 1 + Math.floor(Math.random() * ROWS);
      const s = performance.now();
      const res = await app.inject({ method: 'GET', url: url(i), headers });
      samples.push(performance.now() - s);
      if (res.statusCode !== 200) throw new Error(`${url(i)}: ${res.statusCode} ${res.body}`);
    }
    samples.sort((a, b) => a - b);
    console.log(`search: user picker, ${label}: p50 ${pct(samples, 50).toFixed(1)} ms, p99 ${pct(samples, 99).toFixed(1)} ms (${driver})`);
  }
  await app.close();
  mailer.close();
  await database.close();
  if (drop) await drop();
}
