import { describeEquation, valueWidth, type CompiledModel } from './compile';
import { ModelError } from './errors';
import { zeros, type Mat } from './linalg';
import { newton } from './newton';

/**
 * Steady states (and static equilibria, which are the same problem for a model without
 * leads and lags): every date of every variable set to one value, shocks at zero, solved by
 * Newton's method from the description's starting values.
 */

/** A value vector with y(-1) = y = y(+1) = ys, shocks u and the parameters. */
export function pointVector(
  model: CompiledModel,
  ys: Float64Array,
  params: Float64Array,
  u?: Float64Array,
): Float64Array {
  const n = model.endo.length;
  const v = new Float64Array(valueWidth(model));
  v.set(ys, 0);
  v.set(ys, n);
  v.set(ys, 2 * n);
  if (u) v.set(u, 3 * n);
  v.set(params, 3 * n + model.exo.length);
  return v;
}

/** Residuals of the dynamic equations at a value vector. */
export function residuals(model: CompiledModel, values: Float64Array): Float64Array {
  return Float64Array.from(model.equations, (eq) => eq.residual(values));
}

/** The starting point: given numbers and formulas, 0 for variables without one (as Dynare). */
export function startingValues(model: CompiledModel, params: Float64Array): Float64Array {
  const n = model.endo.length;
  const ys = new Float64Array(n);
  for (const { index, value } of model.steadyNumbers) ys[index] = value;
  if (model.steadyFormulas.length > 0) {
    const v = pointVector(model, ys, params);
    for (const { index, fn } of model.steadyFormulas) {
      const value = fn(v);
      ys[index] = value;
      v[n + index] = value;
    }
  }
  return ys;
}

export interface SteadyState {
  values: Float64Array;
  iterations: number;
  residual: number;
}

/** Finds the steady state, or throws a ModelError naming the equation that failed. */
export function findSteadyState(
  model: CompiledModel,
  params: Float64Array,
  start: Float64Array = startingValues(model, params),
): SteadyState {
  const n = model.endo.length;
  const F = (x: Float64Array): Float64Array => residuals(model, pointVector(model, x, params));
  const J = (x: Float64Array): Mat => {
    const v = pointVector(model, x, params);
    const jac = zeros(n, n);
    model.equations.forEach((eq, i) => {
      const row = jac[i] as Float64Array;
      for (const d of eq.derivatives) {
        if (d.column < 3 * n) row[d.column % n] = (row[d.column % n] as number) + d.fn(v);
      }
    });
    return jac;
  };
  const bad = start.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) {
    throw new ModelError(
      'steady_state',
      `The steady-state starting value of '${model.endo[bad]}' is not a finite number (${start[bad]}); check its formula`,
    );
  }
  const result = newton(F, J, start);
  if (result.converged) {
    return { values: result.x, iterations: result.iterations, residual: result.residual };
  }
  const eq = model.equations[result.worst];
  const where = eq ? describeEquation(result.worst, eq.label) : 'an equation';
  switch (result.failure) {
    case 'not_evaluable':
      throw new ModelError(
        'steady_state',
        `The steady state could not be computed: ${where} cannot be evaluated at the starting values (a logarithm or power of a negative number, or a division by zero); give better starting values`,
      );
    case 'singular':
      throw new ModelError(
        'steady_state',
        `The steady state could not be computed: the Jacobian of the static equations is singular after ${result.iterations} Newton iterations (two equations may be dependent, or a variable is not pinned down in the steady state)`,
      );
    default:
      throw new ModelError(
        'steady_state',
        `The steady state could not be computed: Newton's method stopped after ${result.iterations} iterations with the largest residual ${result.residual.toExponential(2)} in ${where}`,
      );
  }
}

/** First-order derivatives at the steady state: f_{y(-1)}, f_y, f_{y(+1)}, f_u (all n rows). */
export interface Linearisation {
  Am: Mat;
  A0: Mat;
  Ap: Mat;
  B: Mat;
}

export function linearise(
  model: CompiledModel,
  ys: Float64Array,
  params: Float64Array,
): Linearisation {
  const n = model.endo.length;
  const m = model.exo.length;
  const v = pointVector(model, ys, params);
  const Am = zeros(n, n);
  const A0 = zeros(n, n);
  const Ap = zeros(n, n);
  const B = zeros(n, m);
  model.equations.forEach((eq, i) => {
    for (const d of eq.derivatives) {
      const value = d.fn(v);
      if (!Number.isFinite(value)) {
        throw new ModelError(
          'singular',
          `The derivatives of ${describeEquation(i, eq.label)} cannot be evaluated at the steady state (${value})`,
        );
      }
      const c = d.column;
      if (c < n) (Am[i] as Float64Array)[c] = value;
      else if (c < 2 * n) (A0[i] as Float64Array)[c - n] = value;
      else if (c < 3 * n) (Ap[i] as Float64Array)[c - 2 * n] = value;
      else (B[i] as Float64Array)[c - 3 * n] = value;
    }
  });
  return { Am, A0, Ap, B };
}
