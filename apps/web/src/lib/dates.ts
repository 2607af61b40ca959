import { countOf } from '@pitboss/contract';
import dayjs from 'dayjs';

/**
 * One way to show a moment everywhere: in the admin's time zone (the browser's, the one the API
 * is told in the `timezone` header), relative when recent ("3 min ago"), absolute otherwise, with
 * the exact time to the second (and the zone) on hover.
 */
export const DATE_TIME_FORMAT = 'D MMM YYYY, HH:mm';
export const DATE_FORMAT = 'D MMM YYYY';
const EXACT_FORMAT = 'D MMM YYYY, HH:mm:ss';
/** Up to a week old (or ahead) a moment reads relative. */
const RELATIVE_WITHIN_MS = 7 * 86_400_000;

export const adminTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function parse(value: unknown): dayjs.Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  const d = dayjs(value as string | number | Date);
  return d.isValid() ? d : null;
}

/** "26 Nov 2026, 14:05"; what was given, unchanged, when it is not a date. */
export function formatDateTime(value: unknown): string {
  const d = parse(value);
  return d ? d.format(DATE_TIME_FORMAT) : value === null || value === undefined ? '' : String(value);
}

/** The exact moment for a tooltip: "26 Nov 2026, 14:05:09 (Europe/Paris)". */
export function exactDateTime(value: unknown): string {
  const d = parse(value);
  return d ? `${d.format(EXACT_FORMAT)} (${adminTimeZone()})` : '';
}

/** "just now", "3 min ago", "2 hours ago", "in 5 days"; null when further than a week (show it absolute). */
export function relativeTime(value: unknown, now: number = Date.now()): string | null {
  const d = parse(value);
  if (!d) return null;
  const diff = now - d.valueOf();
  const abs = Math.abs(diff);
  if (abs >= RELATIVE_WITHIN_MS) return null;
  if (abs < 45_000) return 'just now';
  let text: string;
  if (abs < 3_600_000) text = `${Math.max(1, Math.round(abs / 60_000))} min`;
  else if (abs < 86_400_000) text = countOf(Math.round(abs / 3_600_000), 'hour');
  else text = countOf(Math.round(abs / 86_400_000), 'day');
  return diff >= 0 ? `${text} ago` : `in ${text}`;
}

/** What a cell shows: relative when recent, else absolute. */
export function displayDateTime(value: unknown, now: number = Date.now()): string {
  return relativeTime(value, now) ?? formatDateTime(value);
}
