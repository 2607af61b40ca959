// The export streamed by PostgreSQL itself: one `COPY (SELECT …) TO STDOUT (FORMAT csv)` per export.
//
// The database sends each column's own text (dates already in the caller's zone) and quotes it in C
// exactly as `csvField` does: a field holding `"`, `,`, CR or LF is quoted, quotes doubled. Node
// adds what `toCell` does (the formula guard, empty strings as nothing), rewrites the cells SQL
// cannot write as the record path does (JSON, far dates) and ends lines in CRLF, in one pass over
// the bytes that tracks quotes, so a line break inside a quoted value stays as it is.
import { parseJson } from '../lib/json.js';
import { isoInZone } from '../lib/timezone.js';
import { csvField, toCell } from './csv.js';

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;

/**
 * Replaces each `$n` outside string literals and quoted identifiers with `literal(params[n - 1])`:
 * COPY takes no bound parameters. `literal` must give a safe SQL literal (node-postgres's
 * `escapeLiteral` of the value as the driver would send it).
 */
export function inlineParams(text: string, params: readonly unknown[], literal: (v: unknown) => string): string {
  let out = '';
  let i = 0;
  let from = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "'" || ch === '"') {
      // A literal or identifier: doubled quotes stay inside it.
      i++;
      while (i < text.length) {
        if (text[i] === ch) {
          if (text[i + 1] === ch) i += 2;
          else break;
        } else i++;
      }
      i++;
      continue;
    }
    if (ch === '$' && i + 1 < text.length && text.charCodeAt(i + 1) >= 48 && text.charCodeAt(i + 1) <= 57) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
      const n = Number(text.slice(i + 1, j));
      if (n < 1 || n > params.length) throw new Error(`inlineParams: $${n} has no parameter`);
      out += text.slice(from, i) + literal(params[n - 1]);
      from = j;
      i = j;
      continue;
    }
    i++;
  }
  return out + text.slice(from);
}

/**
 * How each column's text from COPY is finished in Node. `key` columns come last: left out of the
 * CSV, the last row's values kept (`lastKeys`), to read the next batch after it.
 */
export type CopyColumnKind = 'text' | 'json' | 'date' | 'key' | ((text: string) => string);

/**
 * The last row's last `count` fields of a batch's COPY CSV (ending in LF), as `lastKeys` gives them,
 * read backwards from its end without reading the rest: the next keyset batch can start before the
 * rewriter has read this one (on another thread). A quoted field is found by its runs of quotes:
 * inside one every quote is doubled (an even run), and the opening quote is the first of an odd run.
 */
export function lastRowFields(buf: Uint8Array, count: number): string[] {
  let i = buf.length - 1; // the row's LF, then the comma before each field read
  if (i < 0 || buf[i] !== LF) throw new Error('export: a COPY batch that does not end a row');
  const fields: string[] = [];
  for (let k = 0; k < count; k++) {
    if (k > 0) {
      if (buf[i] !== COMMA) throw new Error('export: a COPY row with fewer fields than its keys');
    }
    const end = i; // exclusive
    let start: number;
    if (end > 0 && buf[end - 1] === QUOTE) {
      let p = end - 2; // before the closing quote
      for (;;) {
        if (p < 0) throw new Error('export: an unclosed quote in a COPY row');
        if (buf[p] !== QUOTE) {
          p--;
          continue;
        }
        let q = p;
        while (q >= 0 && buf[q] === QUOTE) q--;
        if ((p - q) % 2 === 1) {
          start = q + 1;
          break;
        }
        p = q;
      }
    } else {
      let p = end - 1;
      while (p >= 0 && buf[p] !== COMMA && buf[p] !== LF) p--;
      start = p + 1;
    }
    fields.unshift(unquote(Buffer.from(buf.buffer, buf.byteOffset, buf.length), start, end));
    i = start - 1;
  }
  return fields;
}

const APOS = 0x27;
const CR = 0x0d;
/** = + - @ TAB CR: the first characters `guardCell` prefixes with `'`. */
const GUARD = new Uint8Array(256);
for (const c of [61, 43, 45, 64, 9, 13]) GUARD[c] = 1;

