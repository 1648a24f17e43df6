import { defineConfig } from 'vitest/config';
import { useTestDatabaseUrl } from './test/local-postgres.js';

// Unit and API tests. API tests are named *.api.test.ts: they run on PGlite always, and a second
// time on PostgreSQL when there is one (TEST_DATABASE_URL, or a local server: see
// test/local-postgres.ts; each test file gets a fresh database).
const postgres = (await useTestDatabaseUrl())
  ? [
      {
        extends: true as const,
        test: {
          name: 'postgres',
          environment: 'node' as const,
          include: ['server/**/*.api.test.ts'],
          env: { TEST_DB: 'postgres' },
        },
      },
    ]
  : [];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, where most
    // files wait on a database, a child process or a socket. Two files at a time nearly halve
    // the suite's wall time there; each file has its own database and data directory.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['common/**/*.test.ts', 'server/**/*.test.ts', 'test/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/**/*.test.ts', 'web/**/*.test.tsx'],
        },
      },
      ...postgres,
    ],
  },
});
