import {
  DEFAULT_IRF_PERIODS,
  DEFAULT_SIMULATION_PERIODS,
  MAX_IRF_PERIODS,
  simulationPeriodsProblem,
  type ModelDescription,
  type ModelDescriptionInput,
  type ModelRun,
  type Moments,
} from '../../../common/teams/model';
import { compileModel, parameterVector, type CompiledModel } from './compile';
import { impulseResponses, simulate } from './dynamics';
import { ModelError } from './errors';
import { sampleMoments, type MomentSet } from './moments';
import { solvePerfectForesight } from './perfect-foresight';
import { MomentSource, solveModel } from './solve';
import { findSteadyState } from './steady';

/**
 * One full computation for a model description, in the order Dynare's stoch_simul works:
 * steady state -> first-order solution with the Blanchard-Kahn check -> impulse responses ->
 * theoretical moments -> stochastic simulation and its moments; then the target moments, and
 * for a model with a scenario the comparative statics and the perfect-foresight transition.
 */

export interface RunOptions {
  /** Simulation (and transition) periods, default 240. */
  periods?: number;
  /** Impulse-response horizon, default 40. */
  irfPeriods?: number;
  /** Periods simulated and dropped before `periods` are kept (Dynare's `drop`), default 100. */
  burnIn?: number;
  seed?: number;
  /** Parameter values replacing the description's. */
  overrides?: Record<string, number>;
}

export const DEFAULT_BURN_IN = 100;
export const DEFAULT_SEED = 1;

function toMoments(names: string[], set: MomentSet): Moments {
  const { mean, variance, std, autocorr, correlation } = set;
  return { variables: names, mean, variance, std, autocorr, correlation };
}

function unitRootNote(variables: string[]): string {
  const list = variables.map((v) => `'${v}'`).join(', ');
  const one = variables.length === 1;
  return `The model has a unit root: ${list} ${one ? 'is' : 'are'} not stationary, so ${one ? 'it has' : 'they have'} no theoretical moments (mean, standard deviation, autocorrelations and correlations are not defined, as in Dynare). The simulated moments describe one simulated sample only and do not converge as the sample grows.`;
}

function byName(names: string[], values: Float64Array): Record<string, number> {
  return Object.fromEntries(names.map((name, i) => [name, values[i] as number]));
}

export function checkRunOptions(options: RunOptions): Required<Omit<RunOptions, 'overrides'>> {
  const periods = options.periods ?? DEFAULT_SIMULATION_PERIODS;
  const problem = simulationPeriodsProblem(periods);
  if (problem) throw new ModelError('invalid_input', problem);
  const irfPeriods = options.irfPeriods ?? DEFAULT_IRF_PERIODS;
  if (!Number.isInteger(irfPeriods) || irfPeriods < 1 || irfPeriods > MAX_IRF_PERIODS) {
    throw new ModelError(
      'invalid_input',
      `Impulse-response periods must be a whole number from 1 to ${MAX_IRF_PERIODS} (got ${irfPeriods})`,
    );
  }
  const burnIn = options.burnIn ?? DEFAULT_BURN_IN;
  if (!Number.isInteger(burnIn) || burnIn < 0 || burnIn > 10_000) {
    throw new ModelError(
      'invalid_input',
      `Burn-in periods must be a whole number from 0 to 10000 (got ${burnIn})`,
    );
  }
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isInteger(seed))
    throw new ModelError('invalid_input', `The random seed must be a whole number (got ${seed})`);
  return { periods, irfPeriods, burnIn, seed };
}

export function runModel(
  input: ModelDescriptionInput | ModelDescription | CompiledModel,
  options: RunOptions = {},
): ModelRun {
  const { periods, irfPeriods, burnIn, seed } = checkRunOptions(options);
  const model =
    'equations' in input && 'endo' in input ? (input as CompiledModel) : compileModel(input);
  const overrides = options.overrides ?? {};
  const solved = solveModel(model, overrides);
  const { steadyState, solution, covariance } = solved;
  const { endo, exo, description } = model;

  const irfArrays = impulseResponses(solution, covariance, irfPeriods);
  const irfs = Object.fromEntries(
    exo.map((shock, k) => [
      shock,
      Object.fromEntries(
        endo.map((v, i) => [v, Array.from((irfArrays[k] as Float64Array[])[i] as Float64Array)]),
      ),
    ]),
  );
  const series = simulate(solution, covariance, periods, burnIn, seed);
  const source = new MomentSource(solved);
  const theoretical = source.unfiltered();
  const nonStationary = theoretical?.nonStationary.map((i) => endo[i] as string) ?? [];

  const scenario = description.scenario;
  let transition: ModelRun['transition'] = null;
  let comparativeStatics: ModelRun['comparativeStatics'] = null;
  if (scenario) {
    if (model.usesSteadyStateOperator) {
      throw new ModelError(
        'invalid_model',
        'A scenario (perfect-foresight transition) cannot be computed for a model whose equations use steady_state(); remove the scenario or the operator',
      );
    }
    const newParams = parameterVector(model, { ...overrides, ...scenario.changes });
    const terminal = findSteadyState(model, newParams, steadyState).values;
    const initial = Float64Array.from(steadyState);
    for (const [name, factor] of Object.entries(scenario.initialFactor)) {
      const i = endo.indexOf(name);
      if (i < 0)
        throw new ModelError(
          'invalid_model',
          `The scenario starts '${name}' away from its steady state, but it is not an endogenous variable`,
        );
      initial[i] = (initial[i] as number) * factor;
    }
    comparativeStatics = endo.map((variable, i) => {
      const baseline = steadyState[i] as number;
      const value = terminal[i] as number;
      return { variable, baseline, scenario: value, change: value - baseline };
    });
    const path = solvePerfectForesight(model, newParams, initial, terminal, periods);
    transition = {
      title: scenario.title,
      periods,
      paths: Object.fromEntries(endo.map((v, i) => [v, Array.from(path.paths[i] as Float64Array)])),
      initialSteadyState: byName(endo, steadyState),
      finalSteadyState: byName(endo, terminal),
      iterations: path.iterations,
      residual: path.residual,
    };
  }

  return {
    type: description.type,
    title: description.title,
    steadyState: byName(endo, steadyState),
    steadyStateIterations: solved.steadyStateIterations,
    eigenvalues: solution.eigenvalues.map((e) => ({
      re: Number.isFinite(e.re) ? e.re : 0,
      im: e.im,
      modulus: Number.isFinite(e.modulus) ? e.modulus : null,
    })),
    blanchardKahn: solution.bk,
    policy: {
      states: solution.states.map((i) => endo[i] as string),
      shocks: exo,
      G: solution.G.map((row) => Array.from(row)),
      H: solution.H.map((row) => Array.from(row)),
    },
    irfPeriods,
    irfs,
    theoreticalMoments: theoretical ? toMoments(endo, theoretical) : null,
    unitRoot:
      nonStationary.length > 0
        ? {
            nonStationary,
            note: unitRootNote(nonStationary),
          }
        : null,
    simulation: {
      periods,
      burnIn,
      seed,
      series: Object.fromEntries(
        endo.map((v, i) => [
          v,
          Array.from(series[i] as Float64Array, (d) => d + (steadyState[i] as number)),
        ]),
      ),
    },
    simulatedMoments: toMoments(endo, sampleMoments(series, steadyState)),
    targets: description.targets.map((t) => ({ ...t, model: source.value(t) })),
    transition,
    comparativeStatics,
  };
}
