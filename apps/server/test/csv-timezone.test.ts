import { describe, expect, it } from 'vitest';
import { csvLines, guardCell, toCell } from '../src/resources/csv.js';
import { formatInZone, isoInZone, normaliseTimezone } from '../src/lib/timezone.js';
import { csvColumnsOf, moneyParts } from '../src/resources/csv-columns.js';

describe('CSV cells', () => {
  it('guards every formula prefix and quotes per RFC 4180', () => {
    for (const p of ['=', '+', '-', '@', '\t', '\r']) expect(guardCell(`${p}x`)).toBe(`'${p}x`);
    expect(guardCell('plain')).toBe('plain');
    // A cell that is wholly a number is a number, not a formula: no guard.
    for (const n of ['-5', '-0.000005', '-9007199254740993.000000000000000001', '12']) expect(guardCell(n)).toBe(n);
    for (const t of ['-5x', '-1e5', '-.5', '-1.', '-', '=1+1', '-cmd', '+5']) expect(guardCell(t)).toBe(`'${t}`);
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
  it('writes ISO 8601 with the offset then, to the second (exports)', () => {
    expect(isoInZone(new Date('2026-11-28T22:00:00Z'), 'Europe/Paris')).toBe('2026-11-28T23:00:00+01:00');
    expect(isoInZone(new Date('2026-03-29T00:59:59.999Z'), 'Europe/Paris')).toBe('2026-03-29T01:59:59+01:00');
    expect(isoInZone(new Date('2026-03-29T01:00:00Z'), 'Europe/Paris')).toBe('2026-03-29T03:00:00+02:00');
    expect(isoInZone(new Date('2026-10-25T00:59:59Z'), 'Europe/Paris')).toBe('2026-10-25T02:59:59+02:00');
    expect(isoInZone(new Date('2026-10-25T01:00:00Z'), 'Europe/Paris')).toBe('2026-10-25T02:00:00+01:00');
    expect(isoInZone(new Date('2026-06-01T12:00:00Z'), 'Asia/Kathmandu')).toBe('2026-06-01T17:45:00+05:45');
    expect(isoInZone(new Date('2026-06-01T12:00:00Z'), 'America/St_Johns')).toBe('2026-06-01T09:30:00-02:30');
    expect(isoInZone(new Date('2026-06-01T12:00:00Z'), 'UTC')).toBe('2026-06-01T12:00:00+00:00');
    // Far off: years padded, a local mean time's seconds kept so local time + offset is the instant.
    expect(isoInZone(new Date('1900-01-01T00:00:00Z'), 'Europe/Paris')).toBe('1900-01-01T00:09:21+00:09:21');
    expect(isoInZone(new Date('0900-06-01T12:00:00Z'), 'UTC')).toBe('0900-06-01T12:00:00+00:00');
    for (const zone of ['Europe/Paris', 'Asia/Kathmandu', 'America/St_Johns']) {
      for (const at of ['1973-01-01T00:00:00Z', '2026-03-29T01:00:00Z', '9999-12-31T12:00:00Z']) expect(Date.parse(isoInZone(new Date(at), zone))).toBe(Date.parse(at));
    }
  });
  it('splits money into the number and its coin, balances into a column per coin and bucket', () => {
    expect(moneyParts('4372.5 USDC')).toEqual(['4372.5', 'USDC']);
    expect(moneyParts('-0.000005 SOL')).toEqual(['-0.000005', 'SOL']);
    expect(moneyParts(null)).toEqual([null, null]);
    expect(moneyParts('1,000.00 USDC')).toEqual(['1,000.00 USDC', null]);
    expect(moneyParts('lots')).toEqual(['lots', null]);
    const columns = csvColumnsOf(
      [
        { key: 'amountText', label: 'Amount', type: 'money' },
        { key: 'balances', label: 'Balances', type: 'balances' },
        { key: 'at', label: 'At', type: 'date' },
      ],
      { coins: [{ id: '2', symbol: 'SOL', decimals: 9 }, { id: '1', symbol: 'USDC', decimals: 6 }] },
    );
    expect(columns.map((c) => c.header)).toEqual(['Amount', 'Amount coin', 'SOL available', 'SOL held', 'USDC available', 'USDC held', 'At']);
    const record = { amountText: '-12.5 USDC', balances: [{ coin: 'USDC', decimals: 6, available: '9007199254740993', held: '-1' }], at: '2026-01-01T00:00:00.000Z' };
    expect(columns.map((c) => c.value(record))).toEqual(['-12.5', 'USDC', '0', '0', '9007199254.740993', '-0.000001', '2026-01-01T00:00:00.000Z']);
    expect(columns.map((c) => c.date === true)).toEqual([false, false, false, false, false, false, true]);
  });
  it('falls back to UTC for an invalid zone header', () => {
    expect(normaliseTimezone('Europe/Paris')).toBe('Europe/Paris');
    expect(normaliseTimezone('Not/AZone')).toBe('UTC');
    expect(normaliseTimezone(undefined)).toBe('UTC');
    expect(normaliseTimezone("'; drop table")).toBe('UTC');
  });
});
