import { nelderMead } from './nelder-mead';
import type { EstimationResult, MomentTarget } from '../../../common/teams/model';
import { parameterVector, type CompiledModel } from './compile';
import { ModelError } from './errors';
import { MomentSource, solveModel } from './solve';

/**
 * Moment matching: the chosen parameters are moved within their bounds to bring the model's
 * moments close to the targets, by the derivative-free Nelder-Mead simplex. The
 * objective is the sum of squared relative gaps; a parameter vector for which the model has
 * no steady state or no unique stable solution gets a large penalty, so the search avoids it.
 */

const PENALTY = 1e6;

export interface EstimatedParameter {
  name: string;
  lower: number;
  upper: number;
}

function objectiveOf(targets: MomentTarget[], values: (number | null)[]): number {
  let sum = 0;
  targets.forEach((t, k) => {
    const v = values[k];
    if (v === null || v === undefined || !Number.isFinite(v)) {
      sum += PENALTY;
      return;
    }
    const scale = Math.max(Math.abs(t.value), 1e-6);
    sum += ((v - t.value) / scale) ** 2;
  });
  return sum;
}

// Bounded parameters are searched on an unbounded scale through a logistic map.
const toBounded = (x: number, lo: number, hi: number): number =>
  lo + (hi - lo) / (1 + Math.exp(-x));
const toUnbounded = (v: number, lo: number, hi: number): number => {
  const p = Math.min(Math.max((v - lo) / (hi - lo), 1e-6), 1 - 1e-6);
  return Math.log(p / (1 - p));
};

export function matchMoments(
  model: CompiledModel,
  targets: MomentTarget[],
  estimated: EstimatedParameter[],
  overrides: Record<string, number> = {},
  { maxIterations = 300 }: { maxIterations?: number } = {},
): EstimationResult & { overrides: Record<string, number> } {
  if (targets.length === 0)
    throw new ModelError('invalid_input', 'Moment matching needs at least one target moment');
  if (estimated.length === 0)
    throw new ModelError(
      'invalid_input',
      'Moment matching needs at least one parameter to estimate',
    );
  const base = parameterVector(model, overrides);
  for (const p of estimated) {
    const i = model.params.indexOf(p.name);
    if (i < 0)
      throw new ModelError(
        'invalid_input',
        `Cannot estimate '${p.name}': it is not a parameter of the model`,
      );
    if (model.derived.some((d) => d.index === i)) {
      throw new ModelError(
        'invalid_input',
        `Cannot estimate '${p.name}': it is computed from other parameters`,
      );
    }
    if (!(p.lower < p.upper))
      throw new ModelError('invalid_input', `The bounds of '${p.name}' must satisfy lower < upper`);
  }
  const initial = estimated.map((p) => base[model.params.indexOf(p.name)] as number);
  let start: Float64Array | undefined;
  let evaluations = 0;

  const evaluate = (values: number[]): { objective: number; moments: (number | null)[] } => {
    evaluations++;
    const trial = { ...overrides };
    estimated.forEach((p, k) => (trial[p.name] = values[k] as number));
    try {
      const solved = solveModel(model, trial, start);
      start = solved.steadyState;
      const source = new MomentSource(solved);
      const moments = targets.map((t) => source.value(t));
      return { objective: objectiveOf(targets, moments), moments };
    } catch (err) {
      if (err instanceof ModelError && err.code === 'invalid_input') throw err;
      return { objective: PENALTY * (targets.length + 1), moments: targets.map(() => null) };
    }
  };

  const before = evaluate(initial);
  const x0 = estimated.map((p, k) => toUnbounded(initial[k] as number, p.lower, p.upper));
  const result = nelderMead(
    (x: number[]) =>
      evaluate(
        x.map((v, k) =>
          toBounded(
            v,
            (estimated[k] as EstimatedParameter).lower,
            (estimated[k] as EstimatedParameter).upper,
          ),
        ),
      ).objective,
    x0,
    { maxIterations },
  );
  const estimates = result.x.map((v, k) =>
    toBounded(
      v,
      (estimated[k] as EstimatedParameter).lower,
      (estimated[k] as EstimatedParameter).upper,
    ),
  );
  // keep the starting point when the search found nothing better
  const finalValues = result.fx < before.objective ? estimates : initial;
  const after = evaluate(finalValues);
  const fitted = { ...overrides };
  estimated.forEach((p, k) => (fitted[p.name] = finalValues[k] as number));
  return {
    parameters: estimated.map((p, k) => ({
      name: p.name,
      initial: initial[k] as number,
      estimate: finalValues[k] as number,
    })),
    objectiveBefore: before.objective,
    objectiveAfter: after.objective,
    evaluations,
    targets: targets.map((t, k) => ({ ...t, model: after.moments[k] ?? null })),
    overrides: fitted,
  };
}
