/**
 * Our first-order solve plus 40-period impulse responses against Dynare under GNU Octave, on the
 * same exported RBC and NK models, in one run:
 *
 *  - ours: steady state (Newton) + QZ/Klein solution with the Blanchard-Kahn check + IRFs of
 *    every variable to every shock, from an already compiled model (median of many runs after a
 *    warm-up); also with the description's parsing and symbolic differentiation included;
 *  - Dynare, whole process: wall time of `octave --eval "dynare <file> nograph"` (Octave
 *    start-up, preprocessing, steady, check, stoch_simul with its printed output);
 *  - Dynare, stoch_simul alone: tic/toc inside Octave around repeated stoch_simul calls
 *    (noprint), start-up and preprocessing excluded;
 *  - the largest absolute difference between our IRFs and Dynare's.
 *
 *   npx tsx bench/models/dynare-compare.ts [repeats=20]
 */
import { compileModel } from '../../server/engines/models/compile';
import { impulseResponses } from '../../server/engines/models/dynamics';
import {
  findDynare,
  dynareMissingReason,
  runDynare,
} from '../../server/engines/models/dynare-runner';
import { canonicalModel } from '../../server/engines/models/library';
import { solveModel } from '../../server/engines/models/solve';

const REPEATS = Number(process.argv[2] ?? 20);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function timeIt(fn: () => void, runs: number): number {
  for (let i = 0; i < 20; i++) fn(); // warm-up (JIT)
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return median(times) / 1000;
}

const fmt = (s: number): string =>
  s < 1e-3
    ? `${(s * 1e6).toFixed(0)} µs`
    : s < 1
      ? `${(s * 1e3).toFixed(2)} ms`
      : `${s.toFixed(2)} s`;

async function main(): Promise<void> {
  if (!findDynare()) {
    console.log(`Dynare comparison not possible: ${dynareMissingReason()}`);
    return;
  }
  const rows: string[][] = [];
  for (const type of ['RBC', 'NK']) {
    const description = canonicalModel(type);
    const model = compileModel(description);
    const ours = timeIt(() => {
      const solved = solveModel(model);
      impulseResponses(solved.solution, solved.sigma, 40);
    }, 200);
    const oursWithCompile = timeIt(() => {
      const solved = solveModel(compileModel(description));
      impulseResponses(solved.solution, solved.sigma, 40);
    }, 200);

    // whole process (no timing loop inside), then stoch_simul timed inside Octave
    const plain = await runDynare(model, { repeats: 0 });
    const timed = await runDynare(model, { repeats: REPEATS });

    const solved = solveModel(model);
    const irfs = impulseResponses(solved.solution, solved.sigma, 40);
    let maxDiff = 0;
    model.exo.forEach((shock, k) =>
      model.endo.forEach((v, i) => {
        const mine = irfs[k]![i]!;
        const theirs = plain.irfs[shock]?.[v];
        mine.forEach(
          (x, t) => (maxDiff = Math.max(maxDiff, Math.abs(x - (theirs ? theirs[t]! : 0)))),
        );
      }),
    );
    rows.push([
      type,
      fmt(ours),
      fmt(oursWithCompile),
      fmt(plain.processSeconds),
      `${(plain.processSeconds / ours).toFixed(0)}x`,
      fmt(timed.stochSimulSeconds),
      `${(timed.stochSimulSeconds / ours).toFixed(0)}x`,
      maxDiff.toExponential(1),
    ]);
  }
  const header = [
    'Model',
    'Ours: solve + IRFs',
    'Ours incl. parsing',
    'Dynare process',
    'Speed-up vs process',
    'Dynare stoch_simul',
    'Speed-up vs stoch_simul',
    'Largest IRF difference',
  ];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`| ${header.map(() => '---').join(' | ')} |`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

await main();
