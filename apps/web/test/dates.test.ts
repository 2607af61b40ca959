import { describe, expect, it } from 'vitest';
import { displayDateTime, exactDateTime, formatDateTime, relativeTime } from '../src/lib/dates';

describe('one date and time format', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it('reads recent moments relative, with the right number', () => {
    expect(relativeTime(ago(10_000), now)).toBe('just now');
    expect(relativeTime(ago(3 * 60_000), now)).toBe('3 min ago');
    expect(relativeTime(ago(60 * 60_000), now)).toBe('1 hour ago');
    expect(relativeTime(ago(5 * 3_600_000), now)).toBe('5 hours ago');
    expect(relativeTime(ago(86_400_000), now)).toBe('1 day ago');
    expect(relativeTime(new Date(now + 2 * 86_400_000).toISOString(), now)).toBe('in 2 days');
    expect(relativeTime(ago(8 * 86_400_000), now)).toBeNull();
  });

  it('shows older moments absolute, and the exact one with the zone for the tooltip', () => {
    const old = ago(30 * 86_400_000);
    expect(displayDateTime(old, now)).toBe(formatDateTime(old));
    expect(formatDateTime(old)).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    expect(exactDateTime(old)).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2} \(.+\)$/);
    expect(displayDateTime(null, now)).toBe('');
    expect(formatDateTime('not a date')).toBe('not a date');
  });
});
