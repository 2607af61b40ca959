/**
 * Every PostgreSQL advisory lock key the server takes with one bigint key, in one place: two jobs
 * sharing a key would silently keep each other from running (the mail job and the notification
 * job once did). `test/locks.test.ts` holds them distinct. Locks with two int keys (a market's book:
 * `(7301, marketId)`) live in their own key space.
 */
export const ADVISORY_LOCKS = {
  migrate: 7_201_001,
  demoSeed: 7_201_002,
  simulator: 7_201_003,
  orderExpiry: 7_201_004,
  tradeBots: 7_201_005,
  mailDelivery: 7_201_011,
  notifications: 7_201_012,
  rewardGrants: 7_201_013,
  uploadPurge: 7_201_014,
  /** Pack openings, one at a time (the pool an opening records is what it minted from). */
  packOpenings: 7_301_777,
} as const;
