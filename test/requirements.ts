import { existsSync } from 'node:fs';

/**
 * What the conditional suites need, said once, so that a suite that skips says why in its name
 * (a reader, or `test/ci-requirements.test.ts` on CI, can check the reason). CI installs all of
 * it (.ci/run), so there nothing skips.
 */

/** Why the code sandbox cannot run here (bubblewrap and Debian's python3), or null. */
export const sandboxMissing: string | null = !(
  existsSync('/usr/bin/bwrap') || existsSync('/usr/local/bin/bwrap')
)
  ? 'bubblewrap is not installed'
  : !existsSync('/usr/bin/python3')
    ? '/usr/bin/python3 is absent'
    : null;
export const hasSandbox = sandboxMissing === null;

/** A suite name's suffix: ' (skipped: <reason>)' when `missing` is set, else nothing. */
export function skipReason(
  missing: string | null | undefined,
  installedBy = 'CI installs it',
): string {
  return missing ? ` (skipped: ${missing}; ${installedBy})` : '';
}

/** The sandbox suites' suffix. */
export const sandboxSkipReason = skipReason(sandboxMissing, 'CI installs bubblewrap and python3');

/**
 * Suites that need two processes on one PostgreSQL database run in the API suite's postgres
 * project only (TEST_DB=postgres); in the PGlite project they skip, and say so.
 */
export const postgresOnly = process.env.TEST_DB !== 'postgres';
export const postgresOnlyReason = postgresOnly
  ? ' (skipped on PGlite: needs two processes on one PostgreSQL database; runs in the postgres project)'
  : '';