/**
 * COPY's CSV → the record path's CSV, byte for byte. COPY has already quoted each field as
 * `csvField` does; per field this adds what `toCell` does before quoting:
 * - the formula guard: `'` before a first character = + - @ TAB CR (inside the quotes if quoted);
 * - an empty string, which COPY writes `""`, becomes nothing (as NULL is);
 * - JSON cells (PostgreSQL's text) become `JSON.stringify` of the value;
 * - the guard leaves a field that is wholly a number (`-5`, `-0.25`) alone, as `guardCell` does;
 * - date cells (a timestamptz's text in the session's zone) become ISO 8601 to the second with the
 *   offset (`2026-11-28T23:00:00+01:00`) between 1973 and 9999, and elsewhere `isoInZone`'s text of
 *   their instant (see localDateLength);
 * and each line ends in CRLF. `push` takes the stream's chunks in order and returns the complete
 * rows so far (a row cut by a chunk's end is read again with the next chunk); `end` checks
 * nothing is left.
 */
export class CopyCsvRewriter {
  private carry: Buffer | null = null;
  private readonly special: Uint8Array;
  private readonly firstKey: number;
  private out: Buffer = Buffer.allocUnsafe(1 << 16);
  private o = 0;
  /** The `key` columns' values in the last complete row, as text. */
  lastKeys: string[] | null = null;
  /** Complete rows so far. */
  rows = 0;

  constructor(
    private readonly kinds: readonly CopyColumnKind[],
    private readonly timezone: string,
    /** The output's working memory, when the caller keeps one across rewriters (see `buffer`). */
    out?: Buffer,
  ) {
    if (out) this.out = out;
    this.special = Uint8Array.from(kinds, (k) => (k === 'text' ? 0 : k === 'key' ? 2 : k === 'date' ? 3 : 1));
    // A function: the declaration finishes the cell from the database's text (see SqlExportSpec).
    const k = kinds.indexOf('key');
    this.firstKey = k < 0 ? kinds.length : k;
    if (kinds.slice(this.firstKey).some((x) => x !== 'key')) throw new Error('CopyCsvRewriter: key columns come last');
  }

  /** The output's working memory (grown as needed), for the next rewriter. */
  get buffer(): Buffer {
    return this.out;
  }

