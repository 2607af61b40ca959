// Measures the JavaScript a page of the built app loads before it shows its
// form: serves apps/web/dist, opens the page in headless Chromium, waits for
// the given label, and sums the gzip size of every .js response.
//
//   node apps/web/scripts/first-load.mjs [path=/login] [label=Email]
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const dist = process.env.WEB_DIST ? path.resolve(process.env.WEB_DIST) : fileURLToPath(new URL('../dist/', import.meta.url));
const pagePath = process.argv[2] ?? '/login';
const label = process.argv[3] ?? 'Email';
const types = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml' };

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname.startsWith('/api/')) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"success":false,"message":"No session"}');
    return;
  }
  const file = path.join(dist, path.normalize(url.pathname).replace(/^(\.\.[/\\])+/, ''));
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(200, { 'content-type': 'text/html' }).end(await readFile(path.join(dist, 'index.html')));
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const loaded = [];
try {
  const page = await browser.newPage();
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith('.js')) loaded.push(url.pathname);
  });
  page.on('pageerror', (e) => console.error('pageerror', e.message));
  await page.goto(`http://127.0.0.1:${port}${pagePath}`);
  await page.getByLabel(label, { exact: true }).waitFor({ state: 'visible' });
  await page.waitForLoadState('networkidle');
} finally {
  await browser.close();
  server.close();
}

let total = 0;
const rows = [];
for (const p of [...new Set(loaded)]) {
  const body = await readFile(path.join(dist, p));
  const gz = gzipSync(body, { level: 9 }).length;
  total += gz;
  rows.push([p.replace('/assets/', ''), body.length, gz]);
}
rows.sort((a, b) => b[2] - a[2]);
for (const [name, raw, gz] of rows) console.log(`${(gz / 1024).toFixed(2).padStart(8)} kB gzip  ${(raw / 1024).toFixed(1).padStart(8)} kB  ${name}`);
console.log(`${(total / 1024).toFixed(2).padStart(8)} kB gzip  total JS for ${pagePath} (${rows.length} files)`);
if (process.env.FIRST_LOAD_JSON) console.log(JSON.stringify({ path: pagePath, gzipBytes: total, files: rows.length }));
