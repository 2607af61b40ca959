const cache = new Map<string, boolean>();
let databaseZones: Set<string> | null = null;

/** The zones the database knows (`pg_timezone_names`): a zone Intl knows but the database doesn't would fail there. */
export function setDatabaseTimezones(names: Iterable<string>): void {
  databaseZones = new Set(names);
  cache.clear();
}

/** The caller's IANA time zone from the `timezone` header; anything invalid is UTC. */
export function normaliseTimezone(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return 'UTC';
  let ok = cache.get(value);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: value });
      ok = /^[A-Za-z0-9_+\-/]+$/.test(value) && (databaseZones === null || databaseZones.has(value));
    } catch {
      ok = false;
    }
    if (cache.size < 1000) cache.set(value, ok);
  }
  return ok ? value : 'UTC';
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, number>>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
    });
    if (formatters.size < 500) formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's offset from UTC (ms) at an instant; zones change offset at most on quarter hours, so it is cached per 15 minutes. */
function offsetAt(ms: number, timeZone: string): number {
  let byZone = offsets.get(timeZone);
  if (!byZone) {
    byZone = new Map();
    if (offsets.size < 500) offsets.set(timeZone, byZone);
  }
  const bucket = Math.floor(ms / 900_000);
  let off = byZone.get(bucket);
  if (off === undefined) {
    const p: Record<string, string> = {};
    for (const part of formatter(timeZone).formatToParts(new Date(bucket * 900_000))) p[part.type] = part.value;
    const local = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
    off = local - bucket * 900_000;
    if (byZone.size > 100_000) byZone.clear();
    byZone.set(bucket, off);
  }
  return off;
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `YYYY-MM-DD HH:mm:ss` of an instant in a time zone (mail, file names; CSV cells use `isoInZone`). */
export function formatInZone(date: Date, timeZone: string): string {
  const ms = date.getTime();
  const d = new Date(ms + offsetAt(ms, timeZone));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** An ISO 8601 year: four digits from 0 to 9999, else signed and six (as `Date.prototype.toISOString`). */
const isoYear = (y: number): string => (y >= 0 && y <= 9999 ? String(y).padStart(4, '0') : `${y < 0 ? '-' : '+'}${String(Math.abs(y)).padStart(6, '0')}`);

/**
 * A zone's offset from UTC as ISO 8601 writes it: `±HH:MM` (UTC is `+00:00`, never `Z`, so every
 * cell has one shape), `±HH:MM:SS` only when the seconds are not zero (a zone's local mean time
 * before its standard time, e.g. Paris's +00:09:21), so local time + offset is the instant.
 */
export function isoOffset(seconds: number): string {
  const abs = Math.abs(seconds);
  const s = abs % 60;
  return `${seconds < 0 ? '-' : '+'}${pad(Math.floor(abs / 3600))}:${pad(Math.floor(abs / 60) % 60)}${s ? `:${pad(s)}` : ''}`;
}

/** ISO 8601 of an instant in a time zone, to the second, with the zone's offset then: `2026-11-28T23:00:00+01:00` (CSV exports). */
export function isoInZone(date: Date, timeZone: string): string {
  const ms = date.getTime();
  const off = offsetAt(ms, timeZone);
  const d = new Date(ms + off);
  return `${isoYear(d.getUTCFullYear())}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${isoOffset(Math.round(off / 1000))}`;
}
