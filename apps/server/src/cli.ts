// Operator commands that work without the web app, e.g. when a block list locked every admin out:
//   npm run unblock-ip -- 203.0.113.7     removes every blocked address or range containing it
// With the embedded PGlite database, stop the server first (one process per data folder).
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { loadConfig } from './config.js';
import { systemActor } from './context.js';
import { openDatabase } from './db/client.js';
import { blockedIps } from './db/schema.js';
import { writeAudit } from './lib/audit.js';
import { cidrContains, normaliseIp } from './modules/blocked-ips/guard.js';

async function main(): Promise<void> {
  const [command, arg] = process.argv.slice(2);
  if (command !== 'unblock-ip' || !arg || !normaliseIp(arg)) {
    process.stderr.write('usage: npm run unblock-ip -- <IP address>\n');
    process.exit(2);
  }
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: path.join(config.dataDir, 'pglite') });
  try {
    const rows = await database.db.select().from(blockedIps);
    const hits = rows.filter((r) => cidrContains(r.address, arg));
    if (hits.length === 0) {
      process.stdout.write(`${arg} is not blocked.\n`);
      return;
    }
    await database.db.transaction(async (tx) => {
      await tx.delete(blockedIps).where(inArray(blockedIps.id, hits.map((h) => h.id)));
      for (const h of hits) {
        await writeAudit(tx, systemActor('cli'), { action: 'delete', resource: 'blocked-ips', recordId: h.id, before: { address: h.address, reason: h.reason } });
      }
    });
    process.stdout.write(`Unblocked ${hits.map((h) => h.address).join(', ')} (running servers pick it up within 5 s).\n`);
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
