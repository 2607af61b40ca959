import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';

/** All configuration comes from environment variables (README, "Configuration"). */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  APP_MODE: z.enum(['demo', 'production']).default('demo'),
  ADMIN_EMAIL: z.string().default('admin@pitboss.local'),
  ADMIN_PASSWORD: z.string().optional(),
  ADMIN_NAME: z.string().default('Super Admin'),
  PUBLIC_URL: z.string().optional(),
  SMTP_URL: z.string().optional(),
  EXPLORER_TX_URL: z.string().regex(/^https?:\/\/\S*\{signature\}\S*$/, 'A URL with {signature} in it').default('https://explorer.solana.com/tx/{signature}?cluster=devnet'),
  MAIL_FROM: z.string().default('Pitboss <no-reply@pitboss.local>'),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  MAIL_RETRY_BASE_SECONDS: z.coerce.number().min(1).max(86_400).default(30),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(60),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(24 * 90).default(12),
  TRUST_PROXY: z.string().default(''),
  GEOIP_CITY_DB: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  // Empty means unset. Printable ASCII without spaces: it travels in an `Authorization: Bearer` header.
  PLATFORM_API_KEY: z
    .string()
    .optional()
    .refine((v) => !v || /^[\x21-\x7E]{32,1024}$/.test(v), 'At least 32 printable characters without spaces (e.g. `openssl rand -hex 32`)'),
  // 32 bytes as 64 hex digits (`openssl rand -hex 32`): encrypts the admins' TOTP secrets (AES-256-GCM).
  TOTP_ENCRYPTION_KEY: z
    .string()
    .optional()
    .refine((v) => !v || /^[0-9a-fA-F]{64}$/.test(v.trim()), '64 hex digits (32 bytes), e.g. `openssl rand -hex 32`'),
  // Empty means unset (`GET /metrics` answers 404). A bearer token, so printable ASCII without spaces.
  METRICS_TOKEN: z
    .string()
    .optional()
    .refine((v) => !v || /^[\x21-\x7E]{16,1024}$/.test(v), 'At least 16 printable characters without spaces (e.g. `openssl rand -hex 32`)'),
  // Empty means unset: rate limits are counted in PostgreSQL.
  REDIS_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^rediss?:\/\//.test(v), 'A redis:// or rediss:// URL'),
  // Empty means unset: uploaded images are files under DATA_DIR/uploads.
  S3_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^https?:\/\/[^:@/\s]+:[^@/\s]+@[^/\s]+(\/\S*)?$/.test(v), 'http(s)://ACCESS_KEY:SECRET_KEY@host[:port]/bucket[/prefix][?region=…] (key and secret percent-encoded)'),
  // Admins with the Support Ticket right are told about a ticket left unanswered this long.
  TICKET_WAITING_ALERT_MINUTES: z.coerce.number().int().min(1).max(30 * 24 * 60).default(240),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  appMode: 'demo' | 'production';
  adminEmail: string;
  adminPassword: string | undefined;
  adminName: string;
  publicUrl: string;
  smtpUrl: string | undefined;
  /** Explorer link of a transaction: `{signature}` is replaced. */
  explorerTxUrl: string;
  mailFrom: string;
  /** Delivery attempts of one mail, the first included, before it is `failed`; retries wait base × 2^n (at most an hour). */
  mailRetry: { maxAttempts: number; baseDelayMs: number };
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  /** `X-Forwarded-For` is trusted only from these proxies (Fastify `trustProxy`). */
  trustProxy: string | boolean;
  /** A city `.mmdb` to locate sign-ins with instead of the bundled country database (docs/using.md, "Where sign-ins come from"). */
  geoipCityDb: string | undefined;
  logLevel: string;
  webDist: string | undefined;
  /** The user-facing platform's bearer key for `/api/platform/v1/*`; unset: those routes answer 503. */
  platformApiKey: string | undefined;
  /**
   * AES-256-GCM key of the TOTP secrets. Required in production; in demo mode, when unset,
   * `ensureDemoTotpKey` keeps a generated one in DATA_DIR.
   */
  totpEncryptionKey: Buffer | undefined;
  /** The bearer token Prometheus sends to `GET /metrics`; unset: the route answers 404. */
  metricsToken: string | undefined;
  /** Rate limits are counted in this Redis when set, in PostgreSQL otherwise (shared by every instance either way). */
  redisUrl: string | undefined;
  /** Where uploaded images go: S3-compatible storage at this URL, else files under `dataDir/uploads`. */
  s3Url: string | undefined;
  /** A ticket waiting this long for an answer is notified (once per wait). */
  ticketWaitingAlertMinutes: number;
  /** Per coin symbol (upper case): the deposit amount, in whole coins as decimal text, from which a deposit is notified. */
}

/** The variables the configuration reads (the README's table lists each: test/docs.test.ts). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  if (e.APP_MODE === 'production' && !e.TOTP_ENCRYPTION_KEY) {
    throw new Error(
      'Invalid configuration:\n  TOTP_ENCRYPTION_KEY: required when APP_MODE=production (64 hex digits, e.g. `openssl rand -hex 32`); it encrypts the admins\' 2FA secrets. Keep it: without it, enrolled admins cannot sign in.',
    );
  }
  const port = e.PORT;
  const trust = e.TRUST_PROXY.trim();
  return {
    port,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    appMode: e.APP_MODE,
    adminEmail: e.ADMIN_EMAIL.trim().toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD || undefined,
    adminName: e.ADMIN_NAME,
    publicUrl: (e.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL || undefined,
    explorerTxUrl: e.EXPLORER_TX_URL,
    mailFrom: e.MAIL_FROM,
    mailRetry: { maxAttempts: e.MAIL_MAX_ATTEMPTS, baseDelayMs: e.MAIL_RETRY_BASE_SECONDS * 1000 },
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    trustProxy: trust === '' ? false : trust === 'true' ? true : trust,
    geoipCityDb: e.GEOIP_CITY_DB ? path.resolve(e.GEOIP_CITY_DB) : undefined,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST,
    platformApiKey: e.PLATFORM_API_KEY || undefined,
    totpEncryptionKey: e.TOTP_ENCRYPTION_KEY ? Buffer.from(e.TOTP_ENCRYPTION_KEY.trim(), 'hex') : undefined,
    metricsToken: e.METRICS_TOKEN || undefined,
    redisUrl: e.REDIS_URL || undefined,
    s3Url: e.S3_URL || undefined,
    ticketWaitingAlertMinutes: e.TICKET_WAITING_ALERT_MINUTES,
  };
}

/**
 * Demo mode without `TOTP_ENCRYPTION_KEY`: a random key kept in `DATA_DIR/totp-encryption.key`
 * (created once, mode 0600), so enrolled admins still sign in after a restart.
 */
export function ensureDemoTotpKey(config: Config): void {
  if (config.totpEncryptionKey || config.appMode !== 'demo') return;
  const file = path.join(config.dataDir, 'totp-encryption.key');
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  const hex = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${file} is not a 64-hex-digit key: delete it (enrolled admins must enrol again) or set TOTP_ENCRYPTION_KEY`);
  config.totpEncryptionKey = Buffer.from(hex, 'hex');
}
