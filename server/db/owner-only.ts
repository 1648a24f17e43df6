import fs from 'node:fs';
import path from 'node:path';

/**
 * Owner-only modes for a folder tree: the database's own folder (made owner-only again after
 * PGlite starts, since it sets modes of its own) and DATA_DIR as a whole at start
 * (server/platform/data-dir.ts). Here, under server/db, because the database may import
 * nothing above it.
 */

/** Group and other permission bits: what must not be set under DATA_DIR. */
const SHARED_BITS = 0o077;

export interface DataDirReport {
  /** Files and folders whose group/other permissions were removed. */
  fixed: number;
  /** Entries that could not be changed (owned by another account). */
  failed: string[];
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
