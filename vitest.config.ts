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
