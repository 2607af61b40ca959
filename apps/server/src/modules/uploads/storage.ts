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
  /** Every stored image with when it was last written (the orphan purge). */
  list(): Promise<{ name: string; modifiedAt: Date }[]>;
  /** Removes one image; no such file is fine. */
  remove(name: string): Promise<void>;
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
    async list() {
      const names = await fs.readdir(dir).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return [] as string[];
        throw err;
      });
      const out: { name: string; modifiedAt: Date }[] = [];
      for (const name of names.filter((n) => SAFE_NAME.test(n))) {
        const st = await fs.stat(path.join(dir, name)).catch(() => null);
        if (st) out.push({ name, modifiedAt: st.mtime });
      }
      return out;
    },
    async remove(name) {
      await fs.rm(path.join(dir, checkName(name)), { force: true });
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
  // Listing: path-style `/bucket/prefix…` lists the bucket under `prefix/`; an empty path is a virtual-hosted bucket.
  const [bucket, ...rest] = u.pathname.split('/').filter(Boolean);
  const listing = bucket
    ? { bucketUrl: `${u.protocol}//${u.host}/${bucket}`, prefix: rest.length ? `${rest.map(decodeURIComponent).join('/')}/` : '' }
    : { bucketUrl: `${u.protocol}//${u.host}/`, prefix: '' };
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
    async list() {
      // ListObjectsV2 of the bucket under the prefix, page by page (1,000 keys each).
      const out: { name: string; modifiedAt: Date }[] = [];
      let token: string | null = null;
      do {
        const q = new URLSearchParams({ 'list-type': '2', prefix: listing.prefix, ...(token ? { 'continuation-token': token } : {}) });
        const res = await client.fetch(`${listing.bucketUrl}?${q}`);
        if (!res.ok) throw await fail('LIST', res);
        const xml = await res.text();
        for (const m of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
          const key = xmlText(m[1]!, 'Key');
          const at = xmlText(m[1]!, 'LastModified');
          const name = key?.slice(listing.prefix.length) ?? '';
          if (SAFE_NAME.test(name) && at) out.push({ name, modifiedAt: new Date(at) });
        }
        token = /<IsTruncated>true<\/IsTruncated>/.test(xml) ? xmlText(xml, 'NextContinuationToken') : null;
      } while (token);
      return out;
    },
    async remove(name) {
      const res = await client.fetch(objectUrl(name), { method: 'DELETE' });
      if (!res.ok && res.status !== 404) throw await fail(`DELETE ${name}`, res);
      await res.arrayBuffer();
    },
  };
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** The text of an element of an S3 XML answer (keys here are our own names: no markup inside). */
function xmlText(xml: string, tag: string): string | null {
  const m = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml);
  return m ? m[1]!.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => XML_ENTITIES[e]!) : null;
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
