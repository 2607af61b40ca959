import { describe, expect, it } from 'vitest';
import { describeDemoPlatform } from '../../test/demo-platform.js';
import { readHeader, snapshotFingerprint, snapshotProblem } from './snapshot.js';

describe('demo snapshot', () => {
  it('is taken from this build\'s migrations and seed (else: npm run demo-snapshot, and commit it)', () => {
    expect(snapshotProblem()).toBeNull();
    expect(readHeader().fingerprint).toBe(snapshotFingerprint());
  });
});

// The same invariants as the live seed's, on the snapshot as a first start loads it (dated to now).
describeDemoPlatform('snapshot');
