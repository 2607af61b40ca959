import { randomBytes, createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type { TICKET_ATTACHMENT_TYPES } from '@pitboss/contract';

export type AttachmentType = (typeof TICKET_ATTACHMENT_TYPES)[number];

/** Most pixels an image attachment may have (width × height), against decompression bombs. */
export const MAX_PIXELS = 40_000_000;

const EXTENSION: Record<AttachmentType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif', 'application/pdf': 'pdf' };

/** Markup that makes a file something a browser or another reader would run, whatever its first bytes say. */
const ACTIVE_MARKUP = /<\s*(script|html|svg|body|iframe|object|embed|\?php|!doctype|\?xml)\b/i;

export type Detected = { ok: true; type: AttachmentType } | { ok: false; reason: string };

const startsWith = (b: Buffer, sig: number[] | string, at = 0) => {
  const bytes = typeof sig === 'string' ? Buffer.from(sig, 'latin1') : Buffer.from(sig);
  return b.length >= at + bytes.length && b.subarray(at, at + bytes.length).equals(bytes);
};

/** A PNG read chunk by chunk: IHDR first, every CRC right, IEND last with nothing after it. */
function checkPng(b: Buffer): string | null {
  let at = 8;
  let first = true;
  while (at + 12 <= b.length) {
    const len = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    const end = at + 12 + len;
    if (end > b.length) return 'The PNG is cut short';
    if (crc32(b.subarray(at + 4, at + 8 + len)) !== b.readUInt32BE(at + 8 + len)) return 'The PNG is damaged (a checksum does not match)';
    if (first) {
      if (type !== 'IHDR' || len !== 13) return 'The PNG has no header';
      const w = b.readUInt32BE(at + 8);
      const h = b.readUInt32BE(at + 12);
      if (w === 0 || h === 0 || w * h > MAX_PIXELS) return `The image is too large (at most ${MAX_PIXELS.toLocaleString('en')} pixels)`;
      first = false;
    }
    at = end;
    if (type === 'IEND') return at === b.length ? null : 'The PNG has data after its end';
  }
  return 'The PNG has no end';
}

function checkGif(b: Buffer): string | null {
  if (b.length < 14) return 'The GIF is cut short';
  const w = b.readUInt16LE(6);
  const h = b.readUInt16LE(8);
  if (w === 0 || h === 0 || w * h > MAX_PIXELS) return 'The image is too large';
  return b[b.length - 1] === 0x3b ? null : 'The GIF has data after its end';
}

function checkJpeg(b: Buffer): string | null {
  // A JPEG ends at its EOI marker; bytes after it are another file riding along.
  return b.length > 4 && b[b.length - 2] === 0xff && b[b.length - 1] === 0xd9 ? null : 'The JPEG has data after its end';
}

function checkWebp(b: Buffer): string | null {
  return b.readUInt32LE(4) + 8 === b.length ? null : 'The WebP file’s length does not match its header';
}

function checkPdf(b: Buffer): string | null {
  return b.subarray(Math.max(0, b.length - 1024)).includes('%%EOF') ? null : 'The PDF has no end marker';
}

/**
 * The file's type from its bytes, never from its name or declared type: PNG, JPEG, WebP, GIF or
 * PDF, each whole (its structure read to its end, nothing after it), and with no markup a browser
 * or reader would act on anywhere inside (an image that is also an HTML page, a "polyglot").
 * SVG, HTML, executables and anything else are refused.
 */
export function detectType(b: Buffer): Detected {
  let type: AttachmentType | null = null;
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) type = 'image/png';
  else if (startsWith(b, [0xff, 0xd8, 0xff])) type = 'image/jpeg';
  else if (startsWith(b, 'GIF87a') || startsWith(b, 'GIF89a')) type = 'image/gif';
  else if (startsWith(b, 'RIFF') && startsWith(b, 'WEBP', 8)) type = 'image/webp';
  else if (startsWith(b, '%PDF-')) type = 'application/pdf';
  if (!type) return { ok: false, reason: 'Only PNG, JPEG, WebP, GIF images and PDF files are accepted (told by the file’s content, not its name)' };
  const problem = { 'image/png': checkPng, 'image/gif': checkGif, 'image/jpeg': checkJpeg, 'image/webp': checkWebp, 'application/pdf': checkPdf }[type](b);
  if (problem) return { ok: false, reason: problem };
  if (ACTIVE_MARKUP.test(b.toString('latin1'))) return { ok: false, reason: 'The file holds markup (HTML or script) besides its content' };
  return { ok: true, type };
}

/** A name fit to show and to offer as the download's name: no path, no control or odd characters, the detected type's extension. */
export function cleanFilename(name: string, type: AttachmentType): string {
  const base = path.basename(name.replace(/\\/g, '/')).replace(/\.[^.]*$/, '');
  const clean = base.normalize('NFC').replace(/[^\p{L}\p{N} ._()-]+/gu, '_').replace(/^[.\s]+/, '').slice(0, 100).trim() || 'file';
  return `${clean}.${EXTENSION[type]}`;
}

export const uploadsDir = (dataDir: string) => path.join(dataDir, 'uploads', 'tickets');

/** Writes the bytes under a server-generated name; returns that name and the content's SHA-256. */
export async function storeFile(dataDir: string, bytes: Buffer, type: AttachmentType): Promise<{ storedName: string; sha256: string }> {
  const dir = uploadsDir(dataDir);
  await fs.mkdir(dir, { recursive: true });
  const storedName = `${randomBytes(16).toString('hex')}.${EXTENSION[type]}`;
  await fs.writeFile(path.join(dir, storedName), bytes, { flag: 'wx', mode: 0o640 });
  return { storedName, sha256: createHash('sha256').update(bytes).digest('hex') };
}

export async function removeFile(dataDir: string, storedName: string): Promise<void> {
  await fs.rm(path.join(uploadsDir(dataDir), path.basename(storedName)), { force: true });
}

export async function readStoredFile(dataDir: string, storedName: string): Promise<Buffer> {
  return fs.readFile(path.join(uploadsDir(dataDir), path.basename(storedName)));
}
