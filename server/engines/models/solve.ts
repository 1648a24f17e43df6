import type { MomentTarget } from '../../../common/teams/model';
import { parameterVector, type CompiledModel } from './compile';
import { ModelError } from './errors';
import type { Mat } from './linalg';
import {
  HP_LAMBDA,
  hpFilteredMoments,
  theoreticalMoments,
  type MomentSet,
  type TheoreticalMoments,
} from './moments';
import { solveFirstOrder, type FirstOrderSolution } from './perturbation';
import { shockCovariance } from './shocks';
import { findSteadyState, startingValues } from './steady';

/** One parameterisation of a compiled model, solved to first order. */
export interface SolvedModel {
  model: CompiledModel;
  params: Float64Array;
  steadyState: Float64Array;
  steadyStateIterations: number;
  solution: FirstOrderSolution;
  /** Standard deviation of each shock. */
  sigma: Float64Array;
  /** The shocks' covariance matrix Sigma_e (diagonal sigma^2 unless shocks are correlated). */
  covariance: Mat;
}

export function solveModel(
  model: CompiledModel,
  overrides: Record<string, number> = {},
  start?: Float64Array,
): SolvedModel {
  const params = parameterVector(model, overrides);
  const ss = findSteadyState(model, params, start ?? startingValues(model, params));
  const solution = solveFirstOrder(model, ss.values, params);
  const covariance = shockCovariance(model, params);
  return {
    model,
    params,
    steadyState: ss.values,
    steadyStateIterations: ss.iterations,
    solution,
    sigma: Float64Array.from(model.stderrParam, (i) => params[i] as number),
    covariance,
  };
}

/**
 * Lazily computed moment sets a list of targets needs. All are theoretical: unfiltered
 * moments of a variable with a unit root are undefined (null); HP-filtered ones exist, since
 * the filter removes the zero frequency where the unit root lives.
 */
export class MomentSource {
  private theoretical?: TheoreticalMoments | null;
  private readonly hp = new Map<number, MomentSet>();
  constructor(private readonly solved: SolvedModel) {}

  unfiltered(): TheoreticalMoments | null {
    if (this.theoretical === undefined) {
      const { solution, covariance, steadyState } = this.solved;
      this.theoretical = theoreticalMoments(solution, covariance, steadyState);
    }
    return this.theoretical;
  }

  filtered(lambda = HP_LAMBDA): MomentSet {
    let set = this.hp.get(lambda);
    if (!set) {
      const { solution, covariance, steadyState } = this.solved;
      set = hpFilteredMoments(solution, covariance, steadyState, undefined, lambda);
      this.hp.set(lambda, set);
    }
    return set;
  }

  /** The model's value of a target moment, or null when it is undefined (zero variance, unit root). */
  value(target: MomentTarget): number | null {
    const index = (name: string): number => {
      const i = this.solved.model.endo.indexOf(name);
      if (i < 0)
        throw new ModelError(
          'invalid_input',
          `Target moment refers to '${name}', which is not an endogenous variable`,
        );
      return i;
    };
    const i = index(target.variable);
    if (target.statistic === 'mean') {
      // a variable with a unit root has no unconditional mean
      if (this.unfiltered()?.nonStationary.includes(i)) return null;
      return this.solved.steadyState[i] as number;
    }
    const set = target.filter === 'hp' ? this.filtered(target.lambda) : this.unfiltered();
    if (!set) return null;
    switch (target.statistic) {
      case 'std':
        return set.std[i] ?? null;
      case 'autocorr':
        return (set.autocorr[0] as (number | null)[])[i] ?? null;
      case 'relstd': {
        if (!target.other)
          throw new ModelError(
            'invalid_input',
            `A relstd target needs 'other' (for ${target.variable})`,
          );
        const d = set.std[index(target.other)] ?? null;
        const s = set.std[i] ?? null;
        return s !== null && d !== null && d > 0 ? s / d : null;
      }
      case 'corr': {
        if (!target.other)
          throw new ModelError(
            'invalid_input',
            `A corr target needs 'other' (for ${target.variable})`,
          );
        return (set.correlation[i] as (number | null)[])[index(target.other)] ?? null;
      }
    }
  }
}
