import { defineConfig } from 'vitest/config';

// Three projects: `unit` (pure packages), `api` (server in-process against
// PGlite, or PostgreSQL when TEST_DATABASE_URL is set), `e2e` (built app in
// headless Chromium). `npm test` runs them all.
const resolve = { conditions: ['source'] };
export default defineConfig({
  resolve,
  test: {
    projects: [
      { resolve, test: { name: 'unit', include: ['packages/*/test/**/*.test.ts', 'apps/web/test/**/*.test.ts', 'test/**/*.test.ts'], environment: 'node', maxWorkers: 2, sequence: { groupOrder: 0 } } },
      {
        resolve,
        test: {
          name: 'api', include: ['apps/server/test/**/*.test.ts', 'apps/server/src/**/*.test.ts'], environment: 'node', testTimeout: 60000, hookTimeout: 120000,
          // Migrates once (PGlite data folder, PostgreSQL template); each test server starts from a copy.
          globalSetup: ['apps/server/test/global-setup.ts'],
          // Two files at a time (vitest's default is one fewer than the cores): each test server has
          // a database of its own, and PGlite runs in its file's process.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      // The browser tests after the rest, one file at a time: each drives a built server and Chromium.
      { resolve, test: { name: 'e2e', include: ['e2e/**/*.test.ts'], environment: 'node', testTimeout: 120000, hookTimeout: 180000, fileParallelism: false, sequence: { groupOrder: 1 }, globalSetup: ['e2e/global-setup.ts'] } },
    ],
  },
});
