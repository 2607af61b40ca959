import { createHash } from 'node:crypto';
import { ERROR_CODES, IMAGE_LIMITS, thumbnailUrl, UPLOADS_PREFIX, type StoredImage } from '@pitboss/contract';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { AppError, badRequest } from '../../http/errors.js';
import type { ImageStore } from './storage.js';

type Format = (typeof IMAGE_LIMITS.formats)[number];

/** The format the file's first bytes announce, or null. */
export function magicFormat(buf: Buffer): Format | null {
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (buf.length >= 6 && /^GIF8[79]a$/.test(buf.subarray(0, 6).toString('latin1'))) return 'gif';
  if (buf.length >= 12 && buf.subarray(0, 4).toString('latin1') === 'RIFF' && buf.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return null;
}

/**
 * Text that has no business inside an image: markup or script a browser or an interpreter would run
 * (a polyglot). Markers of five characters or more, so that compressed pixel data does not match by
 * chance (XMP metadata, `<?xpacket` and `<x:xmpmeta`, does not match either).
 */
const EMBEDDED_CODE = /<\?php|<script|<html[\s>]|<svg[\s>]|<!doctype|<iframe|<body[\s>]|<object|<embed[\s>]|javascript:/i;

function refuse(message: string): AppError {
  return badRequest(message, { file: message });
}

/**
 * Checks an uploaded file and re-encodes it: magic bytes (PNG, JPEG, WebP, GIF only; SVG refused),
 * no markup or script inside (polyglots), no data after a PNG's end, the dimensions from the header
 * before anything is decoded (pixel bombs), then decoded with sharp's own pixel limit, turned
 * upright, shrunk to `maxSide`, written as WebP without any metadata (EXIF, GPS, ICC, XMP), with a
 * thumbnail. Both are named by the hash of the stored image's bytes.
 */
export async function processImage(buf: Buffer): Promise<{ name: string; thumbName: string; main: Buffer; thumb: Buffer; width: number; height: number }> {
  if (buf.length === 0) throw refuse('The file is empty');
  if (buf.length > IMAGE_LIMITS.maxBytes) throw tooLarge();
  const format = magicFormat(buf);
  if (!format) {
    const head = buf.subarray(0, 512).toString('utf8').replace(/^\uFEFF/, '').trimStart().toLowerCase();
    if (head.startsWith('<svg') || head.startsWith('<?xml') || head.includes('<svg')) throw refuse('SVG images are not accepted: upload a PNG, JPEG, WebP or GIF');
    throw refuse('Not an image: upload a PNG, JPEG, WebP or GIF');
  }
  // latin1 keeps every byte as one character: a marker hidden anywhere in the file is found.
  if (EMBEDDED_CODE.test(buf.toString('latin1'))) throw refuse('The file holds markup or script besides the image: it is refused');
  if (format === 'png' && !pngEndsAtIend(buf)) throw refuse('The file holds data after the end of the PNG image: it is refused');

  const limitInputPixels = IMAGE_LIMITS.maxPixels;
  let meta: Metadata;
  try {
    // Header only: nothing is decoded yet.
    meta = await sharp(buf, { limitInputPixels: false, animated: true }).metadata();
  } catch {
    throw refuse(`The ${format.toUpperCase()} file is damaged or not an image`);
  }
  if (meta.format !== format) throw refuse(`The file says ${format.toUpperCase()} but is not one`);
  const width = meta.width ?? 0;
  const height = (meta.pageHeight ?? meta.height) ?? 0;
  const frames = meta.pages ?? 1;
  if (!width || !height) throw refuse('The image has no size');
  if (width * height * frames > IMAGE_LIMITS.maxPixels) {
    throw refuse(`The image is too large: ${width} × ${height}${frames > 1 ? ` × ${frames} frames` : ''} pixels (at most ${(IMAGE_LIMITS.maxPixels / 1e6).toFixed(0)} megapixels)`);
  }

  let main: { data: Buffer; info: OutputInfo };
  let thumb: Buffer;
  try {
    // First frame only (an animated GIF becomes a still), upright by its EXIF orientation; sharp writes no metadata unless asked.
    const decoded = sharp(buf, { limitInputPixels, failOn: 'error', animated: false }).rotate();
    main = await decoded
      .clone()
      .resize({ width: IMAGE_LIMITS.maxSide, height: IMAGE_LIMITS.maxSide, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 85, effort: 4 })
      .toBuffer({ resolveWithObject: true });
    thumb = await decoded
      .clone()
      .resize({ width: IMAGE_LIMITS.thumbSide, height: IMAGE_LIMITS.thumbSide, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80, effort: 4 })
      .toBuffer();
  } catch {
    throw refuse(`The ${format.toUpperCase()} image could not be read: it is damaged or truncated`);
  }
  const hash = createHash('sha256').update(main.data).digest('hex');
  return { name: `${hash}.webp`, thumbName: `${hash}.thumb.webp`, main: main.data, thumb, width: main.info.width, height: main.info.height };
}

export const tooLarge = () => new AppError(413, ERROR_CODES.VALIDATION, `The file is larger than ${IMAGE_LIMITS.maxBytes / 1024 / 1024} MB`, { file: 'Too large' });

/** Whether a PNG's last chunk is IEND and nothing follows it. */
function pngEndsAtIend(buf: Buffer): boolean {
  let at = 8;
  while (at + 12 <= buf.length) {
    const length = buf.readUInt32BE(at);
    const type = buf.subarray(at + 4, at + 8).toString('latin1');
    const next = at + 12 + length;
    if (type === 'IEND') return next === buf.length;
    if (next > buf.length) return false;
    at = next;
  }
  return false;
}

/** Processes and stores an image (the thumbnail first: a stored image always has its thumbnail). */
export async function storeImage(store: ImageStore, buf: Buffer): Promise<StoredImage> {
  const img = await processImage(buf);
  await store.put(img.thumbName, img.thumb, 'image/webp');
  await store.put(img.name, img.main, 'image/webp');
  const url = `${UPLOADS_PREFIX}${img.name}`;
  return { url, thumbUrl: thumbnailUrl(url), width: img.width, height: img.height, bytes: img.main.length };
}
