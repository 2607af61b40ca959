import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson, readJsonExact } from './json.js';

describe('parseJson', () => {
  it('reads back what JSON.stringify wrote, keys with escapes included, after the text that trips V8 13.6', () => {
    parseJson('{"1": {"": 0, "\\\\": 0, "aQa$1": 0}}');
    for (const read of [parseJson, readJsonExact]) {
      expect(Object.keys(read('{"": 0, "\\r": 0, "V": 0, "\\\\": 0, "2}V6": 0}') as object)).toEqual(['', '\r', 'V', '\\', '2}V6']);
    }
    const key = fc.string({ unit: fc.constantFrom('a', '\\', '"', '\r', '\n', '\t', '\u0001', 'é', '🎲', '1') });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }))), (v) => {
        const text = JSON.stringify(v);
        expect(JSON.stringify(parseJson(text))).toBe(text);
        expect(JSON.stringify(readJsonExact(text))).toBe(text);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps a __proto__ member an own member, as JSON.parse does', () => {
    for (const read of [parseJson, readJsonExact]) {
      const v = read('{"__proto__": {"x": 1}, "a": "\\\\"}') as Record<string, unknown>;
      expect(Object.keys(v)).toEqual(['__proto__', 'a']);
      expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    }
  });
});
