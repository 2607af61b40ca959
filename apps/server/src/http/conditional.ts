/**
 * Whether a GET's `If-None-Match` holds the current entity tag, so the answer is 304 Not Modified
 * (RFC 9110 §13.1.2): `*` matches any current representation; otherwise a list of tags compared
 * weakly (`W/"x"` and `"x"` are the same tag for this header).
 */
export function notModified(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const current = opaque(etag);
  return value.split(',').some((t) => opaque(t) === current);
}
