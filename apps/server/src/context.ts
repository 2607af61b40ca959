import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import type { Mailer } from './mail/mailer.js';
import type { BlockedIpGuard } from './modules/admin-settings/blocked-ips.js';

/** What every module's routes and services are built with. */
export interface AppContext {
  config: Config;
  db: Db;
  mailer: Mailer;
  blockedIps: BlockedIpGuard;
  /** Runs work after the answer has gone (e.g. the reset mail), so timing says nothing; tracked for shutdown and tests. */
  background(task: () => Promise<unknown>): void;
  log: FastifyBaseLogger;
}

/** Who is acting, for the audit log. */
export interface Actor {
  adminId: number | null;
  email: string;
  ip: string;
}
