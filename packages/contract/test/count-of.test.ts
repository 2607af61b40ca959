import { describe, expect, it } from 'vitest';
import { countOf } from '../src/index.js';

describe('countOf', () => {
  it('says a count with its noun in the right number', () => {
    expect(countOf(1, 'second')).toBe('1 second');
    expect(countOf(2, 'second')).toBe('2 seconds');
    expect(countOf(0, 'session')).toBe('0 sessions');
    expect(countOf(1, 'other session')).toBe('1 other session');
    expect(countOf(1200, 'entry', 'entries')).toBe('1,200 entries');
  });
});
