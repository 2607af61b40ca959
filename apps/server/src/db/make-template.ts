// Run by scripts/build-if-needed.mjs after `tsc -b`: an empty PGlite data folder with every migration
// applied, kept next to the build, from which a new data folder starts (see openDatabase).
import { writeMigratedTemplate } from './client.js';

writeMigratedTemplate().catch((err) => {
  process.stderr.write(`the migrated PGlite template was not written: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
