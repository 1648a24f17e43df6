/**
 * The profiling engine on a generated CSV (numeric, categorical and date columns, some gaps):
 *
 * 1. Ours: the header check and CSV -> Parquet (as the product loads a file) + the full profile (statistics, top values,
 *    histograms, duplicates, Pearson and Spearman, outliers, time index, alerts).
 * 2. Raw DuckDB on the same file in the same process: SUMMARIZE plus three correlations.
 *    Goal: ours within 1.5x of it.
 * 3. pandas (Debian's /usr/bin/python3, when python3-pandas is there): read_csv + describe() +
 *    missing counts + corr(). Goal: ours faster than this smaller summary.
 * 4. Peak memory of the Node process during our run (RSS, and the JS heap separately), for
 *    each size in a fresh child process. Goal: flat in the file's size.
 *
 * Each side runs RUNS + 1 times on the same file, in rounds (ours, raw DuckDB, pandas in one
 * Python process that stays up), so a change in the machine's speed during the benchmark falls
 * on all of them alike: the first run of each (cold: code not yet compiled by the JIT, caches
 * empty) is reported on its own and the ratios use the medians of the other RUNS, as a server
 * that has been up for a while (or a Python session that has read a file before) runs them.
 *
 * Start-up is not counted here; whole processes (start-up included) are timed with whole.ts.
 *
 *   npx tsx bench/profile/profile.ts [rows=1000000] [more sizes for the memory curve...]
 *   e.g. npx tsx bench/profile/profile.ts 1000000 100000 250000
 */
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDuckDb } from '../../server/engines/profiling/duckdb';
import { createProfilingEngine } from '../../server/engines/profiling/index';
import { literal } from '../../server/engines/profiling/sql';
import { generate } from './data';
import type { DatasetProfile } from '../../common/teams/data';

const THREADS = Math.min(2, os.availableParallelism());
const RUNS = 5;
const PYTHON = '/usr/bin/python3';

interface Times {
  /** The first run, cold. */
  cold: number;
  /** Median of the RUNS runs after it. */
  median: number;
}

interface ChildResult {
  rows: number;
  bytes: number;
  /** total = load (header check and Parquet copy) + profile; the whole check alone for reference. */
  ours: { check: Times; load: Times; profile: Times; total: Times };
  duckdb: { summarize: Times; correlations: Times; total: Times };
  /** The same two queries on the stored Parquet copy (against our profile step alone). */
  duckdbParquet: { summarize: Times; correlations: Times; total: Times };
  pandas: { inProcess: Times } | null;
  memory: { baseRssMb: number; peakRssMb: number; peakHeapMb: number };
  profile: { columns: number; alerts: number; duplicates: number; frequency: string | null };
}

function times(runs: number[]): Times {
  const rest = runs.slice(1).sort((a, b) => a - b);
  return { cold: runs[0]!, median: rest[Math.floor(rest.length / 2)] ?? runs[0]! };
}

/** Per-field Times of a list of runs of the same shape. */
function summarize<K extends string>(runs: Record<K, number>[]): Record<K, Times> {
  const keys = Object.keys(runs[0]!) as K[];
  return Object.fromEntries(keys.map((k) => [k, times(runs.map((r) => r[k]))])) as Record<K, Times>;
}

/** One summary per line read on stdin ("run"), its time in seconds printed back. */
const PANDAS = `
import sys, time
import pandas as pd
print("ready", flush=True)
for line in sys.stdin:
    t = time.perf_counter()
    df = pd.read_csv(sys.argv[1])
    d = df.describe()
    m = df.isna().sum()
    c = df.corr(numeric_only=True)
    print(time.perf_counter() - t, flush=True)
    del df, d, m, c
`;

/**
 * pandas in one Python process that stays up (so its runs after the first are as warm as
 * ours), asked for one run at a time so it takes its turn in each round with the others; null
 * without Debian's python3-pandas.
 */
