// Builds what is not built (or is older than its sources): `tsc -b` is
// incremental, the migrated PGlite template follows the migrations, the web app is rebuilt only
// when its sources changed. `npm install` runs it (`prepare`), so `npm start` finds it done.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newest(dir) {
  let t = 0;
  if (!fs.existsSync(dir)) return t;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

function mtime(file) {
  return fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0;
}

export function buildIfNeeded({ quiet = false } = {}) {
  const run = (cmd) => execSync(cmd, { cwd: root, stdio: quiet ? 'pipe' : 'inherit' });
  const serverOut = path.join(root, 'apps/server/dist/main.js');
  const serverSrc = Math.max(newest(path.join(root, 'apps/server/src')), newest(path.join(root, 'packages/contract/src')), newest(path.join(root, 'packages/engine/src')));
  if (mtime(serverOut) < serverSrc) {
    if (!quiet) console.log('Building the server (tsc -b)…');
    run('npx tsc -b');
  }
  // An empty PGlite database with every migration applied: a new data folder starts from it (no initdb).
  const template = path.join(root, 'apps/server/dist/pglite-template.tar.gz');
  if (mtime(template) < Math.max(newest(path.join(root, 'apps/server/drizzle')), mtime(path.join(root, 'apps/server/dist/db/client.js')))) {
    if (!quiet) console.log('Preparing the embedded database (migrations)…');
    run(`"${process.execPath}" apps/server/dist/db/make-template.js`);
  }
  const webOut = path.join(root, 'apps/web/dist/index.html');
  const webSrc = Math.max(newest(path.join(root, 'apps/web/src')), mtime(path.join(root, 'apps/web/index.html')), newest(path.join(root, 'packages/contract/src')));
  if (mtime(webOut) < webSrc) {
    if (!quiet) console.log('Building the web app (vite build)…');
    run('npm run build -w apps/web');
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildIfNeeded();
