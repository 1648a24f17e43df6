/**
 * CPU time of one sandboxed `print("hello")` against the same program run with python3 directly,
 * children included, at the worker's concurrency. On a busy machine wall-clock throughput mostly
 * measures the scheduler (more processes get more of a shared CPU), while CPU time per run is
 * what decides throughput once the cores are busy: the ratio direct/sandbox is the throughput
 * ratio a saturated, otherwise idle machine would show.
 *
 * bwrap does not wait for the sandbox's init before it exits, so the init's CPU time never
 * reaches the parent's RUSAGE_CHILDREN. Each measurement therefore runs in a child process
 * under a small Python "subreaper" (prctl PR_SET_CHILD_SUBREAPER), which adopts and waits for
 * every orphan and reports the CPU time of the whole tree. CPU per run is the slope between a
 * short and a long series, so the process start-up cancels out.
 *
 *   npx tsx bench/sandbox/cpu.ts [rounds=2] [runs=110] [concurrency=4]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { createSandbox } from '../../server/engines/sandbox';

const PYTHON = '/usr/bin/python3';
const PROGRAM = 'print("hello")\n';

const SUBREAPER = `
import ctypes, os, resource, sys
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
if os.fork() == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("CPU %.4f" % (r.ru_utime + r.ru_stime))
`;

/** One series in a child process: `runs` runs of the program, `mode` direct or sandboxed. */
async function series(mode: 'direct' | 'sandbox', runs: number, concurrency: number) {
  const sandbox = createSandbox({ maxConcurrent: concurrency });
  const status = await sandbox.status();
  if (!status.available) throw new Error(status.message);
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-cpu-'));
  writeFileSync(path.join(dir, 'print.py'), PROGRAM);
  const direct = () =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(PYTHON, ['-B', 'print.py'], {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.resume();
      child.stderr.resume();
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
    });
  const sandboxed = async () => {
    const result = await sandbox.run({ language: 'python', code: PROGRAM });
    if (!result.ok) throw new Error(result.error);
  };
  // The same set-up in both modes: a sandboxed run and a direct one before the series.
  await sandboxed();
  await direct();
  const limit = pLimit(concurrency);
  const one = mode === 'direct' ? direct : sandboxed;
  await Promise.all(Array.from({ length: runs }, () => limit(one)));
  rmSync(dir, { recursive: true, force: true });
}

/** CPU seconds of a whole series' process tree. */
function cpuOf(mode: string, runs: number, concurrency: number): number {
  const self = fileURLToPath(import.meta.url);
  const out = spawnSync(
    PYTHON,
    [
      '-c',
      SUBREAPER,
      process.execPath,
      '--import',
      'tsx',
      self,
      'series',
      mode,
      String(runs),
      String(concurrency),
    ],
    { encoding: 'utf8' },
  );
  const match = /CPU ([\d.]+)/.exec(out.stdout);
  if (out.status !== 0 || !match) throw new Error(`series failed: ${out.stderr}`);
  return Number(match[1]);
}

function main() {
  const rounds = Number(process.argv[2] ?? 2);
  const runs = Number(process.argv[3] ?? 110);
  const concurrency = Number(process.argv[4] ?? process.env.AGENT_WORKER_CONCURRENCY ?? 4);
  const short = 10;
  console.log(
    `CPU per run of print, ${runs - short} runs (slope ${short}..${runs}) at concurrency ` +
      `${concurrency}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`,
  );
  console.log('| Round | direct | sandbox | direct/sandbox |');
  console.log('| --- | ---: | ---: | ---: |');
  const ratios: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const perRun = (mode: string) =>
      ((cpuOf(mode, runs, concurrency) - cpuOf(mode, short, concurrency)) / (runs - short)) * 1000;
    const d = perRun('direct');
    const s = perRun('sandbox');
    ratios.push(d / s);
    console.log(`| ${round} | ${d.toFixed(1)} ms | ${s.toFixed(1)} ms | ${(d / s).toFixed(2)} |`);
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(
    `\ndirect/sandbox min ${sorted[0]!.toFixed(2)}, median ` +
      `${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)}, max ${sorted.at(-1)!.toFixed(2)} ` +
      `(goal >= 0.8); load ${loadavg()[0]!.toFixed(1)} at the end`,
  );
}

if (process.argv[2] === 'series') {
  series(
    process.argv[3] as 'direct' | 'sandbox',
    Number(process.argv[4]),
    Number(process.argv[5]),
  ).catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
} else {
  main();
}
