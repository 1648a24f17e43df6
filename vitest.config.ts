import fs from 'node:fs';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { useTestDatabaseUrl } from './test/local-postgres.js';

/**
 * The node-side files run without isolation (see below) except those that replace a module
 * (vi.mock): a replaced module would stay replaced for the files that follow in the same worker.
 * Found by reading the files, so a new one is isolated without anyone listing it.
 */
function filesReplacingModules(dirs: string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      } else if (
        /\.test\.ts$/.test(entry.name) &&
        /\bvi\.(mock|doMock)\(/.test(fs.readFileSync(full, 'utf8'))
      ) {
        found.push(full.split(path.sep).join('/'));
      }
    }
  };
  for (const dir of dirs) walk(dir);
  return found.sort();
}
const REPLACING_MODULES = filesReplacingModules(['common', 'server', 'test']);

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
          exclude: [...configDefaults.exclude, ...REPLACING_MODULES],
          isolate: false,
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
    // With TEST_DURATIONS_FILE set (.ci/run sets it), each file's duration is recorded there.
    reporters: process.env.TEST_DURATIONS_FILE
      ? ['default', './.ci/durations-reporter.ts']
      : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['common/**/*.test.ts', 'server/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...REPLACING_MODULES],
          // Each file makes its own app, database and data directory; what it shares with the
          // files before it in the same worker is the loaded modules. Loading the server's
          // modules and packages again for every file was about half of the suite's CPU time
          // (docs/performance.md, CI).
          isolate: false,
          env: { TEST_DB: 'pglite' },
        },
      },
      {
        extends: true,
        test: {
          name: 'node-isolated',
          environment: 'node',
          include: REPLACING_MODULES,
          env: { TEST_DB: 'pglite' },
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/**/*.test.ts', 'web/**/*.test.tsx'],
          // One jsdom window and one module graph per worker, as for the node files; the setup
          // file undoes what a file leaves behind (web/testing/setup.ts).
          isolate: false,
          setupFiles: ['web/testing/setup.ts'],
          // Typing into MUI's dialogs in jsdom takes seconds per test on a loaded two-core
          // machine (the New Project dialog's first test: 18 s at load 14).
          testTimeout: 60_000,
        },
      },
      ...postgres,
    ],
  },
});
