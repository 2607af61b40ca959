import { describe, expect, it } from 'vitest';
import { groupThousands } from '../src/lib/amounts';

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