  /** Room for `more` bytes in the output. */
  private room(more: number): void {
    if (this.o + more <= this.out.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.o + more));
    this.out.copy(next, 0, 0, this.o);
    this.out = next;
  }

  private copy(buf: Buffer, from: number, to: number): void {
    if (to <= from) return;
    this.room(to - from);
    this.o += buf.copy(this.out, this.o, from, to);
  }

  private byte(b: number): void {
    this.room(1);
    this.out[this.o++] = b;
  }

  push(chunk: Buffer): Buffer {
    const buf = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = null;
    const n = buf.length;
    const special = this.special;
    this.room(n + (n >> 4) + 16);
    this.o = 0;
    let seg = 0; // start of the bytes not yet copied out
    let row = 0; // start of the current row
    let rowOut = 0; // output written before the current row
    const firstKey = this.firstKey;
    // The current row's key fields (start, end, start, end…), and the last complete row's: kept in
    // place, as numbers, not an array per row.
    const keys: number[] = [];
    let nk = 0;
    const lastKeys: number[] = [];
    let lastNk = 0;
    let keysFrom = 0; // where the current row's key columns start (their comma included)
    let i = 0;
    outer: while (i < n) {
      let field = 0;
      nk = 0;
      for (;;) {
        // A field starts at i.
        const fs = i;
        if (i >= n) break outer;
        if (field === firstKey) keysFrom = fs - 1;
        const own = special[field] !== 0;
        if (buf[i] === QUOTE) {
          // Three bytes tell `""` (an empty string) from a quoted value.
          if (i + 2 >= n) break outer;
          if (!own && buf[i + 1] === QUOTE && (buf[i + 2] === COMMA || buf[i + 2] === LF)) {
            this.copy(buf, seg, fs);
            i += 2;
            seg = i;
          } else {
            if (!own && GUARD[buf[i + 1]!] === 1 && !numberAt(buf, i + 1, n, QUOTE)) {
              this.copy(buf, seg, i + 1);
              this.byte(APOS);
              seg = i + 1;
            }
            // To the closing quote ("" is a quote inside the value).
            i++;
            for (;;) {
              if (i >= n) break outer;
              if (buf[i] === QUOTE) {
                if (i + 1 >= n) break outer;
                if (buf[i + 1] === QUOTE) i += 2;
                else break;
              } else i++;
            }
            i++;
          }
        } else if (!own && GUARD[buf[i]!] === 1 && !numberAt(buf, i, n, -1)) {
          this.copy(buf, seg, fs);
          this.byte(APOS);
          seg = fs;
        }
        // An unquoted value (or what follows a quoted one) runs to a comma or the line end.
        while (i < n && buf[i] !== COMMA && buf[i] !== LF) i++;
        if (i >= n) break outer;
        if (field >= firstKey) {
          keys[nk++] = fs;
          keys[nk++] = i;
        }
        else if (own && this.kinds[field] === 'json' && buf[fs] === QUOTE && buf[fs + 1] === 0x7b) {
          // A JSON object, the usual case: compacted from the bytes as they are (see compactJson).
          const mark = this.o;
          this.copy(buf, seg, fs);
          if (this.compactJson(buf, fs, i)) seg = i;
          else {
            this.o = mark;
            this.copy(buf, seg, fs);
            this.writeText(csvField(toCell(parseJson(unquote(buf, fs, i)))));
            seg = i;
          }
        } else if (special[field] === 3) {
          // A date: the timestamp's text in the session's zone, as ISO 8601 to the second with its
          // offset when in range; elsewhere `isoInZone`'s text of its instant.
          if (i > fs) {
            const mark = this.o;
            this.copy(buf, seg, fs);
            if (localDateLength(buf, fs, i) === 0 || !this.isoDate(buf, fs, i)) {
              this.o = mark;
              this.copy(buf, seg, fs);
              this.writeText(csvField(toCell(isoInZone(new Date(epochMs(buf.toString('latin1', fs, i))), this.timezone))));
            }
            seg = i;
          }
        } else if (own) {
          const text = this.rewrite(field, buf, fs, i);
          if (text !== null) {
            this.copy(buf, seg, fs);
            this.writeText(text);
            seg = i;
          }
        }
        if (buf[i] === LF) {
          if (nk > 0) {
            // The key columns stay out of the CSV.
            this.copy(buf, seg, keysFrom);
            seg = i;
            for (let k = 0; k < nk; k++) lastKeys[k] = keys[k]!;
            lastNk = nk;
          }
          this.copy(buf, seg, i);
          this.room(2);
          this.out[this.o++] = CR;
          this.out[this.o++] = LF;
          this.rows++;
          i++;
          seg = i;
          row = i;
          rowOut = this.o;
          continue outer;
        }
        field++;
        i++;
      }
    }
    // An unfinished row is read again with the next chunk: what was written of it is dropped, and
    // its bytes wait (copied: the chunk's memory is not kept).
    if (row < n) this.carry = Buffer.from(buf.subarray(row));
    if (lastNk > 0) {
      const k = lastKeys;
      this.lastKeys = Array.from({ length: lastNk / 2 }, (_, j) => unquote(buf, k[2 * j]!, k[2 * j + 1]!));
    }
    // The caller keeps what it is given: a copy, as the output buffer is reused.
    return Buffer.from(this.out.subarray(0, rowOut));
  }

  /**
   * Writes PostgreSQL's text of a timestamptz (`YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM[:SS]]`, checked
   * by localDateLength) as ISO 8601 to the second: the date, `T`, the time, the offset as `±HH:MM`
   * (PostgreSQL writes `+01`, `+05:45`, `-03:30`). False, with nothing written, for an offset
   * with seconds (a local mean time): the caller writes `isoInZone`'s text instead.
   */
  private isoDate(buf: Buffer, start: number, end: number): boolean {
    let i = start + 19;
    if (buf[i] === 0x2e) for (i++; i < end && digit(buf[i]) >= 0; i++);
    const sign = buf[i];
    if ((sign !== 0x2b && sign !== 0x2d) || i + 3 > end) return false;
    const minutes = buf[i + 3] === 0x3a ? i + 4 : -1;
    if (minutes > 0 && buf[i + 6] === 0x3a && (buf[i + 7] !== 0x30 || buf[i + 8] !== 0x30)) return false;
    this.room(25);
    const out = this.out;
    let o = this.o;
    o += buf.copy(out, o, start, start + 10);
    out[o++] = 0x54; // T
    o += buf.copy(out, o, start + 11, start + 19);
    out[o++] = sign;
    out[o++] = buf[i + 1]!;
    out[o++] = buf[i + 2]!;
    out[o++] = 0x3a;
    out[o++] = minutes > 0 ? buf[minutes]! : 0x30;
    out[o++] = minutes > 0 ? buf[minutes + 1]! : 0x30;
    this.o = o;
    return true;
  }

  private writeText(text: string): void {
    this.room(Buffer.byteLength(text));
    this.o += this.out.write(text, this.o);
  }

  /**
   * Writes `JSON.stringify(JSON.parse(…))` of a quoted CSV field holding PostgreSQL's text of a
   * jsonb object, straight from its bytes (quotes still doubled, as they stay in the output), or
   * returns false when that might differ: the database writes ", " and ": " between members where
   * JavaScript writes none, and both escape strings alike (\" \\ \b \f \n \r \t, other control
   * characters as \u00xx, non-ASCII as it is); but JavaScript rewrites numbers (1.0 → 1, digits
   * past 2^53) and puts integer-like keys first, so a number other than a short integer, or a key
   * of digits only, leaves the cell to `JSON.parse`.
   */
  private compactJson(buf: Buffer, start: number, end: number): boolean {
    const last = end - 1; // the closing quote
    this.room(end - start);
    const out = this.out;
    let o = this.o;
    out[o++] = QUOTE;
    const open: number[] = [];
    let keyNext = true;
    let i = start + 1;
    while (i < last) {
      const c = buf[i]!;
      if (c === QUOTE) {
        // `""`: a JSON string, to its closing `""` (`\""` is an escaped quote inside it).
        out[o++] = QUOTE;
        out[o++] = QUOTE;
        i += 2;
        const from = i;
        let digitsOnly = true;
        while (i < last) {
          const d = buf[i]!;
          if (d === 0x5c) {
            digitsOnly = false;
            out[o++] = d;
            i++;
            if (buf[i] === QUOTE) {
              out[o++] = QUOTE;
              out[o++] = QUOTE;
              i += 2;
            } else out[o++] = buf[i++]!;
            continue;
          }
          if (d === QUOTE) break;
          if (d < 0x30 || d > 0x39) digitsOnly = false;
          out[o++] = d;
          i++;
        }
        if (keyNext && digitsOnly && i > from) return false;
        keyNext = false;
        out[o++] = QUOTE;
        out[o++] = QUOTE;
        i += 2;
        continue;
      }
      if (c === COMMA || c === 0x3a) {
        if (c === COMMA) keyNext = open[open.length - 1] === 1;
        out[o++] = c;
        i += buf[i + 1] === 0x20 ? 2 : 1;
        continue;
      }
      if (c === 0x7b || c === 0x5b) {
        open.push(c === 0x7b ? 1 : 0);
        keyNext = c === 0x7b;
      } else if (c === 0x7d || c === 0x5d) {
        open.pop();
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        // A number: only a short integer reads back the same.
        let j = c === 0x2d ? i + 1 : i;
        const first = j;
        while (j < last && buf[j]! >= 0x30 && buf[j]! <= 0x39) j++;
        const len = j - first;
        if (len === 0 || len > 15 || (buf[first] === 0x30 && (len > 1 || c === 0x2d))) return false;
        const next = buf[j];
        if (next === 0x2e || next === 0x65 || next === 0x45) return false;
        while (i < j) out[o++] = buf[i++]!;
        continue;
      }
      out[o++] = c;
      i++;
    }
    out[o++] = QUOTE;
    this.o = o;
    return true;
  }

  /** COPY ends its last row with a line end: anything left means the stream was cut. */
  end(): void {
    if (this.carry && this.carry.length > 0) throw new Error('export: the database stream ended inside a row');
  }

  /** The record path's text of a JSON cell or a far date; null: keep the database's bytes. */
  private rewrite(field: number, buf: Buffer, start: number, end: number): string | null {
    const kind = this.kinds[field]!;
    if (typeof kind === 'function') return kind(unquote(buf, start, end));
    if (end === start) return null; // NULL: an empty cell
    return csvField(toCell(parseJson(unquote(buf, start, end))));
  }
}

