// `npm run demo-snapshot`: seeds the demo platform live, as a first start without a snapshot does
// (an empty PGlite database, bootstrap, seedDemo with card art and ticket attachments), and writes
// what it wrote as the snapshot a first start in demo mode loads (seed/snapshot.ts). Run it when
// the snapshot is stale (a migration or the seed changed: the demo-snapshot test says so).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { fileImageStore } from '../modules/uploads/storage.js';
import { bootstrap } from './bootstrap.js';
import { seedDemo } from './demo.js';
import { SNAPSHOT_FILE, snapshotFingerprint, takeDemoSnapshot } from './snapshot.js';

async function main(): Promise<void> {
  const fingerprint = snapshotFingerprint();
  if (!fingerprint) throw new Error('the seed\'s sources are not there: run this from a clone of the repository');
  if (process.env.DEMO_PACK_PURCHASES !== undefined) throw new Error('DEMO_PACK_PURCHASES is set: the snapshot is of the default demo (unset it)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pitboss-demo-snapshot-'));
  const started = Date.now();
  try {
    // The defaults of a first start (ADMIN_EMAIL and the rest): loading resets the super admin anyway.
    const config = loadConfig({ APP_MODE: 'demo', DATA_DIR: dataDir, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv);
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      await bootstrap(database.db, config);
      await seedDemo(database.db, { info: () => undefined }, {
        images: fileImageStore(path.join(dataDir, 'uploads')),
        dataDir,
        onPart: ({ step, done, total }) => process.stdout.write(`  ${done + 1}/${total} ${step}…\n`),
        onSeeded: ({ seconds }) => process.stdout.write(`      done in ${seconds.toFixed(1)} s\n`),
      });
      const snapshot = await takeDemoSnapshot(database.db, dataDir, fingerprint);
      fs.mkdirSync(path.dirname(SNAPSHOT_FILE), { recursive: true });
      fs.writeFileSync(SNAPSHOT_FILE, snapshot);
      process.stdout.write(`Wrote ${path.relative(process.cwd(), SNAPSHOT_FILE)} (${(snapshot.length / 1024 / 1024).toFixed(1)} MB) in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    } finally {
      await database.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`demo-snapshot failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
