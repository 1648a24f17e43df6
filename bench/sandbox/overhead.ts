/**
 * Sandbox overhead: the same Python program run through the sandbox (bubblewrap, limits, the
 * control channel, figure scan) and with /usr/bin/python3 directly, alternating, in one run.
 *
 * 1. Wall time of `print("hello")` and of `import numpy`, p50 and p90 of N runs each way.
 * 2. Executions per second of `print` at the worker's concurrency (AGENT_WORKER_CONCURRENCY,
 *    default 4), sandboxed and direct.
 *
 *   npx tsx bench/sandbox/overhead.ts [runs=20] [concurrency=4]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { createSandbox } from '../../server/engines/sandbox';

const RUNS = Number(process.argv[2] ?? 20);
const CONCURRENCY = Number(process.argv[3] ?? process.env.AGENT_WORKER_CONCURRENCY ?? 4);
const PYTHON = '/usr/bin/python3';

const PROGRAMS = {
  print: 'print("hello")\n',
  'import numpy': 'import numpy\nprint(numpy.__version__)\n',
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-bench-'));

/** Runs a file with python3 directly (no sandbox), as the baseline. */
function direct(file: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ['-B', file], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`exit ${code}`)),
    );
  });
}

async function main() {
  const sandbox = createSandbox({ maxConcurrent: CONCURRENCY });
  const status = await sandbox.status();
  if (!status.available) throw new Error(status.message);
  const sandboxed = async (code: string) => {
    const started = performance.now();
    const result = await sandbox.run({ language: 'python', code });
    if (!result.ok) throw new Error(result.error);
    return performance.now() - started;
  };

  // Warm-up: page cache, the matplotlib font list (built once per process), the status probe.
  for (const code of Object.values(PROGRAMS)) {
    await sandboxed(code);
    writeFileSync(path.join(dir, 'prog.py'), code);
    await direct('prog.py');
  }

  console.log(
    `Sandbox overhead: ${RUNS} runs each, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log('| Program | direct p50 / p90 | sandbox p50 / p90 | overhead p50 |');
  console.log('| --- | --- | --- | --- |');
  for (const [name, code] of Object.entries(PROGRAMS)) {
    const file = `${name.replace(/\W/g, '_')}.py`;
    writeFileSync(path.join(dir, file), code);
    const d: number[] = [];
    const s: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      d.push(await direct(file));
      s.push(await sandboxed(code));
    }
    const f = (v: number) => `${v.toFixed(0)} ms`;
    console.log(
      `| ${name} | ${f(percentile(d, 50))} / ${f(percentile(d, 90))} | ` +
        `${f(percentile(s, 50))} / ${f(percentile(s, 90))} | ` +
        `${f(percentile(s, 50) - percentile(d, 50))} |`,
    );
  }

  const total = RUNS * 4;
  const limit = pLimit(CONCURRENCY);
  writeFileSync(path.join(dir, 'print.py'), PROGRAMS.print);
  let started = performance.now();
  await Promise.all(Array.from({ length: total }, () => limit(() => direct('print.py'))));
  const directRate = total / ((performance.now() - started) / 1000);
  started = performance.now();
  await Promise.all(Array.from({ length: total }, () => sandboxed(PROGRAMS.print)));
  const sandboxRate = total / ((performance.now() - started) / 1000);
  console.log(
    `\nThroughput of print, ${total} runs at concurrency ${CONCURRENCY}: ` +
      `sandbox ${sandboxRate.toFixed(1)}/s, direct ${directRate.toFixed(1)}/s`,
  );
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
