import { z } from 'zod';
import { endpoint, PUBLIC_ACCESS, writeAccess, type Endpoint } from '../resources/endpoint.js';
import type { RestrictionName } from '../restrictions.js';

// ── Images: one upload pipeline for every image field ────────────────────────
/**
 * What an uploaded image may be. The server reads the dimensions from the file's header before it
 * decodes anything (a small file that would decode to gigabytes is refused there), checks the magic
 * bytes, then re-encodes it as WebP (metadata dropped, at most `maxSide` on its longer side) with a
 * thumbnail. The stored name is the hash of the re-encoded bytes.
 */
export const IMAGE_LIMITS = {
  /** Largest file accepted, in bytes (5 MiB). */
  maxBytes: 5 * 1024 * 1024,
  /** Largest image accepted, in pixels (width × height × frames), read from the header: 40 megapixels. */
  maxPixels: 40_000_000,
  /** Longest side of the stored image, in pixels. */
  maxSide: 1600,
  /** Longest side of its thumbnail. */
  thumbSide: 320,
  formats: ['png', 'jpeg', 'webp', 'gif'],
} as const;

/** The public address of a stored image: `/api/uploads/<sha-256 of its bytes>.webp`. */
export const UPLOADS_PREFIX = '/api/uploads/';
const STORED_IMAGE = /^\/api\/uploads\/[0-9a-f]{64}\.webp$/;

export const isStoredImageUrl = (value: string): boolean => STORED_IMAGE.test(value);

/** An image field's value: empty, or a stored image's address (what the upload answered). */
export const imageUrlSchema = z
  .string({ error: 'An image address' })
  .trim()
  .max(200, 'Not a stored image')
  .refine((v) => v === '' || STORED_IMAGE.test(v), 'Upload the image: only images stored here are accepted');

/**
 * The same, also keeping an absolute http(s) address set before uploads existed (coin and site
 * logos): new images come through the upload.
 */
export const imageOrLegacyUrlSchema = z
  .string({ error: 'An image address' })
  .trim()
  .max(500, 'At most 500 characters')
  .refine((v) => v === '' || STORED_IMAGE.test(v) || /^https:\/\/[^\s"'<>]+$/.test(v), 'Upload the image (or an https address)');

/** The thumbnail of a stored image (lists show these); another address is its own thumbnail. */
export function thumbnailUrl(url: string): string {
  return STORED_IMAGE.test(url) ? url.replace(/\.webp$/, '.thumb.webp') : url;
}

/** A file name as stored: the hash, `.thumb` for the thumbnail, `.webp`. */
export const uploadFileParam = z.object({ file: z.string().regex(/^[0-9a-f]{64}(\.thumb)?\.webp$/, 'No such image') });

export const storedImageSchema = z.object({
  /** The address to keep in the image field. */
  url: z.string(),
  thumbUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** Size of the stored WebP, in bytes. */
  bytes: z.number().int(),
});
export type StoredImage = z.infer<typeof storedImageSchema>;

export const uploadsEndpoints = {
  serve: endpoint('GET /api/uploads/:file', {
    access: PUBLIC_ACCESS,
    summary: 'A stored image or its thumbnail (WebP; immutable: the name is the hash of its bytes)',
    params: uploadFileParam,
    raw: 'image',
  }),
};

/**
 * The upload endpoint of a form that has an image field: `POST <base>/images`, multipart with one
 * part `file`, under the write right of the form's restriction (who may not change the record may
 * not store images for it). Answers the stored image's address.
 */
export function imageUploadEndpoint(base: string, label: string, restriction: RestrictionName): Endpoint {
  return endpoint(`POST ${base as `/api/${string}`}/images`, {
    access: writeAccess(restriction),
    summary: `Upload an image for a ${label.toLowerCase()} (multipart, part \`file\`: PNG, JPEG, WebP or GIF; stored re-encoded as WebP)`,
    upload: 'image',
    result: storedImageSchema,
  });
}

/** Whether a form has an image field (and so an upload endpoint). */
export const hasImageField = (fields: readonly { type: string }[] | undefined): boolean => (fields ?? []).some((f) => f.type === 'image');
