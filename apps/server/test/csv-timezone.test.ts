import { describe, expect, it } from 'vitest';
import { csvLines, guardCell, toCell } from '../src/resources/csv.js';
import { formatInZone, normaliseTimezone } from '../src/lib/timezone.js';

describe('CSV cells', () => {
  it('guards every formula prefix and quotes per RFC 4180', () => {
    for (const p of ['=', '+', '-', '@', '\t', '\r']) expect(guardCell(`${p}x`)).toBe(`'${p}x`);
    expect(guardCell('plain')).toBe('plain');
    expect(csvLines([['a,b', 'say "hi"', 'x\ny', ''], ['1', '2', '3', '4']])).toBe('"a,b","say ""hi""","x\ny",\r\n1,2,3,4\r\n');
    expect(toCell({ a: 1 })).toBe('{"a":1}');
    expect(toCell(null)).toBe('');
  });
});

describe('dates in the caller\'s zone', () => {
  it('formats across DST changes and odd offsets', () => {
    expect(formatInZone(new Date('2026-03-29T00:59:59Z'), 'Europe/Paris')).toBe('2026-03-29 01:59:59');
    expect(formatInZone(new Date('2026-03-29T01:00:00Z'), 'Europe/Paris')).toBe('2026-03-29 03:00:00');
    expect(formatInZone(new Date('2026-10-25T00:59:59Z'), 'Europe/Paris')).toBe('2026-10-25 02:59:59');
    expect(formatInZone(new Date('2026-10-25T01:00:00Z'), 'Europe/Paris')).toBe('2026-10-25 02:00:00');
    expect(formatInZone(new Date('2026-06-01T12:00:00Z'), 'Asia/Kathmandu')).toBe('2026-06-01 17:45:00');
    expect(formatInZone(new Date('2026-06-01T12:00:00Z'), 'UTC')).toBe('2026-06-01 12:00:00');
  });
  it('falls back to UTC for an invalid zone header', () => {
    expect(normaliseTimezone('Europe/Paris')).toBe('Europe/Paris');
    expect(normaliseTimezone('Not/AZone')).toBe('UTC');
    expect(normaliseTimezone(undefined)).toBe('UTC');
    expect(normaliseTimezone("'; drop table")).toBe('UTC');
  });
});
