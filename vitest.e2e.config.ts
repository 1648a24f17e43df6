import { defineConfig } from 'vitest/config';
import { useTestDatabaseUrl } from './test/local-postgres.js';

// The scale-out suite needs a PostgreSQL server: TEST_DATABASE_URL, or a local one (see
// test/local-postgres.ts).
await useTestDatabaseUrl();

// Browser and process tests: they start the real server (built web app, fresh data directory)
// and drive Debian's Chromium through playwright-core.
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['e2e/**/*.e2e.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
