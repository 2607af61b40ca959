/**
 * Browser-test harness: the real built server (apps/server/dist/main.js) on a
 * free port with a fresh data folder, an SMTP server that keeps every mail,
 * and headless Chromium driven by playwright-core.
 *
 *   const h = await startHarness();
 *   const page = await h.newPage();
 *   ...
 *   await h.stop();
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterEach, inject } from 'vitest';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SERVER_MAIN = path.join(ROOT, 'apps/server/dist/main.js');
export const WEB_DIST = path.join(ROOT, 'apps/web/dist');
export const SCREENSHOTS = path.join(ROOT, 'e2e/screenshots');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Mail {
  to: string[];
  raw: string;
  /** The message with quoted-printable and base64 parts decoded, good for searching. */
  text: string;
}

export interface ApiAnswer<T = unknown> {
  status: number;
  body: { success: boolean; message: string; result?: T; errors?: Record<string, string> };
}

export interface Harness {
  baseUrl: string;
  /** The snapshot of apps/web/dist the server serves. */
  webDist: string;
  adminEmail: string;
  adminPassword: string;
  mails: Mail[];
  browser: Browser;
  /** A fresh browser context (empty local storage) and a page in it; `colorScheme` is the system's preference it emulates. */
  newPage(opts?: { colorScheme?: 'light' | 'dark' }): Promise<Page>;
  /** Calls the API directly (Node fetch), with a bearer token when given. */
  api<T = unknown>(method: string, apiPath: string, body?: unknown, token?: string): Promise<ApiAnswer<T>>;
  /** Signs in through the API and returns the token. */
  loginToken(email: string, password: string): Promise<string>;
  /** Creates a sub-admin as the super admin. */
  createSubAdmin(input: { name: string; email: string; password: string; restriction: { name: string; canView: boolean; canEdit: boolean; rights?: string[] }[] }): Promise<void>;
  /** Waits for a mail to this address (newer than `after` mails) and returns it. */
  waitForMail(to: string, opts?: { after?: number; timeoutMs?: number }): Promise<Mail>;
  /** Server output so far (for failure messages). */
  serverOutput(): string;
  /**
   * What a failed test needs to be understood: API answers of 400 and above, failed requests and
   * console errors of every page, each page's address and visible text, and the server output's tail.
   */
  diagnostics(): Promise<string>;
  /** Sends the server a signal and waits until it has exited (its exit code, or the signal that ended it). */
  signalServer(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Signs in through the login form and waits until the browser has left /login. */
  signIn(page: Page, email: string, password: string): Promise<void>;
  stop(): Promise<void>;
}

/** A fresh platform API key, for `startHarness({ env: { PLATFORM_API_KEY } })`. */
export const newPlatformKey = (): string => `e2e-${randomBytes(24).toString('hex')}`;

/** A platform API call as the platform makes it: the key, a JSON body, a fresh Idempotency-Key on every write. */
export async function platformCall<T>(h: Harness, key: string, method: string, apiPath: string, body?: unknown): Promise<{ status: number; message: string; result: T }> {
  const res = await fetch(`${h.baseUrl}/api/platform/v1/${apiPath}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(method === 'GET' ? {} : { 'idempotency-key': randomUUID() }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as { message: string; result: T };
  return { status: res.status, message: json.message, result: json.result };
}

/** The same call's result; a refusal throws, naming the call, its status and message. */
export async function platformResult<T>(h: Harness, key: string, method: string, apiPath: string, body?: unknown): Promise<T> {
  const res = await platformCall<T>(h, key, method, apiPath, body);
  if (res.status < 200 || res.status > 299) throw new Error(`${method} ${apiPath}: ${res.status} ${res.message}`);
  return res.result;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export function decodeQuotedPrintable(s: string): string {
  const bytes = s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Good enough MIME flattening for test mail: decodes QP and base64 bodies so links can be found. */
export function readableMail(raw: string): string {
  // Decoded forms first: a raw quoted-printable body holds broken-up, `=3D`-escaped links.
  const parts: string[] = [];
  if (/content-transfer-encoding:\s*quoted-printable/i.test(raw)) parts.push(decodeQuotedPrintable(raw));
  const b64 = /content-transfer-encoding:\s*base64\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/gi;
  for (const m of raw.matchAll(b64)) parts.push(Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64').toString('utf8'));
  parts.push(raw);
  return parts.join('\n');
}

/** The reset link of a password-reset mail. */
export function resetLinkFrom(mail: Mail): string {
  const m = /(https?:\/\/[^\s"'<>()]+\/verification\/forgotPassword\?token=[^\s"'<>()&]+)/.exec(mail.text);
  if (!m) throw new Error(`No reset link in the mail:\n${mail.text.slice(0, 2000)}`);
  return m[1]!.replace(/&amp;/g, '&');
}

async function startSmtp(mails: Mail[]): Promise<{ port: number; close: () => Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw, text: readableMail(raw) });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}) before answering:\n${output()}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The server did not answer /api/health within ${timeoutMs} ms:\n${output()}`);
}

export async function startHarness(
  opts: {
    adminPassword?: string;
    /** Extra server environment (e.g. PLATFORM_API_KEY, or APP_MODE: 'demo' for the demo's data). */
    env?: Record<string, string>;
    /** How long the server may take to answer (the demo's first start loads its snapshot in seconds, or seeds live for minutes when it is stale). */
    readyTimeoutMs?: number;
  } = {},
): Promise<Harness> {
  if (!existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run \`npm run build\` first.`);
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error(`${WEB_DIST} has no index.html: run \`npm run build\` first.`);

  const temp = mkdtempSync(path.join(os.tmpdir(), 'pitboss-e2e-'));
  // The server lists the static files it serves at start; a snapshot keeps a
  // rebuild of apps/web during the run from pulling files away under it.
  const webDist = path.join(temp, 'web');
  cpSync(WEB_DIST, webDist, { recursive: true });

  // The run's migrated database (global-setup.ts), unless the server is given PostgreSQL.
  if (!opts.env?.DATABASE_URL) cpSync(inject('e2eDataTemplate'), path.join(temp, 'data', 'pglite'), { recursive: true });

  const mails: Mail[] = [];
  const smtp = await startSmtp(mails);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const adminEmail = 'admin@pitboss.test';
  const adminPassword = opts.adminPassword ?? 'Pitboss-e2e-Strong#2024';

  let output = '';
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(temp, 'data'),
      APP_MODE: 'production',
      TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      PUBLIC_URL: baseUrl,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      WEB_DIST: webDist,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      DEMO_SIMULATOR: 'off',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));

  const stopServer = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };

  let browser: Browser | null = null;
  const contexts: BrowserContext[] = [];
  try {
    await waitForHealth(baseUrl, child, () => output, opts.readyTimeoutMs ?? 90_000);
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  } catch (err) {
    await stopServer();
    await smtp.close();
    rmSync(temp, { recursive: true, force: true });
    throw err;
  }

  const api = async <T,>(method: string, apiPath: string, body?: unknown, token?: string): Promise<ApiAnswer<T>> => {
    const headers: Record<string, string> = { timezone: 'UTC' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${baseUrl}${apiPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : { success: false, message: '' } };
  };

  const loginToken = async (email: string, password: string) => {
    const res = await api<{ token: string }>('POST', '/api/admin/login', { email, password });
    if (!res.body.success || !res.body.result?.token) throw new Error(`Login as ${email} failed (${res.status}): ${res.body.message}`);
    return res.body.result.token;
  };

  let superToken: string | null = null;
  const pages: Page[] = [];
  const events: string[] = [];
  const note = (line: string) => {
    events.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
    if (events.length > 200) events.shift();
  };
  const h: Harness = {
    baseUrl,
    webDist,
    adminEmail,
    adminPassword,
    mails,
    browser: browser!,
    async newPage(opts = {}) {
      const context = await browser!.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: 'Europe/Paris', locale: 'en-GB', colorScheme: opts.colorScheme ?? 'light' });
      contexts.push(context);
      const page = await context.newPage();
      const n = pages.push(page);
      page.on('response', (r) => {
        if (r.status() >= 400 && new URL(r.url()).pathname.startsWith('/api/')) note(`page ${n}: ${r.request().method()} ${r.url()} → ${r.status()}`);
      });
      page.on('requestfailed', (r) => note(`page ${n}: ${r.method()} ${r.url()} failed: ${r.failure()?.errorText ?? '?'}`));
      page.on('console', (m) => {
        if (m.type() === 'error') note(`page ${n} console: ${m.text().slice(0, 300)}`);
      });
      page.on('pageerror', (e) => note(`page ${n} error: ${String(e).slice(0, 300)}`));
      return page;
    },
    async signIn(page, email, password) {
      await page.goto(`${baseUrl}/login`);
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    },
    async diagnostics() {
      const shown: string[] = [];
      for (const [i, page] of pages.entries()) {
        if (page.isClosed()) continue;
        const text = await page.evaluate(() => document.body?.innerText ?? '').catch((e: unknown) => `(unreadable: ${String(e)})`);
        shown.push(`page ${i + 1} at ${page.url()}:\n${text.slice(0, 1500)}`);
      }
      return [
        `browser events:\n${events.join('\n') || '(none)'}`,
        ...shown.slice(-3),
        `server output (tail):\n${output.slice(-4000)}`,
      ].join('\n\n');
    },
    api,
    loginToken,
    async createSubAdmin(input) {
      superToken ??= await loginToken(adminEmail, adminPassword);
      const res = await api('POST', '/api/admin/sub-admins', input, superToken);
      if (!res.body.success) throw new Error(`Creating sub-admin ${input.email} failed (${res.status}): ${res.body.message} ${JSON.stringify(res.body.errors ?? {})}`);
    },
    async waitForMail(to, { after = 0, timeoutMs = 15_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = mails.slice(after).find((m) => m.to.includes(to.toLowerCase()));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`No mail to ${to} within ${timeoutMs} ms (${mails.length} mails in total)`);
    },
    serverOutput: () => output,
    async signalServer(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return { code: child.exitCode, signal: child.signalCode };
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, sig) => resolve({ code, signal: sig })));
      child.kill(signal);
      return exited;
    },
    async stop() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser?.close().catch(() => {});
      await stopServer();
      await smtp.close();
      rmSync(temp, { recursive: true, force: true });
    },
  };
  return h;
}

/**
 * Prints the harness's diagnostics after a failed test: call once per file, at the top level,
 * with a getter (the harness is started in beforeAll).
 */
export function reportFailures(harness: () => Harness | undefined): void {
  afterEach(async (ctx) => {
    const h = harness();
    if (ctx.task.result?.state === 'fail' && h) console.error(`── diagnostics of "${ctx.task.name}" ──\n${await h.diagnostics()}`);
  });
}
