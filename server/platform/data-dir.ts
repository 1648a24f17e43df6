import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { makeOwnerOnly, type DataDirReport } from '../db/owner-only';

export { makeOwnerOnly, type DataDirReport };

/**
 * DATA_DIR holds the embedded database (password hashes, documents, the write-ahead log),
 * secrets.json and the teams' stored files: nobody but the account running the server may read
 * it. Everything created by this process is owner-only (umask 077), and a tree left readable by
 * an older version or by hand is made owner-only at start, with a log line saying so.
 */
export const PRIVATE_UMASK = 0o077;

/**
 * Sets the process umask to 077: every file and folder the process creates from now on (PGlite's
 * data files, uploads, exports) is owner-only. Worker threads cannot change the umask; there the
 * modes rest on the start-up fix and on explicit modes.
 */
export function restrictUmask(): void {
  try {
    process.umask(PRIVATE_UMASK);
  } catch {
    // In a worker thread process.umask(mask) throws: nothing to do there.
  }
}

/**
 * At start: umask 077, then DATA_DIR made owner-only, logging what had to be fixed. With
 * `create: false` (PostgreSQL: DATA_DIR may not be needed at all) a missing DATA_DIR is left
 * missing; whatever creates it later gets owner-only modes from the umask.
 */
export function protectDataDir(
  dir: string,
  log: FastifyBaseLogger,
  opts: { create: boolean } = { create: true },
): DataDirReport {
  restrictUmask();
  if (!opts.create && !fs.existsSync(dir)) return { fixed: 0, failed: [] };
  const report = makeOwnerOnly(dir);
  if (report.fixed > 0) {
    log.warn(
      { dataDir: dir, fixed: report.fixed },
      `DATA_DIR: made ${report.fixed} file(s) and folder(s) readable by this account only (they were open to other accounts)`,
    );
  }
  if (report.failed.length > 0) {
    log.error(
      { dataDir: dir, paths: report.failed.slice(0, 10), count: report.failed.length },
      'DATA_DIR: could not make these owner-only (owned by another account?); fix them by hand',
    );
  }
  return report;
}