/** 1973-01-01 00:00:00 and 9999-12-30 00:00:00 UTC, in seconds: the instants whose local text a date cell keeps (see localDateLength). */
const FROM_S = 94_694_400;
const TO_S = 253_402_128_000;
const digit = (b: number | undefined): number => (b !== undefined && b >= 0x30 && b <= 0x39 ? b - 0x30 : -1);
const two = (buf: Uint8Array, at: number): number => digit(buf[at]) * 10 + digit(buf[at + 1]);

/**
 * A date cell holds PostgreSQL's text of a timestamptz in the session's zone (DateStyle ISO:
 * `YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM[:SS]][ BC]`). Between 1973 and 9999 (the instant, in UTC)
 * the CSV has its first 19 bytes, the local date and time to the second, as `isoInZone` writes
 * it, then its offset (19 is returned); elsewhere (the zones' history can differ between the
 * database and Intl) 0: the cell is written by `isoInZone` from `epochMs`. Only a year next to a bound needs the
 * instant: a zone's offset is under a day.
 */
export function localDateLength(buf: Uint8Array, start: number, end: number): number {
  if (end - start < 22 || buf[start + 4] !== 0x2d || buf[start + 10] !== 0x20) return 0;
  const year = two(buf, start) * 100 + two(buf, start + 2);
  if (year < 1972 || year > 9999 || buf[end - 1] === 0x43 /* BC */) return 0;
  if (year >= 1974 && year <= 9998) return 19;
  const local = Date.UTC(year, two(buf, start + 5) - 1, two(buf, start + 8), two(buf, start + 11), two(buf, start + 14), two(buf, start + 17)) / 1000;
  let i = start + 19;
  if (buf[i] === 0x2e) for (i++; digit(buf[i]) >= 0; i++);
  const sign = buf[i] === 0x2d ? -1 : 1;
  const offset = two(buf, i + 1) * 3600 + (buf[i + 3] === 0x3a ? two(buf, i + 4) * 60 + (buf[i + 6] === 0x3a ? two(buf, i + 7) : 0) : 0);
  const instant = local - sign * offset;
  return instant >= FROM_S && instant < TO_S ? 19 : 0;
}

