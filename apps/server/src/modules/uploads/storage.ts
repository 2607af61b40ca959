import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AwsClient } from 'aws4fetch';
import type { Config } from '../../config.js';

/**
 * Where stored images live. Names are server-made (`<sha-256>.webp`, `<sha-256>.thumb.webp`): the
 * same bytes always get the same name, so a write of an existing name changes nothing and a stored
 * file never changes (it is served as immutable).
 */
export interface ImageStore {
  readonly kind: 'files' | 's3';
  put(name: string, body: Buffer, contentType: string): Promise<void>;
  /** The bytes, or null when there is no such file. */
  get(name: string): Promise<Buffer | null>;
}

const SAFE_NAME = /^[0-9a-f]{64}(\.thumb)?\.webp$/;
function checkName(name: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`Not a stored image name: ${name}`);
  return name;
}

/** Files under a folder (default `DATA_DIR/uploads`): each written to a temporary name, then renamed into place. */
export function fileImageStore(dir: string): ImageStore {
  let ready: Promise<unknown> | null = null;
  return {
    kind: 'files',
    async put(name, body) {
      ready ??= fs.mkdir(dir, { recursive: true });
      await ready;
      const target = path.join(dir, checkName(name));
      const tmp = path.join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
      await fs.writeFile(tmp, body, { mode: 0o644 });
      await fs.rename(tmp, target);
    },
    async get(name) {
      try {
        return await fs.readFile(path.join(dir, checkName(name)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
  };
}

/**
 * S3-compatible storage (AWS S3, MinIO, Cloudflare R2, Ceph, s3rver…) from one URL:
 * `http(s)://ACCESS_KEY:SECRET_KEY@host[:port]/bucket[/prefix][?region=…]`. Objects are addressed
 * path-style under that URL (for a virtual-hosted bucket, put the bucket in the host and leave the
 * path empty); requests are signed with SigV4 (`aws4fetch`).
 */
export function s3ImageStore(s3Url: string): ImageStore {
  const u = new URL(s3Url);
  const client = new AwsClient({
    accessKeyId: decodeURIComponent(u.username),
    secretAccessKey: decodeURIComponent(u.password),
    service: 's3',
    region: u.searchParams.get('region') || 'us-east-1',
    retries: 2,
  });
  const base = `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}/`;
  const objectUrl = (name: string) => `${base}${checkName(name)}`;
  const fail = async (what: string, res: Response) => new Error(`S3 ${what} answered ${res.status}: ${(await res.text().catch(() => '')).slice(0, 300)}`);
  return {
    kind: 's3',
    async put(name, body, contentType) {
      const res = await client.fetch(objectUrl(name), {
        method: 'PUT',
        body: new Uint8Array(body),
        headers: { 'content-type': contentType, 'cache-control': 'public, max-age=31536000, immutable' },
      });
      if (!res.ok) throw await fail(`PUT ${name}`, res);
      await res.arrayBuffer();
    },
    async get(name) {
      const res = await client.fetch(objectUrl(name));
      if (res.status === 404) {
        await res.arrayBuffer();
        return null;
      }
      if (!res.ok) throw await fail(`GET ${name}`, res);
      return Buffer.from(await res.arrayBuffer());
    },
  };
}

const stores = new WeakMap<Config, ImageStore>();

/** The store the configuration names: S3 when `S3_URL` is set, else `DATA_DIR/uploads`. One per configuration. */
export function imageStore(config: Pick<Config, 'dataDir' | 's3Url'>): ImageStore {
  const key = config as Config;
  let store = stores.get(key);
  if (!store) {
    store = config.s3Url ? s3ImageStore(config.s3Url) : fileImageStore(path.join(config.dataDir, 'uploads'));
    stores.set(key, store);
  }
  return store;
}
