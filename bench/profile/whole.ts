/**
 * One whole process per run, for timing from outside (start-up, module loading and set-up
 * included), each side on the same CSV:
 *
 *   npx tsx bench/profile/whole.ts gen <rows> <file.csv>   writes the benchmark's CSV (data.ts)
 *   node --import tsx bench/profile/whole.ts ours <file.csv>   load (header check + CSV -> Parquet) + full profile
 *   node --import tsx bench/profile/whole.ts duckdb <file.csv> raw DuckDB: SUMMARIZE + three correlations
 *   /usr/bin/python3 bench/profile/whole_pandas.py <file.csv>   pandas: read_csv + describe + isna().sum() + corr
 *
 * and the start-up alone (modules loaded, engine or database opened, no file read), to tell the
 * fixed cost of a process from the work: `ours-startup`, `duckdb-startup`, and for pandas
 * `/usr/bin/python3 -c 'import pandas'`.
 *
 * Built into one file with `npx tsx bench/profile/bundle.ts`, the same modes run as
 * `node dist/bench-profile/whole.mjs <mode> ...`: what a deployment would run, without tsx's
 * compiling and resolving of each module at start-up (bundle.ts says what is inlined).
 *
 * Pair them with a timer that alternates two commands and reports min/median/max of wall and
 * CPU time (e.g. `/usr/bin/time -v` in a loop); see docs/performance.md, "Data profiling".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate } from './data';

const THREADS = Math.min(2, os.availableParallelism());
const [mode, a, b] = process.argv.slice(2);

if (mode === 'gen') {
  await generate(b!, Number(a));
} else if (mode === 'ours') {
  const { createProfilingEngine } = await import('../../server/engines/profiling/index');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-whole-'));
  const engine = createProfilingEngine({ threads: THREADS, memoryLimit: '1GB' });
  try {
    const out = path.join(dir, 'data.parquet');
    await engine.load(a!, 'data.csv', undefined, out);
    const profile = await engine.profile(out);
    if (profile.columnCount !== 9) throw new Error(`unexpected profile: ${profile.columnCount}`);
  } finally {
    engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
} else if (mode === 'duckdb') {
  const { createDuckDb } = await import('../../server/engines/profiling/duckdb');
  const { literal } = await import('../../server/engines/profiling/sql');
  const db = createDuckDb({ threads: THREADS, memoryLimit: '1GB' });
  const rel = `read_csv(${literal(a!)})`;
  await db.withConnection(async (conn) => {
    await conn.runAndReadAll(`SUMMARIZE SELECT * FROM ${rel}`);
    await conn.runAndReadAll(
      `SELECT corr(gdp, trade), corr(gdp, inflation), corr(inflation, unemployment) FROM ${rel}`,
    );
  });
  db.close();
} else if (mode === 'ours-startup') {
  const { createProfilingEngine } = await import('../../server/engines/profiling/index');
  createProfilingEngine({ threads: THREADS, memoryLimit: '1GB' }).close();
} else if (mode === 'duckdb-startup') {
  const { createDuckDb } = await import('../../server/engines/profiling/duckdb');
  const db = createDuckDb({ threads: THREADS, memoryLimit: '1GB' });
  await db.withConnection((conn) => conn.run('SELECT 1'));
  db.close();
} else {
  console.error(
    'usage: whole.ts gen <rows> <file> | ours <file> | duckdb <file> | ours-startup | duckdb-startup',
  );
  process.exit(2);
}