const TIMESTAMP = /^(\d{4,})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?( BC)?$/;

/**
 * The instant of PostgreSQL's text of a timestamptz (see localDateLength) in milliseconds since
 * 1970, as `(extract(epoch from t) * 1000)::bigint` gives it: the exact microseconds rounded half
 * away from zero. Proleptic Gregorian years, BC as PostgreSQL writes them (1 BC is year 0).
 */
export function epochMs(text: string): number {
  const m = TIMESTAMP.exec(text);
  if (!m) throw new Error(`export: a timestamp the export cannot read: ${text}`);
  const year = m[12] ? 1 - Number(m[1]) : Number(m[1]);
  const d = new Date(0);
  d.setUTCFullYear(year, Number(m[2]) - 1, Number(m[3]));
  d.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), 0);
  const offset = (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 3600 + Number(m[10] ?? 0) * 60 + Number(m[11] ?? 0));
  const seconds = d.getTime() / 1000 - offset;
  const micros = Number((m[7] ?? '').padEnd(6, '0'));
  // seconds · 1000 + micros / 1000, rounded half away from zero (an exact half only when micros ends in 500).
  const ms = seconds * 1000 + Math.floor(micros / 1000);
  const rest = micros % 1000;
  return rest > 500 || (rest === 500 && ms >= 0) ? ms + 1 : ms;
}

/**
 * Whether the field's value from `at` is wholly a plain decimal number (`-?\d+(\.\d+)?`, as
 * `PLAIN_NUMBER` in csv.ts), which the formula guard leaves alone: it ends at a comma or the line
 * end, or (`close`: a quote) at its closing quote. A field cut by the chunk's end is not one (its
 * row is read again with the next chunk).
 */
function numberAt(buf: Uint8Array, at: number, n: number, close: number): boolean {
  let i = buf[at] === 0x2d ? at + 1 : at;
  const first = i;
  while (i < n && digit(buf[i]) >= 0) i++;
  if (i === first) return false;
  if (buf[i] === 0x2e) {
    const frac = ++i;
    while (i < n && digit(buf[i]) >= 0) i++;
    if (i === frac) return false;
  }
  if (close >= 0) {
    if (buf[i] !== close) return false;
    i++;
  }
  return i < n && (buf[i] === COMMA || buf[i] === LF);
}

/** A CSV field's value: its bytes, or inside its quotes with quotes undoubled. */
function unquote(buf: Buffer, start: number, end: number): string {
  const text = buf.toString('utf8', start, end);
  return text.charCodeAt(0) === QUOTE ? text.slice(1, -1).replaceAll('""', '"') : text;
}

