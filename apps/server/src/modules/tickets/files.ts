import { randomBytes, createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { TICKET_ATTACHMENT_TYPES } from '@pitboss/contract';
import { AppError, badRequest } from '../../http/errors.js';
import { holdsEmbeddedCode, isImageKind, MIME_TYPES, sniffFileKind } from '../../lib/file-type.js';
import { reencodeImage } from '../uploads/images.js';

export type AttachmentType = (typeof TICKET_ATTACHMENT_TYPES)[number];

const EXTENSION: Record<AttachmentType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif', 'application/pdf': 'pdf' };

/** A PDF's own check: whole (its end marker in its last KiB), and no markup a browser or reader would act on anywhere inside (a polyglot). */
function pdfProblem(b: Buffer): string | null {
  if (!b.subarray(Math.max(0, b.length - 1024)).includes('%%EOF')) return 'The PDF has no end marker';
  if (holdsEmbeddedCode(b)) return 'The file holds markup (HTML or script) besides its content';
  return null;
}

/**
 * An attachment as it is stored, its type told by its bytes (`lib/file-type.ts`), never by its name
 * or declared type. An image (PNG, JPEG, WebP, GIF) goes through the image pipeline's checks and is
 * re-encoded in its own format at its size, without metadata (`reencodeImage`); a PDF is checked
 * whole and kept as sent. Anything else (SVG, HTML, executables) is refused: a 400 naming the file.
 */
export async function cleanAttachment(f: { filename: string; bytes: Buffer }): Promise<{ filename: string; type: AttachmentType; bytes: Buffer }> {
  // The message opens with a word, so a toast's capital first letter (seed) never changes the file's name.
  const refused = (reason: string) => badRequest(`Could not attach ${f.filename || 'a file'}: ${reason}`, { file: reason });
  const kind = sniffFileKind(f.bytes);
  if (kind === 'pdf') {
    const problem = pdfProblem(f.bytes);
    if (problem) throw refused(problem);
    return { filename: f.filename, type: MIME_TYPES.pdf, bytes: f.bytes };
  }
  if (!isImageKind(kind)) throw refused('Only PNG, JPEG, WebP, GIF images and PDF files are accepted (told by the file’s content, not its name)');
  try {
    const image = await reencodeImage(f.bytes);
    return { filename: f.filename, type: MIME_TYPES[image.format], bytes: image.bytes };
  } catch (err) {
    if (err instanceof AppError && err.status === 400) throw refused(err.message);
    throw err;
  }
}

/** A name fit to show and to offer as the download's name: no path, no control or odd characters, the detected type's extension. */
export function cleanFilename(name: string, type: AttachmentType): string {
  const base = path.basename(name.replace(/\\/g, '/')).replace(/\.[^.]*$/, '');
  // At most 100 characters, counted as characters (code points): a cut by UTF-16 units could split a
  // letter outside the basic plane (𝒜) into half a surrogate pair, a name no header or file system takes.
  const kept = Array.from(base.normalize('NFC').replace(/[^\p{L}\p{N} ._()-]+/gu, '_').replace(/^[.\s]+/, ''));
  const clean = kept.slice(0, 100).join('').trim() || 'file';
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
