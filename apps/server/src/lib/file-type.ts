/**
 * What an uploaded file is, told by its bytes (never its name or declared type): the one reader of
 * magic bytes, for the image pipeline (`uploads/images.ts`) and ticket attachments
 * (`tickets/files.ts`). SVG, HTML, executables and anything else are none of these.
 */
export type FileKind = 'png' | 'jpeg' | 'gif' | 'webp' | 'pdf';
export type ImageKind = Exclude<FileKind, 'pdf'>;

export const MIME_TYPES = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', pdf: 'application/pdf' } as const satisfies Record<FileKind, string>;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const has = (b: Buffer, sig: Buffer | string, at = 0): boolean => {
  const bytes = typeof sig === 'string' ? Buffer.from(sig, 'latin1') : sig;
  return b.length >= at + bytes.length && b.subarray(at, at + bytes.length).equals(bytes);
};

/** The kind the file's first bytes announce, or null. */
export function sniffFileKind(b: Buffer): FileKind | null {
  if (has(b, PNG_SIGNATURE)) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (has(b, 'GIF87a') || has(b, 'GIF89a')) return 'gif';
  if (has(b, 'RIFF') && has(b, 'WEBP', 8)) return 'webp';
  if (has(b, '%PDF-')) return 'pdf';
  return null;
}

export const isImageKind = (kind: FileKind | null): kind is ImageKind => kind !== null && kind !== 'pdf';

/**
 * Text that has no business inside an image or a PDF: markup or script a browser or an interpreter
 * would run (a polyglot). Markers of five characters or more, so that compressed data does not match
 * by chance (XMP metadata, `<?xpacket` and `<x:xmpmeta`, does not match either). Test it on
 * `buf.toString('latin1')`: every byte is one character, so a marker anywhere is found.
 */
export const EMBEDDED_CODE = /<\?php|<script|<html[\s>]|<svg[\s>]|<!doctype|<iframe|<body[\s>]|<object|<embed[\s>]|javascript:/i;

export const holdsEmbeddedCode = (b: Buffer): boolean => EMBEDDED_CODE.test(b.toString('latin1'));
