import { defineConfig } from 'vitest/config';

// Three projects: `unit` (pure packages), `api` (server in-process against
// PGlite, or PostgreSQL when TEST_DATABASE_URL is set), `e2e` (built app in
// headless Chromium). `npm test` runs them all.
const resolve = { conditions: ['source'] };
export default defineConfig({
  resolve,
  test: {
    projects: [
      { resolve, test: { name: 'unit', include: ['packages/*/test/**/*.test.ts', 'apps/web/test/**/*.test.ts'], environment: 'node' } },
      { resolve, test: { name: 'api', include: ['apps/server/test/**/*.test.ts', 'apps/server/src/**/*.test.ts'], environment: 'node', testTimeout: 60000, hookTimeout: 120000, fileParallelism: false } },
      { resolve, test: { name: 'e2e', include: ['e2e/**/*.test.ts'], environment: 'node', testTimeout: 120000, hookTimeout: 180000, fileParallelism: false } },
    ],
  },
});
