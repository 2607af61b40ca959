import { createHash } from 'node:crypto';
import { ERROR_CODES, IMAGE_LIMITS, thumbnailUrl, UPLOADS_PREFIX, type StoredImage } from '@pitboss/contract';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { AppError, badRequest } from '../../http/errors.js';
import { holdsEmbeddedCode, isImageKind, sniffFileKind, type ImageKind } from '../../lib/file-type.js';
import type { ImageStore } from './storage.js';

/** The image's format and size as its header tells them, once every check before decoding passed. */
interface CheckedImage {
  format: ImageKind;
  width: number;
  height: number;
  frames: number;
}

function refuse(message: string): AppError {
  return badRequest(message, { file: message });
}

/**
 * The checks before anything is decoded: magic bytes (PNG, JPEG, WebP, GIF only; SVG refused), no
 * markup or script inside (polyglots), no data after a PNG's end, the format the header names, and
 * the dimensions from the header (pixel bombs).
 */
async function checkImage(buf: Buffer): Promise<CheckedImage> {
  if (buf.length === 0) throw refuse('The file is empty');
  if (buf.length > IMAGE_LIMITS.maxBytes) throw tooLarge();
  const format = sniffFileKind(buf);
  if (!isImageKind(format)) {
    const head = buf.subarray(0, 512).toString('utf8').replace(/^\uFEFF/, '').trimStart().toLowerCase();
    if (head.startsWith('<svg') || head.startsWith('<?xml') || head.includes('<svg')) throw refuse('SVG images are not accepted: upload a PNG, JPEG, WebP or GIF');
    throw refuse('Not an image: upload a PNG, JPEG, WebP or GIF');
  }
  if (holdsEmbeddedCode(buf)) throw refuse('The file holds markup or script besides the image: it is refused');
  if (format === 'png' && !pngEndsAtIend(buf)) throw refuse('The file holds data after the end of the PNG image: it is refused');

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
  return { format, width, height, frames };
}

/**
 * Checks an uploaded file (`checkImage`) and re-encodes it: decoded with sharp's own pixel limit,
 * turned upright, shrunk to `maxSide`, written as WebP without any metadata (EXIF, GPS, ICC, XMP),
 * with a thumbnail. Both are named by the hash of the stored image's bytes.
 */
export async function processImage(buf: Buffer): Promise<{ name: string; thumbName: string; main: Buffer; thumb: Buffer; width: number; height: number }> {
  const { format } = await checkImage(buf);
  let main: { data: Buffer; info: OutputInfo };
  let thumb: Buffer;
  try {
    // First frame only (an animated GIF becomes a still), upright by its EXIF orientation; sharp writes no metadata unless asked.
    const decoded = sharp(buf, { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: 'error', animated: false }).rotate();
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

/**
 * Checks an uploaded file (`checkImage`) and re-encodes it at its size and in its format, for files
 * kept as sent (ticket attachments): decoded with sharp's own pixel limit, a still one turned
 * upright by its EXIF orientation (an animated GIF or WebP keeps its frames), written without any
 * metadata (EXIF, GPS, ICC, XMP). Whatever rode along in the file (chunks, trailing bytes) is gone.
 */
export async function reencodeImage(buf: Buffer): Promise<{ format: ImageKind; bytes: Buffer }> {
  const { format, frames } = await checkImage(buf);
  const animated = frames > 1;
  try {
    const decoded = sharp(buf, { limitInputPixels: IMAGE_LIMITS.maxPixels, failOn: 'error', animated });
    const upright = animated ? decoded : decoded.rotate();
    const encoded = {
      png: () => upright.png({ compressionLevel: 9 }),
      jpeg: () => upright.jpeg({ quality: 90 }),
      webp: () => upright.webp({ quality: 90, effort: 4 }),
      gif: () => upright.gif(),
    }[format]();
    return { format, bytes: await encoded.toBuffer() };
  } catch {
    throw refuse(`The ${format.toUpperCase()} image could not be read: it is damaged or truncated`);
  }
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
