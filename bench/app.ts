// App-level figures (QUALITY.md): first-load JS before the login form (gzip),
// and `npm start` on an existing data folder. Needs the build (`npm run build`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(import.meta.dirname, '..');
const MAIN = path.join(ROOT, 'apps/server/dist/main.js');

function startServer(dataDir: string, port: number): Promise<{ ms: number; stop: () => Promise<void> }> {
  const t = performance.now();
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, APP_MODE: 'demo', ADMIN_PASSWORD: 'Bench-Password-1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Ready in')) {
        resolve({
          ms: performance.now() - t,
          stop: () => new Promise((r) => { child.on('exit', () => r()); child.kill('SIGTERM'); }),
        });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

export async function benchApp(): Promise<void> {
  if (!fs.existsSync(MAIN) || !fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) {
    console.log('app: skipped (run `npm run build` first)');
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pitboss-bench-'));
  const port = 4300 + Math.floor(Math.random() * 500);
  const first = await startServer(dataDir, port);
  await first.stop();
  const second = await startServer(dataDir, port);
  console.log(`start: first start (create, migrate, seed demo) ${(first.ms / 1000).toFixed(1)} s; start on the existing data folder ${(second.ms / 1000).toFixed(1)} s (bar ≤ 3 s)`);

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const page = await browser.newPage();
  const scripts = new Set<string>();
  page.on('request', (req) => {
    if (req.resourceType() === 'script') scripts.add(new URL(req.url()).pathname);
  });
  await page.goto(`http://127.0.0.1:${port}/login`);
  await page.getByLabel('Email').first().waitFor();
  let gz = 0;
  for (const p of scripts) gz += gzipSync(fs.readFileSync(path.join(ROOT, 'apps/web/dist', p))).length;
  await browser.close();
  await second.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(`web: first-load JS before the login form: ${(gz / 1024).toFixed(0)} kB gzip in ${scripts.size} files (bar ≤ 137 kB)`);
}
