import { describe, expect, it } from 'vitest';
import { groupThousands, tableAmount } from '../src/lib/amounts';

describe('amounts as shown in tables', () => {
  it('groups the whole part by thousands and leaves the rest as the API wrote it', () => {
    expect(groupThousands('4372.5 USDC')).toBe('4,372.5 USDC');
    expect(groupThousands('1234567.000001 SOL')).toBe('1,234,567.000001 SOL');
    expect(groupThousands('-12500 USDC')).toBe('-12,500 USDC');
    expect(groupThousands('+1000.25 USDC')).toBe('+1,000.25 USDC');
    expect(groupThousands('999.9999 USDC')).toBe('999.9999 USDC');
    expect(groupThousands('0.000005 SOL')).toBe('0.000005 SOL');
    // Only the leading amount: digits later in the text (a reference, a fraction) stay as they are.
    expect(groupThousands('25 USD (order 12345)')).toBe('25 USD (order 12345)');
    expect(groupThousands('1.23456789 SOL')).toBe('1.23456789 SOL');
    expect(groupThousands('')).toBe('');
  });
});

describe('amounts rounded to their coin\'s display decimals', () => {
  const places = (symbol: string) => ({ USDC: 2, SOL: 4, EUR: 2 })[symbol];
  it('rounds with trailing zeros kept, marks what it rounded, and keeps the exact text for the hover', () => {
    expect(tableAmount('4372.5 USDC', places)).toEqual({ shown: '4,372.50 USDC', exact: '4,372.5 USDC', rounded: false });
    expect(tableAmount('12.345678901 SOL', places)).toEqual({ shown: '≈12.3457 SOL', exact: '12.345678901 SOL', rounded: true });
    expect(tableAmount('-0.000005 SOL', places)).toEqual({ shown: '-<0.0001 SOL', exact: '-0.000005 SOL', rounded: true });
    expect(tableAmount('1234567.125 USDC', places).shown).toBe('≈1,234,567.13 USDC');
    expect(tableAmount('12.5 EUR', places).shown).toBe('12.50 EUR');
  });
  it('shows as written what it cannot round: an unknown symbol, another shape', () => {
    expect(tableAmount('12345.123456 BONK', places)).toEqual({ shown: '12,345.123456 BONK', exact: '12,345.123456 BONK', rounded: false });
    expect(tableAmount('25 USD (order 12345)', places).shown).toBe('25 USD (order 12345)');
    expect(tableAmount('', places).shown).toBe('');
  });
});
