import { describe, expect, it } from 'vitest';
import { ADVISORY_LOCKS } from '../src/lib/locks.js';

describe('advisory lock keys', () => {
  it('are distinct: no two jobs keep each other from running', () => {
    const keys = Object.values(ADVISORY_LOCKS);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
