import pLimit from 'p-limit';
import type { DynareComparison, ModelRun } from '../../../common/teams/model';
import { defineService } from '../../platform/services';
import type { CompiledModel } from './compile';
import {
  dynareMissingReason,
  findDynare,
  runDynare,
  type DynareInstallation,
  type DynareResults,
} from './dynare-runner';
import { isModelError } from './errors';

/**
 * The model engine as a team service: the solver is pure computation; what varies by host is
 * whether Octave and Dynare are installed, looked up once per process.
 */
export interface ModelEngine {
  /** Null when Dynare cannot run here. */
  readonly dynare: DynareInstallation | null;
  /** Runs the exported model in Dynare and compares its results with ours. */
  compareWithDynare(
    model: CompiledModel,
    ours: ModelRun,
    options: { overrides?: Record<string, number>; irfPeriods?: number; timeoutMs?: number },
  ): Promise<DynareComparison>;
}

const notRun = (reason: string): DynareComparison => ({
  available: false,
  reason,
  steadyStateMaxDiff: null,
  irfMaxDiff: null,
  varianceMaxDiff: null,
  processSeconds: null,
  irfs: null,
});

/** Largest gaps between our results and Dynare's (absent Dynare IRFs are zero: Dynare drops those below 1e-10). */
export function compareResults(ours: ModelRun, dynare: DynareResults): DynareComparison {
  let steady = 0;
  for (const [name, value] of Object.entries(ours.steadyState)) {
    steady = Math.max(steady, Math.abs(value - (dynare.steadyState[name] ?? NaN)));
  }
  let irf = 0;
  for (const [shock, byVariable] of Object.entries(ours.irfs)) {
    for (const [variable, path] of Object.entries(byVariable)) {
      const theirs = dynare.irfs[shock]?.[variable];
      path.forEach(
        (x, t) => (irf = Math.max(irf, Math.abs(x - (theirs ? (theirs[t] ?? NaN) : 0)))),
      );
    }
  }
  let variance: number | null = null;
  if (
    ours.theoreticalMoments &&
    dynare.variance.length === ours.theoreticalMoments.variance.length
  ) {
    variance = 0;
    ours.theoreticalMoments.variance.forEach((row, i) =>
      row.forEach((x, j) => {
        // a variable with a unit root has no variance, here (null) as in Dynare (NaN)
        const theirs = dynare.variance[i]?.[j] ?? NaN;
        if (x === null && Number.isNaN(theirs)) return;
        variance = Math.max(variance as number, x === null ? NaN : Math.abs(x - theirs));
      }),
    );
  }
  const finite = (v: number | null): number | null => (v === null || Number.isNaN(v) ? null : v);
  return {
    available: true,
    reason: null,
    steadyStateMaxDiff: finite(steady),
    irfMaxDiff: finite(irf),
    varianceMaxDiff: finite(variance),
    processSeconds: dynare.processSeconds,
    irfs: dynare.irfs,
  };
}

/** Octave processes at once (each takes a core and about 100 MB for a second or two). */
const DYNARE_CONCURRENCY = 2;

export function createModelEngine(
  installation: DynareInstallation | null = findDynare(),
): ModelEngine {
  const limit = pLimit(DYNARE_CONCURRENCY);
  return {
    dynare: installation,
    async compareWithDynare(model, ours, options) {
      if (!installation)
        return notRun(`Dynare was not run: ${dynareMissingReason() ?? 'not installed'}`);
      try {
        const results = await limit(() =>
          runDynare(model, {
            installation,
            overrides: options.overrides,
            irfPeriods: options.irfPeriods,
            timeoutMs: options.timeoutMs ?? 120_000,
            repeats: 0,
          }),
        );
        return compareResults(ours, results);
      } catch (err) {
        return notRun(isModelError(err) ? err.message : `Dynare failed: ${(err as Error).message}`);
      }
    },
  };
}

export const modelEngineService = defineService({
  id: 'model-engine',
  create: () => createModelEngine(),
});
