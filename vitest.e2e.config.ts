import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { useTestDatabaseUrl } from './test/local-postgres.js';

// The scale-out suite needs a PostgreSQL server: TEST_DATABASE_URL, or a local one (see
// test/local-postgres.ts).
await useTestDatabaseUrl();

/**
 * The files that take longest (docs/performance.md, CI), started first: two at a time, the run
 * ends soon after its longest file only if that file did not start last. Vitest orders by the
 * durations of the previous run when it has them; a clean clone has none.
 */
const LONGEST_FIRST = [
  'e2e/model-team.e2e.test.ts',
  'e2e/foundation.e2e.test.ts',
  'e2e/code-team.e2e.test.ts',
  'e2e/agent-runtime-restart.e2e.test.ts',
  'e2e/settings.e2e.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((name) => spec.moduleId.endsWith(name));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the other files keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

// Browser and process tests: they start the real server (built web app, fresh data directory)
// and drive Debian's Chromium.
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['e2e/**/*.e2e.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: true,
    maxWorkers: 2,
    // With TEST_DURATIONS_FILE set (.ci/run sets it), each file's duration is recorded there.
    reporters: process.env.TEST_DURATIONS_FILE
      ? ['default', './.ci/durations-reporter.ts']
      : ['default'],
    // The server processes of the run start from one bundle of the server built here.
    globalSetup: ['e2e/server-bundle.helpers.ts'],
    // Each file starts its own server and browser, and keeps its state in its own module: the
    // harness, the fixtures and their packages are loaded once per worker, not once per file.
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});