/** A database error read from the raw protocol, with the fields node-postgres and PGlite's errors carry (`code`: the SQLSTATE). */
export class CopyOutError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly severity: string | undefined,
    readonly detail: string | undefined,
  ) {
    super(message);
  }
}

/**
 * The CSV of one `COPY … TO STDOUT` from the backend's raw protocol messages, as PGlite's
 * `execProtocolRawStream` hands them over (chunks cut anywhere, even inside a message's header):
 * the CopyData payloads appended in order to one buffer, the other messages skipped, an
 * ErrorResponse kept and thrown by `end`. Chunks are read at once, never kept (they may be views of
 * the database's memory).
 */
export class CopyOutReader {
  private csv: Buffer = Buffer.allocUnsafe(1 << 20);
  private n = 0;
  private readonly head = Buffer.alloc(5);
  private headLen = 0;
  /** The current message's type, and how many of its bytes are still to come. */
  private type = 0;
  private left = 0;
  private error: Buffer[] | null = null;
  private completed = false;
  /** CommandComplete's tag (`COPY <rows>`), as it comes. */
  private tag: number[] = [];

  push(chunk: Uint8Array): void {
    const len = chunk.length;
    let i = 0;
    while (i < len) {
      if (this.left === 0) {
        // A message's header: its type byte and its length (which counts itself, not the type).
        const take = Math.min(5 - this.headLen, len - i);
        for (let k = 0; k < take; k++) this.head[this.headLen++] = chunk[i + k]!;
        i += take;
        if (this.headLen < 5) return;
        this.headLen = 0;
        this.type = this.head[0]!;
        this.left = this.head.readInt32BE(1) - 4;
        if (this.type === 0x43) this.completed = true; // CommandComplete
        else if (this.type === 0x45) this.error = [];
        continue;
      }
      const take = Math.min(this.left, len - i);
      if (this.type === 0x64) {
        // CopyData: a row's bytes.
        if (this.n + take > this.csv.length) {
          const next = Buffer.allocUnsafe(Math.max(this.csv.length * 2, this.n + take));
          this.csv.copy(next, 0, 0, this.n);
          this.csv = next;
        }
        this.csv.set(chunk.subarray(i, i + take), this.n);
        this.n += take;
      } else if (this.type === 0x45) this.error!.push(Buffer.from(chunk.subarray(i, i + take)));
      else if (this.type === 0x43) for (let k = i; k < i + take; k++) this.tag.push(chunk[k]!);
      i += take;
      this.left -= take;
    }
  }

  /** Ready for the next statement's messages (the buffer is kept: one per export, not per batch). */
  reset(): void {
    this.n = 0;
    this.headLen = 0;
    this.left = 0;
    this.error = null;
    this.completed = false;
    this.tag = [];
  }

  /** The rows the statement sent, from its CommandComplete (`COPY <rows>`); call after `end`. */
  rows(): number {
    const tag = String.fromCharCode(...this.tag.filter((c) => c !== 0));
    const m = /^COPY (\d+)$/.exec(tag);
    if (!m) throw new Error(`export: not a COPY's completion: ${tag}`);
    return Number(m[1]);
  }

  /** The whole CSV (valid until the next `push` or `reset`); throws the database's error, or if the messages were cut. */
  end(): Buffer {
    if (this.error) {
      // Fields: a code byte and a NUL-ended text each, then a NUL.
      const fields = new Map<string, string>();
      const body = Buffer.concat(this.error);
      let i = 0;
      while (i < body.length && body[i] !== 0) {
        const to = body.indexOf(0, i + 1);
        fields.set(String.fromCharCode(body[i]!), body.toString('utf8', i + 1, to < 0 ? body.length : to));
        i = to < 0 ? body.length : to + 1;
      }
      throw new CopyOutError(fields.get('M') ?? 'COPY failed', fields.get('C'), fields.get('S'), fields.get('D'));
    }
    if (this.left > 0 || this.headLen > 0 || !this.completed) throw new Error('export: the database stream ended inside a message');
    return this.csv.subarray(0, this.n);
  }
}

/** A simple-query protocol message ('Q', its length, the text NUL-ended). */
export function queryMessage(text: string): Uint8Array {
  const size = Buffer.byteLength(text);
  const m = Buffer.allocUnsafe(6 + size);
  m[0] = 0x51;
  m.writeInt32BE(5 + size, 1);
  m.write(text, 5);
  m[5 + size] = 0;
  return m;
}
