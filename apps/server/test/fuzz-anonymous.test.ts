import { describe, expect, it } from 'vitest';
import { checkFingerprint, fuzzAs } from './fuzz-harness.js';

describe('schema-driven fuzzing of every API route, anonymously', () => {
  it('the fingerprint sees a change to any data table, and ignores only what a refusal may write', async () => {
    await checkFingerprint();
  });

  it('anonymous callers: any input to any route is refused with 401 (public routes: anything but a 5xx) and a refusal writes nothing', async () => {
    expect(await fuzzAs('anon')).toEqual([]);
  }, 240_000);
});
