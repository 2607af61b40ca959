import { describe, expect, it } from 'vitest';
import { checkWriteLog, fuzzAs } from './fuzz-harness.js';

describe('schema-driven fuzzing of every API route, anonymously', () => {
  it('the write log sees a write to any data table, and ignores only what a refusal may write', async () => {
    await checkWriteLog();
  });

  it('anonymous callers: any input to any route is refused with 401 (public routes: anything but a 5xx) and a refusal writes nothing', async () => {
    expect(await fuzzAs('anon')).toEqual([]);
  }, 240_000);
});
