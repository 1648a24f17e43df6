import { luFactor, luSolve, SINGULAR_PIVOT, type Mat } from './linalg';

/**
 * Damped Newton's method for a square system F(x) = 0 with an exact Jacobian: a full step,
 * halved (up to 30 times) until the largest residual falls, so a poor start does not throw the
 * iterate into a region where the equations cannot be evaluated.
 */
export interface NewtonResult {
  x: Float64Array;
  iterations: number;
  /** Largest |F_i| at x. */
  residual: number;
  /** Index of the equation with the largest residual. */
  worst: number;
  converged: boolean;
  failure?: 'not_evaluable' | 'singular' | 'max_iterations' | 'no_progress';
}

export interface NewtonOptions {
  maxIterations?: number;
  tolerance?: number;
}

function largest(f: Float64Array): { value: number; index: number } {
  let value = 0;
  let index = 0;
  for (let i = 0; i < f.length; i++) {
    const v = Math.abs(f[i] as number);
    if (!(v <= value)) {
      // NaN counts as the largest
      value = Number.isNaN(v) ? Infinity : v;
      index = i;
      if (Number.isNaN(v)) break;
    }
  }
  return { value, index };
}

/** A residual this small is accepted when rounding stops further progress. */
const ACCEPTABLE = 1e-8;

export function newton(
  F: (x: Float64Array) => Float64Array,
  J: (x: Float64Array) => Mat,
  x0: Float64Array,
  { maxIterations = 100, tolerance = 1e-11 }: NewtonOptions = {},
): NewtonResult {
  let x = Float64Array.from(x0);
  let f = F(x);
  let norm = largest(f);
  if (!Number.isFinite(norm.value)) {
    return {
      x,
      iterations: 0,
      residual: Infinity,
      worst: norm.index,
      converged: false,
      failure: 'not_evaluable',
    };
  }
  for (let it = 0; it < maxIterations; it++) {
    if (norm.value <= tolerance) {
      return { x, iterations: it, residual: norm.value, worst: norm.index, converged: true };
    }
    const lu = luFactor(J(x));
    if (!(lu.relativePivot > SINGULAR_PIVOT)) {
      return {
        x,
        iterations: it,
        residual: norm.value,
        worst: norm.index,
        converged: false,
        failure: 'singular',
      };
    }
    const step = luSolve(
      lu,
      Array.from(f, (v) => Float64Array.of(v)),
    );
    let t = 1;
    let accepted = false;
    for (let half = 0; half < 30; half++, t /= 2) {
      const trial = x.map((v, i) => v - t * ((step[i] as Float64Array)[0] as number));
      const ft = F(trial);
      const nt = largest(ft);
      if (Number.isFinite(nt.value) && (nt.value < norm.value || nt.value <= tolerance)) {
        x = trial;
        f = ft;
        norm = nt;
        accepted = true;
        break;
      }
    }
    if (!accepted) {
      // No step lowers the residual further: at machine precision if the residual is tiny.
      if (norm.value <= ACCEPTABLE) {
        return { x, iterations: it + 1, residual: norm.value, worst: norm.index, converged: true };
      }
      return {
        x,
        iterations: it + 1,
        residual: norm.value,
        worst: norm.index,
        converged: false,
        failure: 'no_progress',
      };
    }
  }
  const converged = norm.value <= tolerance;
  return {
    x,
    iterations: maxIterations,
    residual: norm.value,
    worst: norm.index,
    converged,
    ...(converged ? {} : { failure: 'max_iterations' as const }),
  };
}
