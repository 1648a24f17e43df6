/**
 * The profiling engine on a generated CSV (numeric, categorical and date columns, some gaps):
 *
 * 1. Ours: content check and CSV -> Parquet (side by side, as the product loads a file) + the full profile (statistics, top values,
 *    histograms, duplicates, Pearson and Spearman, outliers, time index, alerts).
 * 2. Raw DuckDB on the same file in the same process: SUMMARIZE plus three correlations.
 *    Goal: ours within 1.5x of it.
 * 3. pandas (Debian's /usr/bin/python3, when python3-pandas is there): read_csv + describe() +
 *    missing counts + corr(). Goal: ours faster than this smaller summary.
 * 4. Peak memory of the Node process during our run (RSS, and the JS heap separately), for
 *    each size in a fresh child process. Goal: flat in the file's size.
 *
 *   npx tsx bench/profile/profile.ts [rows=1000000] [more sizes for the memory curve...]
 *   e.g. npx tsx bench/profile/profile.ts 1000000 100000 250000
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDuckDb } from '../../server/engines/profiling/duckdb';
import { createProfilingEngine } from '../../server/engines/profiling/index';
import { literal } from '../../server/engines/profiling/sql';

const THREADS = Math.min(2, os.availableParallelism());
const PYTHON = '/usr/bin/python3';

interface ChildResult {
  rows: number;
  bytes: number;
  /** total = load (check and Parquet copy side by side) + profile; check alone for reference. */
  ours: { check: number; load: number; profile: number; total: number };
  duckdb: { summarize: number; correlations: number; total: number };
  /** The same two queries on the stored Parquet copy (against our profile step alone). */
  duckdbParquet: { summarize: number; correlations: number; total: number };
  pandas: { inProcess: number; wall: number } | null;
  memory: { baseRssMb: number; peakRssMb: number; peakHeapMb: number };
  profile: { columns: number; alerts: number; duplicates: number; frequency: string | null };
}

/** mulberry32 */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes `rows` rows: id, date (daily, 8 regions per day), region, sector, 5 numeric columns. */
async function generate(file: string, rows: number): Promise<void> {
  const random = rng(1);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const regions = ['North', 'South', 'East', 'West', 'Centre', 'Coast', 'Hills', 'Islands'];
  const out = createWriteStream(file);
  const write = (s: string) =>
    out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r()));
  await write('id,date,region,sector,gdp,inflation,unemployment,trade,firms\n');
  const start = Date.UTC(2000, 0, 1);
  let buf = '';
  for (let i = 0; i < rows; i++) {
    const day = Math.floor(i / regions.length);
    const date = new Date(start + day * 86_400_000).toISOString().slice(0, 10);
    const gdp = Math.exp(3 + 0.8 * normal());
    const inflation = 2 + 1.5 * normal();
    const unemployment = random() < 0.02 ? '' : (6 + 2 * normal()).toFixed(3);
    const trade = (0.6 * gdp + 5 * normal()).toFixed(4);
    const firms = random() < 0.3 ? 0 : Math.floor(random() * 40);
    buf += `${i},${date},${regions[i % regions.length]},S${Math.floor(random() * 50)},${gdp.toFixed(4)},${inflation.toFixed(4)},${unemployment},${trade},${firms}\n`;
    if (buf.length > 1 << 20) {
      await write(buf);
      buf = '';
    }
  }
  await write(buf);
  await new Promise<void>((r) => out.end(() => r()));
}

const PANDAS = `
import sys, time
import pandas as pd
t = time.perf_counter()
df = pd.read_csv(sys.argv[1])
d = df.describe()
m = df.isna().sum()
c = df.corr(numeric_only=True)
print(time.perf_counter() - t)
`;

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
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 20);

    const engine = createProfilingEngine({ threads: THREADS, memoryLimit: '1GB' });
    const t0 = performance.now();
    // The check alone, then (what the product runs) the check and the Parquet copy side by side.
    await engine.check(csv, 'data.csv');
    const t1 = performance.now();
    await engine.load(csv, 'data.csv', undefined, path.join(dir, 'data.parquet'));
    const t2 = performance.now();
    const profile = await engine.profile(path.join(dir, 'data.parquet'));
    const t3 = performance.now();
    clearInterval(sampler);
    engine.close();

    const db = createDuckDb({ threads: THREADS, memoryLimit: '1GB' });
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
    const duckdb = await raw(`read_csv(${literal(csv)})`);
    const duckdbParquet = await raw(`read_parquet(${literal(path.join(dir, 'data.parquet'))})`);
    db.close();

    let pandas: ChildResult['pandas'] = null;
    if (existsSync(PYTHON)) {
      const w0 = performance.now();
      const r = spawnSync(PYTHON, ['-c', PANDAS, csv], { encoding: 'utf8' });
      const wall = performance.now() - w0;
      if (r.status === 0) pandas = { inProcess: Number(r.stdout.trim()) * 1000, wall };
      else
        console.error(
          `pandas run failed (is python3-pandas installed?): ${r.stderr.slice(0, 300)}`,
        );
    }
    return {
      rows,
      bytes,
      ours: { check: t1 - t0, load: t2 - t1, profile: t3 - t2, total: t3 - t1 },
      duckdb,
      duckdbParquet,
      pandas,
      memory: {
        baseRssMb: baseRss / 2 ** 20,
        peakRssMb: peakRss / 2 ** 20,
        peakHeapMb: peakHeap / 2 ** 20,
      },
      profile: {
        columns: profile.columnCount,
        alerts: profile.alerts.length,
        duplicates: profile.duplicateRows,
        frequency: profile.timeSeries?.frequency ?? null,
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
  for (const r of results) {
    console.log(`\n${r.rows.toLocaleString('en')} rows, ${(r.bytes / 2 ** 20).toFixed(1)} MB CSV`);
    console.log(
      `  ours: ${s(r.ours.total)} (check + CSV->Parquet side by side ${s(r.ours.load)}, profile ${s(r.ours.profile)}; the check alone ${s(r.ours.check)})`,
    );
    console.log(
      `  DuckDB SUMMARIZE + 3 correlations: ${s(r.duckdb.total)} (SUMMARIZE ${s(r.duckdb.summarize)}, corr ${s(r.duckdb.correlations)})` +
        `  -> ours / raw = ${(r.ours.total / r.duckdb.total).toFixed(2)}x (goal <= 1.5x)`,
    );
    console.log(
      `  on the stored Parquet: our profile ${s(r.ours.profile)} vs SUMMARIZE + 3 correlations ${s(r.duckdbParquet.total)}` +
        `  -> ${(r.ours.profile / r.duckdbParquet.total).toFixed(2)}x`,
    );
    if (r.pandas) {
      console.log(
        `  pandas read_csv + describe + isna().sum() + corr: ${s(r.pandas.inProcess)} in Python (${s(r.pandas.wall)} with start-up)` +
          `  -> pandas / ours = ${(r.pandas.inProcess / r.ours.total).toFixed(2)}x`,
      );
    } else console.log('  pandas: not installed (/usr/bin/python3 with python3-pandas)');
    console.log(
      `  memory: RSS ${r.memory.baseRssMb.toFixed(0)} MB before, peak ${r.memory.peakRssMb.toFixed(0)} MB; JS heap peak ${r.memory.peakHeapMb.toFixed(0)} MB`,
    );
    console.log(
      `  profile: ${r.profile.columns} columns, ${r.profile.alerts} alerts, ${r.profile.duplicates} duplicate rows, time index ${r.profile.frequency ?? 'none'}`,
    );
  }
}

await main();
