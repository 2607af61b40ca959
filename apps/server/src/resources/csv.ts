import { stringify } from 'csv-stringify/sync';

/** Cells that a spreadsheet would run as a formula are prefixed with `'` (formula-injection guard). */
export function guardCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function toCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return guardCell(value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join('; '));
  if (typeof value === 'object') return guardCell(JSON.stringify(value));
  return guardCell(String(value));
}

/** RFC 4180: CRLF line ends, fields with comma, quote or line break quoted, quotes doubled. */
export function csvLines(rows: string[][]): string {
  return stringify(rows, { record_delimiter: 'windows', quoted_match: /[",\r\n]/ });
}
