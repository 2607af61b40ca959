import type { Logger } from 'pino';
import type { Db } from '../db/client.js';

/** Demo data for a lived-in back-office; runs once on an empty database (see seedDemoModules). */
export async function seedDemo(_db: Db, _log: Logger): Promise<void> {
  // Filled by the modules as they land; idempotent.
}
