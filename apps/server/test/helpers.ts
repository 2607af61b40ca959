import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, inject } from 'vitest';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import pg from 'pg';
import pino from 'pino';
import { buildApp, type BuiltApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, type Database, type Db } from '../src/db/client.js';
import { createMailer, type Mailer } from '../src/mail/mailer.js';
import { bootstrap } from '../src/seed/bootstrap.js';
import type { RestrictionEntry } from '@pitboss/contract';
import { checkLedgerInvariants } from '../src/modules/ledger/invariants.js';

export const SUPER_EMAIL = 'root@pitboss.test';
export const SUPER_PASSWORD = 'Correct-Horse-Battery-9';

export interface SentMail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

export interface TestServer {
  built: BuiltApp;
  /** Mail delivered through a real nodemailer transport (JSON), when no SMTP_URL is given. */
  mail: SentMail[];
  /** Waits for background work (e.g. the reset mail) to finish. */
  idle(): Promise<void>;
  app: BuiltApp['app'];
  database: Database;
  config: Config;
  mailer: Mailer;
  driver: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/**
 * The API in-process against PGlite (in memory), or against a fresh
 * PostgreSQL database when TEST_DATABASE_URL is set (CI runs both).
 */
export interface StartOptions {
  /** Called with each query's SQL (counting what a request costs). */
  onQuery?: (query: string) => void;
  /** Runs on the fresh, migrated database before bootstrap (a first start's demo snapshot). */
  beforeBootstrap?: (db: Db, config: Config) => Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}, opts: StartOptions = {}): Promise<TestServer> {
  const config = loadConfig({
    APP_MODE: 'production',
    ADMIN_EMAIL: SUPER_EMAIL,
    ADMIN_PASSWORD: SUPER_PASSWORD,
    PUBLIC_URL: 'http://pitboss.test',
    LOG_LEVEL: 'silent',
    TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ...env,
  } as NodeJS.ProcessEnv);
  let dropDb: (() => Promise<void>) | null = null;
  let databaseUrl: string | undefined;
  const base = process.env.TEST_DATABASE_URL;
  if (base) {
    const name = `pitboss_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    // A copy of the run's migrated template (global-setup.ts): no migration runs per test server.
    const template = inject('postgresTemplate');
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
    await admin.end();
    const u = new URL(base);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const pgliteTemplate = databaseUrl ? '' : inject('pgliteTemplate');
  const database = await openDatabase({
    databaseUrl,
    dataDir: 'memory://',
    ...(pgliteTemplate ? { loadDataDir: new Blob([fs.readFileSync(pgliteTemplate)]) } : {}),
    ...(opts.onQuery ? { onQuery: opts.onQuery } : {}),
  });
  config.databaseUrl = databaseUrl;
  await opts.beforeBootstrap?.(database.db, config);
  await bootstrap(database.db, config);
  const log = pino({ level: 'silent' });
  const mail: SentMail[] = [];
  let transport: Transporter | undefined;
  if (!config.smtpUrl) {
    const json = nodemailer.createTransport({ jsonTransport: true });
    transport = {
      sendMail: async (m: SendMailOptions) => {
        const info = await json.sendMail(m);
        const msg = JSON.parse(info.message as unknown as string) as { to: { address: string }[]; subject: string; html: string; text: string };
        mail.push({ to: msg.to.map((t) => t.address).join(','), subject: msg.subject, html: msg.html, text: msg.text });
        return info;
      },
      close: () => json.close(),
    } as unknown as Transporter;
  }
  const mailer = createMailer({ db: database.db, smtpUrl: config.smtpUrl, from: config.mailFrom, log, ...(transport ? { transport } : {}) });
  const built = await buildApp({ config, db: database.db, mailer }, { logger: false });
  await built.app.ready();
  return {
    built,
    mail,
    idle: () => built.idle(),
    app: built.app,
    database,
    config,
    mailer,
    driver: database.driver,
    async close() {
      // After a file's last test no request is in flight; a client's keep-alive socket (a test that
      // listened and used fetch) would otherwise hold the close for the keep-alive timeout (72 s).
      const closing = built.app.close();
      if (built.app.server.listening) built.app.server.closeAllConnections();
      await closing;
      // Every API test file ends with the ledger checked: postings sum to zero per coin, no
      // negative balance, materialised balances equal their postings, holds match.
      const violations = await checkLedgerInvariants(database.db);
      mailer.close();
      await database.close();
      if (dropDb) await dropDb();
      if (violations.length) throw new Error(`Ledger invariants broken:\n${violations.map((v) => `${v.rule}: ${v.detail}`).join('\n')}`);
    },
  };
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  ip?: string;
}

export async function call(server: TestServer, method: string, url: string, opts: CallOptions = {}) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await server.app.inject({
    method: method as 'GET',
    url,
    headers,
    query: opts.query,
    payload: opts.body === undefined ? undefined : (opts.body as object),
    remoteAddress: opts.ip ?? '127.0.0.1',
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
  let json: any = null;
  try {
    json = res.json();
  } catch {
    json = null;
  }
  return { status: res.statusCode, body: json, headers: res.headers, raw: res.body };
}

export async function login(server: TestServer, email: string, password: string, ip?: string): Promise<string> {
  const res = await call(server, 'POST', '/api/admin/login', { body: { email, password }, ...(ip ? { ip } : {}) });
  if (res.status !== 200) throw new Error(`login failed for ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result.token as string;
}

export const superLogin = (server: TestServer) => login(server, SUPER_EMAIL, SUPER_PASSWORD);

/**
 * A test file's server: started before the file's tests with the super admin signed in, and closed
 * after them (closing checks the ledger). `set` hands both to the file's own variables.
 */
export function serverFile(set: (file: { s: TestServer; token: string }) => void, env: Record<string, string> = {}, opts: StartOptions = {}): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(env, opts);
    set({ s: server, token: await superLogin(server) });
  }, 120_000);
  afterAll(async () => server?.close());
}

/**
 * The admin API (`/api/admin/<path>`) as one admin: the server and token are read at each call (a
 * file's variables, set before its tests); `as` calls as another admin.
 */
export function adminCalls(server: () => TestServer, token: () => string) {
  return {
    get: (path: string, query?: Record<string, string>, as = token()) => call(server(), 'GET', `/api/admin/${path}`, { token: as, ...(query ? { query } : {}) }),
    post: (path: string, body: unknown = {}, as = token()) => call(server(), 'POST', `/api/admin/${path}`, { token: as, body }),
    patch: (path: string, body: unknown, as = token()) => call(server(), 'PATCH', `/api/admin/${path}`, { token: as, body }),
    del: (path: string, as = token()) => call(server(), 'DELETE', `/api/admin/${path}`, { token: as }),
  };
}

let counter = 0;
/** Creates a sub-admin through the API (as the super admin) and signs them in. */
export async function makeSubAdmin(server: TestServer, restriction: RestrictionEntry[], superToken?: string) {
  const token = superToken ?? (await superLogin(server));
  const email = `sub${++counter}-${randomBytes(3).toString('hex')}@pitboss.test`;
  const password = 'Sub-admin-Pass-77';
  const res = await call(server, 'POST', '/api/admin/sub-admins', { token, body: { name: `Sub ${counter}`, email, password, restriction } });
  if (res.status !== 200) throw new Error(`create sub-admin failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.result._id as string, email, password, token: await login(server, email, password) };
}
