const cache = new Map<string, boolean>();

/** The caller's IANA time zone from the `timezone` header; anything invalid is UTC. */
export function normaliseTimezone(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return 'UTC';
  let ok = cache.get(value);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: value });
      ok = /^[A-Za-z0-9_+\-/]+$/.test(value);
    } catch {
      ok = false;
    }
    if (cache.size < 1000) cache.set(value, ok);
  }
  return ok ? value : 'UTC';
}

/** `YYYY-MM-DD HH:mm:ss` of an instant in a time zone (CSV exports, mail). */
export function formatInZone(date: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  }).formatToParts(date);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}
