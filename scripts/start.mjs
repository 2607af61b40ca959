// `npm start`: build what is missing, then run the server (it migrates, bootstraps and serves).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
buildIfNeeded();
const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], { stdio: 'inherit', env: process.env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
