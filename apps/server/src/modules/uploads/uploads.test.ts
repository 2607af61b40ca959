import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { AwsClient } from 'aws4fetch';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makeSubAdmin, startTestServer, superLogin, type TestServer } from '../../../test/helpers.js';

/** A multipart body with one file part. */
export function multipart(file: Buffer, filename: string, type: string, field = 'file') {
  const boundary = `----pitboss${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function upload(s: TestServer, url: string, token: string | null, file: Buffer, filename = 'image.png', type = 'image/png') {
  const body = multipart(file, filename, type);
  const res = await s.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back
  let json: any = null;
  try {
    json = res.json();
  } catch {
    json = null;
  }
  return { status: res.statusCode, body: json };
}

export const pngOf = (width: number, height: number, color = '#3366cc') => sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer();

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A valid-looking PNG whose header claims `w × h` pixels (a decompression bomb: a few hundred bytes that would decode to gigabytes). */
function pixelBomb(w: number, h: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = deflateSync(Buffer.alloc(1 + Math.ceil(w / 8)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', rows), chunk('IEND', Buffer.alloc(0))]);
}

/** Whether EXIF data holds a GPS IFD pointer (tag 0x8825) in its byte order. */
function hasGpsPointer(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const at = exif.indexOf('II') >= 0 && exif.indexOf('II') < 10 ? 'II' : 'MM';
  return exif.includes(at === 'II' ? Buffer.from([0x25, 0x88]) : Buffer.from([0x88, 0x25]));
}

const UPLOAD = '/api/admin/card-categories/images';
let s: TestServer;
let superToken: string;
let dataDir: string;
const stored = () => (fs.existsSync(path.join(dataDir, 'uploads')) ? fs.readdirSync(path.join(dataDir, 'uploads')).sort() : []);

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pitboss-uploads-'));
  s = await startTestServer({ DATA_DIR: dataDir });
  superToken = await superLogin(s);
});
afterAll(async () => {
  await s?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('image uploads', () => {
  it('re-encodes an image as bounded WebP with a thumbnail, named by its hash, served immutable with nosniff', async () => {
    const res = await upload(s, UPLOAD, superToken, await pngOf(2400, 1200));
    expect(res.status).toBe(200);
    const { url, thumbUrl, width, height, bytes } = res.body.result;
    expect(url).toMatch(/^\/api\/uploads\/[0-9a-f]{64}\.webp$/);
    expect(thumbUrl).toBe(url.replace('.webp', '.thumb.webp'));
    expect([width, height]).toEqual([1600, 800]);
    const served = await s.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['content-security-policy']).toContain("default-src 'none'");
    expect(served.rawPayload.length).toBe(bytes);
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1600, 800]);
    const thumb = await s.app.inject({ method: 'GET', url: thumbUrl });
    const tmeta = await sharp(thumb.rawPayload).metadata();
    expect(Math.max(tmeta.width!, tmeta.height!)).toBe(320);
    // A revalidation with the ETag costs nothing.
    const again = await s.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(served.headers.etag) } });
    expect(again.statusCode).toBe(304);
    // The same picture again: the same name, nothing new stored.
    const before = stored();
    const twice = await upload(s, UPLOAD, superToken, await pngOf(2400, 1200));
    expect(twice.body.result.url).toBe(url);
    expect(stored()).toEqual(before);
  });

  it('a JPEG with EXIF GPS comes back without any metadata', async () => {
    const jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#aa5500' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'PitbossCam', Copyright: 'Someone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2964/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 17/1 4020/100' } })
      .toBuffer();
    const inMeta = await sharp(jpeg).metadata();
    expect(hasGpsPointer(inMeta.exif)).toBe(true);
    const res = await upload(s, UPLOAD, superToken, jpeg, 'photo.jpg', 'image/jpeg');
    expect(res.status).toBe(200);
    const served = await s.app.inject({ method: 'GET', url: res.body.result.url });
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.iptc).toBeUndefined();
    expect(served.rawPayload.includes(Buffer.from('PitbossCam'))).toBe(false);
  });

  it('takes a file of several megabytes (up to the 5 MiB limit, past the JSON body limit)', async () => {
    // Noise does not compress: a 1100 × 1000 RGB PNG of noise is about 3.3 MB.
    const noise = await sharp(randomBytes(1100 * 1000 * 3), { raw: { width: 1100, height: 1000, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    expect(noise.length).toBeGreaterThan(3 * 1024 * 1024);
    expect(noise.length).toBeLessThan(5 * 1024 * 1024);
    const res = await upload(s, UPLOAD, superToken, noise);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect([res.body.result.width, res.body.result.height]).toEqual([1100, 1000]);
  });

  it('accepts JPEG, WebP and GIF too', async () => {
    const base = sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 0.5 } } });
    for (const [buf, name, type] of [
      [await base.clone().webp().toBuffer(), 'a.webp', 'image/webp'],
      [await base.clone().gif().toBuffer(), 'a.gif', 'image/gif'],
      [await base.clone().jpeg().toBuffer(), 'a.jpg', 'image/jpeg'],
    ] as const) {
      const res = await upload(s, UPLOAD, superToken, buf, name, type);
      expect(res.status, name).toBe(200);
      expect([res.body.result.width, res.body.result.height]).toEqual([40, 30]);
    }
  });

  it('refuses an oversized file, a pixel bomb, an SVG, a PHP file named .png and polyglots, storing nothing', async () => {
    const before = stored();
    const big = Buffer.concat([await pngOf(10, 10), randomBytes(5 * 1024 * 1024 + 10)]);
    const tooBig = await upload(s, UPLOAD, superToken, big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toMatch(/larger than 5 MB/);

    // Refused from its header: the answer names the header's size (decoding 3.6 G pixels from a
    // 20 kB body would fail otherwise, or exhaust memory).
    const bomb = pixelBomb(60_000, 60_000);
    expect(bomb.length).toBeLessThan(20_000);
    const bombed = await upload(s, UPLOAD, superToken, bomb);
    expect(bombed.status).toBe(400);
    expect(bombed.body.message).toMatch(/too large: 60000 × 60000 pixels/);

    const svg = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const svgRes = await upload(s, UPLOAD, superToken, svg, 'logo.svg', 'image/svg+xml');
    expect(svgRes.status).toBe(400);
    expect(svgRes.body.message).toMatch(/SVG/);
    // An SVG sent as a PNG is still an SVG.
    expect((await upload(s, UPLOAD, superToken, svg, 'logo.png', 'image/png')).body.message).toMatch(/SVG/);

    const php = Buffer.from('<?php system($_GET["c"]); ?>\n');
    const phpRes = await upload(s, UPLOAD, superToken, php, 'shell.png', 'image/png');
    expect(phpRes.status).toBe(400);
    expect(phpRes.body.errors.file).toMatch(/Not an image/);

    // A real PNG with PHP after its end, and a real JPEG with a script in a comment segment.
    const pngPoly = Buffer.concat([await pngOf(20, 20), Buffer.from('<?php echo "owned"; ?>')]);
    const polyRes = await upload(s, UPLOAD, superToken, pngPoly, 'poly.png', 'image/png');
    expect(polyRes.status).toBe(400);
    expect(polyRes.body.message).toMatch(/markup or script/);
    const jpeg = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#000' } }).jpeg().toBuffer();
    const comment = Buffer.from('<script>alert(document.cookie)</script>');
    const com = Buffer.concat([Buffer.from([0xff, 0xfe, 0, comment.length + 2]), comment]);
    const jpegPoly = Buffer.concat([jpeg.subarray(0, 2), com, jpeg.subarray(2)]);
    expect((await sharp(jpegPoly).metadata()).format).toBe('jpeg');
    const jpegRes = await upload(s, UPLOAD, superToken, jpegPoly, 'poly.jpg', 'image/jpeg');
    expect(jpegRes.status).toBe(400);
    expect(jpegRes.body.message).toMatch(/markup or script/);
    // Trailing bytes after a PNG's end (a zip or anything else appended) are refused too.
    const appended = await upload(s, UPLOAD, superToken, Buffer.concat([await pngOf(20, 20), Buffer.from('PK\u0003\u0004 zip archive follows')]));
    expect(appended.status).toBe(400);
    expect(appended.body.message).toMatch(/after the end of the PNG/);
    // A truncated image: the header is fine, the pixels are not there.
    const truncated = (await pngOf(200, 200, '#123456')).subarray(0, 60);
    expect((await upload(s, UPLOAD, superToken, truncated)).status).toBe(400);

    expect(stored()).toEqual(before);
  });

  it('needs a multipart body with one part named file', async () => {
    const json = await call(s, 'POST', UPLOAD, { token: superToken, body: { url: 'https://evil.example/x.png' } });
    expect(json.status).toBe(400);
    const png = await pngOf(10, 10);
    const wrong = multipart(png, 'a.png', 'image/png', 'image');
    const res = await s.app.inject({ method: 'POST', url: UPLOAD, payload: wrong.payload, headers: { ...wrong.headers, authorization: `Bearer ${superToken}` } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/part named "file"/);
    // A malformed or cut-off multipart body is the caller's fault: 400, not a 5xx (found by the fuzz test).
    for (const payload of ['{}', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG', '--x\r\nbroken']) {
      const bad = await s.app.inject({ method: 'POST', url: UPLOAD, payload, headers: { 'content-type': 'multipart/form-data; boundary=x', authorization: `Bearer ${superToken}` } });
      expect(bad.statusCode, payload).toBe(400);
      expect(bad.json().success).toBe(false);
    }
  });

  it('takes the write right of the form that uploads: 401 signed out, 403 view-only or another resource', async () => {
    const png = await pngOf(16, 16);
    expect((await upload(s, UPLOAD, null, png)).status).toBe(401);
    const viewer = await makeSubAdmin(s, [{ name: 'Category', canView: true, canEdit: false }], superToken);
    expect((await upload(s, UPLOAD, viewer.token, png)).status).toBe(403);
    const characters = await makeSubAdmin(s, [{ name: 'Character', canView: true, canEdit: true }], superToken);
    expect((await upload(s, UPLOAD, characters.token, png)).status).toBe(403);
    expect((await upload(s, '/api/admin/card-characters/images', characters.token, png)).status).toBe(200);
    const coins = await makeSubAdmin(s, [{ name: 'Coin List', canView: true, canEdit: true }], superToken);
    expect((await upload(s, '/api/admin/coins/images', coins.token, png)).status).toBe(200);
    expect((await upload(s, '/api/admin/site-settings/images', coins.token, png)).status).toBe(403);
    expect((await upload(s, '/api/admin/site-settings/images', superToken, png)).status).toBe(200);
  });

  it('coin and site logos take an uploaded image', async () => {
    const up = await upload(s, '/api/admin/site-settings/images', superToken, await pngOf(200, 60));
    const saved = await call(s, 'POST', '/api/admin/updateSiteDetails', { token: superToken, body: { logoUrl: up.body.result.url } });
    expect(saved.status).toBe(200);
    expect(saved.body.result.logoUrl).toBe(up.body.result.url);
    const elsewhere = await call(s, 'POST', '/api/admin/updateSiteDetails', { token: superToken, body: { logoUrl: '/api/uploads/../../etc/passwd' } });
    expect(elsewhere.status).toBe(400);
  });

  it('serves only stored names: 404 for an unknown hash, 400 for anything else', async () => {
    const missing = await s.app.inject({ method: 'GET', url: `/api/uploads/${'a'.repeat(64)}.webp` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().success).toBe(false);
    for (const bad of ['..%2F..%2Fetc%2Fpasswd', 'x.webp', `${'a'.repeat(64)}.png`, `${'A'.repeat(64)}.webp`]) {
      const res = await s.app.inject({ method: 'GET', url: `/api/uploads/${bad}` });
      expect(res.statusCode, bad).toBe(400);
    }
  });
});

describe('image uploads to S3-compatible storage (s3rver)', () => {
  let s3: S3rver;
  let s3Server: TestServer;
  let port: number;
  const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pitboss-s3rver-'));
  beforeAll(async () => {
    s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'pitboss-images', configs: [] }] });
    ({ port } = await s3.run());
    s3Server = await startTestServer({ DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'pitboss-s3data-')), S3_URL: `http://S3RVER:S3RVER@127.0.0.1:${port}/pitboss-images/cards?region=us-east-1` });
  });
  afterAll(async () => {
    await s3Server?.close();
    await s3?.close();
    fs.rmSync(s3Dir, { recursive: true, force: true });
  });

  it('stores the image and its thumbnail as objects and serves them back', async () => {
    const token = await superLogin(s3Server);
    const res = await upload(s3Server, UPLOAD, token, await pngOf(500, 500, '#ff0066'));
    expect(res.status).toBe(200);
    const name = res.body.result.url.slice('/api/uploads/'.length);
    const client = new AwsClient({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', service: 's3', region: 'us-east-1' });
    for (const key of [name, name.replace('.webp', '.thumb.webp')]) {
      const obj = await client.fetch(`http://127.0.0.1:${port}/pitboss-images/cards/${key}`);
      expect(obj.status, key).toBe(200);
      expect(obj.headers.get('content-type')).toBe('image/webp');
      expect((await sharp(Buffer.from(await obj.arrayBuffer())).metadata()).format).toBe('webp');
    }
    const served = await s3Server.app.inject({ method: 'GET', url: res.body.result.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toContain('immutable');
    expect((await sharp(served.rawPayload).metadata()).width).toBe(500);
    expect((await s3Server.app.inject({ method: 'GET', url: `/api/uploads/${'b'.repeat(64)}.webp` })).statusCode).toBe(404);
  });
});
