import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dynareMissingReason } from '../server/engines/models/dynare-runner';
import { detectRuntime, RUNTIMES } from '../server/engines/sandbox';
import { privatePostgresMissing } from './private-postgres';

/**
 * Some suites skip where a Debian package or PostgreSQL is missing (the sandbox's runtimes, the
 * Dynare comparison, the browser tests, the PostgreSQL runs), each naming what is missing. On CI nothing may be missing:
 * .ci/run installs every package, and this test fails the run if one did not arrive, so a skip
 * there cannot hide a suite that should have run. Off CI a developer's machine may lack them,
 * and each suite's name says why it skipped.
 */
const onCi = process.env.CI === 'true' || process.env.CI === '1';

function missingPackages(): string[] {
  const missing: string[] = [];
  if (!existsSync('/usr/bin/bwrap')) missing.push('bubblewrap (the code sandbox)');
  if (!existsSync('/usr/bin/chromium')) missing.push('chromium (the browser tests)');
  for (const language of ['python', 'r', 'matlab', 'dynare'] as const) {
    const status = detectRuntime(RUNTIMES[language]);
    if (!status.available) missing.push(status.message ?? `the ${language} runtime`);
  }
  if (!process.env.TEST_DATABASE_URL) {
    missing.push('TEST_DATABASE_URL (the PostgreSQL runs of the API, CLI and scale-out tests)');
  }
  if (privatePostgresMissing)
    missing.push(`${privatePostgresMissing} (the PostgreSQL restart test)`);
  const dynare = dynareMissingReason();
  if (dynare) missing.push(dynare);
  return missing;
}

describe('what the conditional suites need', () => {
  it.runIf(onCi)(
    'is all installed on CI, so none of them skips' + (onCi ? '' : ' (skipped: runs on CI only)'),
    () => {
      expect(missingPackages()).toEqual([]);
    },
  );
});
