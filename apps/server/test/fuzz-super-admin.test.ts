import { describe, expect, it } from 'vitest';
import { fuzzAs } from './fuzz-harness.js';

describe('schema-driven fuzzing of every API route, as the super admin', () => {
  it('the super admin: no input to any route causes a 5xx, and a 4xx answer leaves the database unchanged', async () => {
    expect(await fuzzAs('super')).toEqual([]);
  }, 600_000);
});
