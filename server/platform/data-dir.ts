import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

/**
 * DATA_DIR holds the embedded database (password hashes, documents, the write-ahead log),
 * secrets.json and the teams' stored files: nobody but the account running the server may read
 * it. Everything created by this process is owner-only (umask 077), and a tree left readable by
 * an older version or by hand is made owner-only at start, with a log line saying so.
 */
export const PRIVATE_UMASK = 0o077;

/** Group and other permission bits: what must not be set under DATA_DIR. */
const SHARED_BITS = 0o077;

export interface DataDirReport {
  /** Files and folders whose group/other permissions were removed. */
  fixed: number;
  /** Entries that could not be changed (owned by another account). */
  failed: string[];
}

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
 * Creates `dir` (0700) if needed and removes group/other permissions from it and from everything
 * under it. Iterative (no recursion, so a deep tree cannot overflow the stack); symbolic links
 * are neither followed nor changed.
 */
export function makeOwnerOnly(dir: string): DataDirReport {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const report: DataDirReport = { fixed: 0, failed: [] };
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(current);
    } catch {
      continue; // removed meanwhile
    }
    if (stat.isSymbolicLink()) continue;
    if ((stat.mode & SHARED_BITS) !== 0) {
      try {
        fs.chmodSync(current, stat.mode & 0o700);
        report.fixed += 1;
      } catch {
        report.failed.push(current);
      }
    }
    if (stat.isDirectory()) {
      let names: string[];
      try {
        names = fs.readdirSync(current);
      } catch {
        continue;
      }
      for (const name of names) pending.push(path.join(current, name));
    }
  }
  return report;
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
