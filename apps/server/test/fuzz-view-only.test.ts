import { describe, expect, it } from 'vitest';
import { fuzzAs } from './fuzz-harness.js';

describe('schema-driven fuzzing of every API route, as a view-only sub-admin', () => {
  it('a view-only sub-admin: any input to a write is refused with 403, nothing answers 5xx, and a 4xx writes nothing', async () => {
    expect(await fuzzAs('view')).toEqual([]);
  }, 240_000);
});
