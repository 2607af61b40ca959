import { describe, expect, it } from 'vitest';
import { describeDemoPlatform } from '../../test/demo-platform.js';
import { readHeader, shiftTimestamp, snapshotFingerprint, snapshotProblem } from './snapshot.js';

describe('demo snapshot', () => {
  it('is taken from this build\'s migrations and seed (else: npm run demo-snapshot, and commit it)', () => {
    expect(snapshotProblem()).toBeNull();
    expect(readHeader().fingerprint).toBe(snapshotFingerprint());
  });
});

describe('dating a timestamp (PGlite\'s load moves them in JavaScript)', () => {
  it('moves PostgreSQL\'s text form exactly, to the microsecond, across days and zones', () => {
    expect(shiftTimestamp('2026-10-25 12:48:37.283+00', 3_600_000, true)).toBe('2026-10-25 13:48:37.283+00');
    expect(shiftTimestamp('2026-10-25 23:59:59.999999+00', 1, true)).toBe('2026-10-26 00:00:00.000999+00');
    expect(shiftTimestamp('2026-10-25 12:00:00+05:30', 0, true)).toBe('2026-10-25 06:30:00+00');
    expect(shiftTimestamp('2026-10-25 12:00:00-03', -86_400_000, true)).toBe('2026-10-24 15:00:00+00');
    expect(shiftTimestamp('2026-02-28 12:00:00.5', 86_400_000, false)).toBe('2026-03-01 12:00:00.5');
    expect(() => shiftTimestamp('infinity', 1, true)).toThrow(/cannot read/);
  });
});

// The same invariants as the live seed's, on the snapshot as a first start loads it (dated to now).
describeDemoPlatform('snapshot');
