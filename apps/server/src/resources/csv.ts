/** A cell that is a plain decimal number, which a spreadsheet reads as a number: never guarded. */
export const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * Cells that a spreadsheet would run as a formula are prefixed with `'` (formula-injection guard),
 * except a cell that is wholly a number (`-5`, `-0.25`: a negative amount stays a number).
 */
export function guardCell(value: string): string {
  const c = value.charCodeAt(0);
  // = + - @ TAB CR
  if (c === 45 && PLAIN_NUMBER.test(value)) return value;
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13 ? `'${value}` : value;
}

export function toCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return guardCell(value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join('; '));
  if (typeof value === 'object') return guardCell(JSON.stringify(value));
  return guardCell(String(value));
}

const NEEDS_QUOTES = /[",\r\n]/;

/** One field per RFC 4180: quoted (quotes doubled) when it holds a comma, a quote or a line break. */
export function csvField(v: string): string {
  return NEEDS_QUOTES.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/**
 * RFC 4180: records end in CRLF; a field holding a comma, a quote or a line
 * break is quoted, with quotes doubled. Hand-written because it is three
 * lines and sits in the export's hot loop (a library call per row cost 6×).
 */
export function csvLines(rows: string[][]): string {
  let out = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      const v = row[i]!;
      if (i > 0) out += ',';
      out += csvField(v);
    }
    out += '\r\n';
  }
  return out;
}