async function startPandas(csv: string): Promise<{ run(): Promise<number>; stop(): void } | null> {
  if (!existsSync(PYTHON)) return null;
  const py = spawn(PYTHON, ['-c', PANDAS, csv], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = createInterface({ input: py.stdout });
  const waiting: ((line: string | null) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  py.on('close', () => waiting.splice(0).forEach((w) => w(null)));
  let stderr = '';
  py.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const next = () => new Promise<string | null>((resolve) => waiting.push(resolve));
  if ((await next()) !== 'ready') {
    console.error(`pandas did not start (is python3-pandas installed?): ${stderr.slice(0, 300)}`);
    return null;
  }
  return {
    async run() {
      py.stdin.write('run\n');
      const line = await next();
      if (line === null) throw new Error(`pandas stopped: ${stderr.slice(0, 300)}`);
      return Number(line) * 1000;
    },
    stop: () => py.stdin.end(),
  };
}

async function child(rows: number): Promise<ChildResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-profile-'));
  try {
    const csv = path.join(dir, 'data.csv');
    await generate(csv, rows);
    const bytes = statSync(csv).size;

    // Memory: sampled while our engine runs, from a baseline taken after generating the file.
    const baseRss = process.memoryUsage().rss;
    let peakRss = baseRss;
    let peakHeap = process.memoryUsage().heapUsed;
    let inOurs = false;
    const sampler = setInterval(() => {
      if (!inOurs) return;
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 20);

    const engine = createProfilingEngine({ threads: THREADS, memoryLimit: '1GB' });
    const db = createDuckDb({ threads: THREADS, memoryLimit: '1GB' });
    const parquetFile = path.join(dir, 'data.parquet');
    const raw = (rel: string) =>
      db.withConnection(async (conn) => {
        const a = performance.now();
        await conn.runAndReadAll(`SUMMARIZE SELECT * FROM ${rel}`);
        const b = performance.now();
        await conn.runAndReadAll(
          `SELECT corr(gdp, trade), corr(gdp, inflation), corr(inflation, unemployment) FROM ${rel}`,
        );
        const c = performance.now();
        return { summarize: b - a, correlations: c - b, total: c - a };
      });
    const oursRuns: { check: number; load: number; profile: number; total: number }[] = [];
    const rawRuns: { summarize: number; correlations: number; total: number }[] = [];
    const rawParquetRuns: typeof rawRuns = [];
    const pandasRuns: number[] = [];
    const pandas = await startPandas(csv);
    let profile: DatasetProfile | null = null;
    // Rounds: ours, raw DuckDB on the CSV and on the Parquet copy, pandas.
    for (let run = 0; run <= RUNS; run++) {
      rmSync(parquetFile, { force: true });
      inOurs = true;
      const t0 = performance.now();
      // The whole check alone (as on upload), then what loading runs: the header check and the Parquet copy.
      await engine.check(csv, 'data.csv');
      const t1 = performance.now();
      await engine.load(csv, 'data.csv', undefined, parquetFile);
      const t2 = performance.now();
      profile = await engine.profile(parquetFile);
      const t3 = performance.now();
      inOurs = false;
      oursRuns.push({ check: t1 - t0, load: t2 - t1, profile: t3 - t2, total: t3 - t1 });
      rawRuns.push(await raw(`read_csv(${literal(csv)})`));
      rawParquetRuns.push(await raw(`read_parquet(${literal(parquetFile)})`));
      if (pandas) pandasRuns.push(await pandas.run());
    }
    clearInterval(sampler);
    pandas?.stop();
    engine.close();
    db.close();
    return {
      rows,
      bytes,
      ours: summarize(oursRuns),
      duckdb: summarize(rawRuns),
      duckdbParquet: summarize(rawParquetRuns),
      pandas: pandas ? { inProcess: times(pandasRuns) } : null,
      memory: {
        baseRssMb: baseRss / 2 ** 20,
        peakRssMb: peakRss / 2 ** 20,
        peakHeapMb: peakHeap / 2 ** 20,
      },
      profile: {
        columns: profile!.columnCount,
        alerts: profile!.alerts.length,
        duplicates: profile!.duplicateRows,
        frequency: profile!.timeSeries?.frequency ?? null,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  if (process.argv[2] === '--child') {
    console.log(JSON.stringify(await child(Number(process.argv[3]))));
    return;
  }
  const sizes = (process.argv.length > 2 ? process.argv.slice(2) : ['1000000']).map(Number);
  const self = fileURLToPath(import.meta.url);
  const results: ChildResult[] = [];
  for (const rows of sizes) {
    // Each size in a fresh process, so peak memory is that size's own.
    const r = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', String(rows)], {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    if (r.status !== 0) throw new Error(`child for ${rows} rows failed: ${r.stderr}`);
    const lines = r.stdout.trim().split('\n');
    results.push(JSON.parse(lines[lines.length - 1]!) as ChildResult);
  }
  console.log(
    `DuckDB threads: ${THREADS}; machine: ${os.cpus()[0]?.model ?? '?'} x ${os.cpus().length}`,
  );
  const m = (t: Times) => s(t.median);
  console.log(
    `Medians of ${RUNS} runs after a first (cold) one, each side; the cold runs are shown in brackets.`,
  );
  for (const r of results) {
    console.log(`\n${r.rows.toLocaleString('en')} rows, ${(r.bytes / 2 ** 20).toFixed(1)} MB CSV`);
    console.log(
      `  ours: ${m(r.ours.total)} [${s(r.ours.total.cold)}] (load: header check + CSV->Parquet ${m(r.ours.load)}, profile ${m(r.ours.profile)}; the check alone ${m(r.ours.check)})`,
    );
    console.log(
      `  DuckDB SUMMARIZE + 3 correlations: ${m(r.duckdb.total)} [${s(r.duckdb.total.cold)}] (SUMMARIZE ${m(r.duckdb.summarize)}, corr ${m(r.duckdb.correlations)})` +
        `  -> ours / raw = ${(r.ours.total.median / r.duckdb.total.median).toFixed(2)}x (goal <= 1.5x)`,
    );
    console.log(
      `  on the stored Parquet: our profile ${m(r.ours.profile)} vs SUMMARIZE + 3 correlations ${m(r.duckdbParquet.total)}` +
        `  -> ${(r.ours.profile.median / r.duckdbParquet.total.median).toFixed(2)}x`,
    );
    if (r.pandas) {
      console.log(
        `  pandas read_csv + describe + isna().sum() + corr: ${m(r.pandas.inProcess)} [${s(r.pandas.inProcess.cold)}] in Python` +
          `  -> pandas / ours = ${(r.pandas.inProcess.median / r.ours.total.median).toFixed(2)}x (goal > 1)`,
      );
    } else console.log('  pandas: not installed (/usr/bin/python3 with python3-pandas)');
    console.log(
      `  memory over our runs: RSS ${r.memory.baseRssMb.toFixed(0)} MB before, peak ${r.memory.peakRssMb.toFixed(0)} MB; JS heap peak ${r.memory.peakHeapMb.toFixed(0)} MB`,
    );
    console.log(
      `  profile: ${r.profile.columns} columns, ${r.profile.alerts} alerts, ${r.profile.duplicates} duplicate rows, time index ${r.profile.frequency ?? 'none'}`,
    );
  }
}

await main();
