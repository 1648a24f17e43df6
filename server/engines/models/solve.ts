import type { MomentTarget } from '../../../common/teams/model';
import { parameterVector, type CompiledModel } from './compile';
import { ModelError } from './errors';
import {
  HP_LAMBDA,
  hpCycle,
  hpFilteredMoments,
  sampleMoments,
  theoreticalMoments,
  type MomentSet,
} from './moments';
import { solveFirstOrder, type FirstOrderSolution } from './perturbation';
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
}

export function solveModel(
  model: CompiledModel,
  overrides: Record<string, number> = {},
  start?: Float64Array,
): SolvedModel {
  const params = parameterVector(model, overrides);
  const ss = findSteadyState(model, params, start ?? startingValues(model, params));
  const solution = solveFirstOrder(model, ss.values, params);
  const sigma = Float64Array.from(model.stderrParam, (i) => params[i] as number);
  sigma.forEach((s, k) => {
    if (!(s >= 0)) {
      throw new ModelError(
        'invalid_model',
        `The standard deviation of shock '${model.exo[k]}' must be zero or positive (got ${s})`,
      );
    }
  });
  return {
    model,
    params,
    steadyState: ss.values,
    steadyStateIterations: ss.iterations,
    solution,
    sigma,
  };
}

/** Lazily computed moment sets a list of targets needs. */
export class MomentSource {
  private theoretical?: MomentSet | null;
  private readonly hp = new Map<number, MomentSet>();
  constructor(
    private readonly solved: SolvedModel,
    /** Simulated deviations, used when theoretical moments do not exist (non-stationary). */
    private readonly simulated?: Float64Array[],
  ) {}

  unfiltered(): MomentSet | null {
    if (this.theoretical === undefined) {
      const { solution, sigma, steadyState } = this.solved;
      this.theoretical = theoreticalMoments(solution, sigma, steadyState);
      if (!this.theoretical && this.simulated)
        this.theoretical = sampleMoments(this.simulated, steadyState);
    }
    return this.theoretical;
  }

  filtered(lambda = HP_LAMBDA): MomentSet {
    let set = this.hp.get(lambda);
    if (!set) {
      const { solution, sigma, steadyState } = this.solved;
      const stationary = theoreticalMoments(solution, sigma, steadyState) !== null;
      set =
        stationary || !this.simulated
          ? hpFilteredMoments(solution, sigma, steadyState, undefined, lambda)
          : sampleMoments(
              this.simulated.map((s) => hpCycle(s, lambda)),
              steadyState,
            );
      this.hp.set(lambda, set);
    }
    return set;
  }

  /** The model's value of a target moment, or null when it is undefined (zero variance). */
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
    if (target.statistic === 'mean') return this.solved.steadyState[i] as number;
    const set = target.filter === 'hp' ? this.filtered(target.lambda) : this.unfiltered();
    if (!set) return null;
    switch (target.statistic) {
      case 'std':
        return set.std[i] as number;
      case 'autocorr':
        return (set.autocorr[0] as (number | null)[])[i] ?? null;
      case 'relstd': {
        if (!target.other)
          throw new ModelError(
            'invalid_input',
            `A relstd target needs 'other' (for ${target.variable})`,
          );
        const d = set.std[index(target.other)] as number;
        return d > 0 ? (set.std[i] as number) / d : null;
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
