import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Db } from './db/client.js';
import type { Mailer } from './mail/mailer.js';
import type { BlockedIpGuard } from './modules/blocked-ips/guard.js';
import type { AdminRow } from './modules/auth/sessions.js';

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

/**
 * Who is acting: an admin (through the API), the user-facing platform (its API key), or the
 * system (a job, the demo simulator, the command line). Services take one; the HTTP request never
 * reaches a service, so a job calls the same code as the API. The audit log records which.
 *
 * `at`: when the actor acts, if not now. Only the demo seed sets it (`actingAt`), to replay the
 * platform's history through the services: the append-only records it writes (ledger
 * transactions, audit entries, trades) carry the story's time instead of the seed's, so reports by
 * day and price charts show the story. No request builds an actor with it.
 */
export type Actor = (
  | { kind: 'admin'; admin: AdminRow; ip: string }
  | { kind: 'platform'; ip: string }
  | { kind: 'system'; job: string }
) & { at?: Date };

export type AdminActor = Extract<Actor, { kind: 'admin' }>;

export const adminActor = (admin: AdminRow, ip: string): Actor & { kind: 'admin' } => ({ kind: 'admin', admin, ip });
export const systemActor = (job: string): Actor & { kind: 'system' } => ({ kind: 'system', job });
/** The same actor acting at a time of the story (the demo seed's history; see `Actor`). */
export const actingAt = <A extends Actor>(actor: A, at: Date | number): A => ({ ...actor, at: new Date(at) });
