import { describeEquation, type CompiledModel } from './compile';
import { ModelError } from './errors';
import { luFactor, luSolve, matMul, SINGULAR_PIVOT, zeros, type LU, type Mat } from './linalg';

/**
 * Deterministic transition paths under perfect foresight, as Dynare's perfect_foresight_solver:
 * the equations of periods 1..T are solved together for y_1..y_T, given y_0 (the initial
 * state) and y_{T+1} (the terminal steady state), by Newton's method. The Jacobian is block
 * tridiagonal, so each Newton step is a block forward elimination and back substitution.
 */

export interface TransitionPath {
  /** paths[i][t]: variable i in period t = 0..T+1 (0: initial, T+1: terminal). */
  paths: Float64Array[];
  iterations: number;
  residual: number;
}

export function solvePerfectForesight(
  model: CompiledModel,
  params: Float64Array,
  initial: Float64Array,
  terminal: Float64Array,
  periods: number,
  { maxIterations = 50, tolerance = 1e-10 } = {},
): TransitionPath {
  const n = model.endo.length;
  const m = model.exo.length;
  const T = periods;
  // y[t] for t = 0..T+1; start from the terminal steady state (Dynare's default guess)
  const y = Array.from({ length: T + 2 }, (_, t) =>
    Float64Array.from(t === 0 ? initial : terminal),
  );
  const values = new Float64Array(3 * n + m + params.length);
  values.set(params, 3 * n + m);
  const load = (t: number): void => {
    values.set(y[t - 1] as Float64Array, 0);
    values.set(y[t] as Float64Array, n);
    values.set(y[t + 1] as Float64Array, 2 * n);
  };
  const residualsAt = (t: number): Float64Array => {
    load(t);
    return Float64Array.from(model.equations, (eq) => eq.residual(values));
  };
  const blocksAt = (t: number): { L: Mat; D: Mat; U: Mat } => {
    load(t);
    const L = zeros(n, n);
    const D = zeros(n, n);
    const U = zeros(n, n);
    model.equations.forEach((eq, i) => {
      for (const d of eq.derivatives) {
        if (d.column >= 3 * n) continue;
        const target = d.column < n ? L : d.column < 2 * n ? D : U;
        (target[i] as Float64Array)[d.column % n] = d.fn(values);
      }
    });
    return { L, D, U };
  };
  const allResiduals = (): { R: Float64Array[]; max: number; worst: [number, number] } => {
    const R: Float64Array[] = [];
    let max = 0;
    let worst: [number, number] = [1, 0];
    for (let t = 1; t <= T; t++) {
      const r = residualsAt(t);
      R.push(r);
      r.forEach((v, i) => {
        const a = Number.isNaN(v) ? Infinity : Math.abs(v);
        if (a > max) {
          max = a;
          worst = [t, i];
        }
      });
    }
    return { R, max, worst };
  };

  let { R, max, worst } = allResiduals();
  const fail = (reason: string): ModelError => {
    const eq = model.equations[worst[1]];
    return new ModelError(
      'perfect_foresight',
      `The perfect-foresight path could not be computed: ${reason} (largest residual ${Number.isFinite(max) ? max.toExponential(2) : 'not a number'} in ${eq ? describeEquation(worst[1], eq.label) : 'an equation'}, period ${worst[0]})`,
    );
  };
  if (!Number.isFinite(max))
    throw fail('the equations cannot be evaluated along the initial guess');

  for (let it = 0; it < maxIterations; it++) {
    if (max <= tolerance) return { paths: transposePaths(y, n), iterations: it, residual: max };
    // Block forward elimination: D'_t = D_t - L_t D'^{-1}_{t-1} U_{t-1}; r'_t likewise.
    const factors: LU[] = [];
    const Us: Mat[] = [];
    const rs: Mat[] = [];
    for (let t = 1; t <= T; t++) {
      const { L, D, U } = blocksAt(t);
      let Dt = D;
      let rt: Mat = Array.from(R[t - 1] as Float64Array, (v) => Float64Array.of(v));
      if (t > 1) {
        const prev = factors[t - 2] as LU;
        const X = luSolve(prev, Us[t - 2] as Mat); // D'^{-1}_{t-1} U_{t-1}
        const xr = luSolve(prev, rs[t - 2] as Mat);
        const LX = matMul(L, X);
        const Lr = matMul(L, xr);
        Dt = D.map((row, i) => row.map((v, j) => v - ((LX[i] as Float64Array)[j] as number)));
        rt = rt.map((row, i) =>
          Float64Array.of((row[0] as number) - ((Lr[i] as Float64Array)[0] as number)),
        );
      }
      const f = luFactor(Dt);
      if (!(f.relativePivot > SINGULAR_PIVOT)) {
        throw fail(`the stacked Jacobian is singular at period ${t}`);
      }
      factors.push(f);
      Us.push(U);
      rs.push(rt);
    }
    // Back substitution: delta_t = D'^{-1}_t (r'_t - U_t delta_{t+1}).
    const delta: Float64Array[] = new Array(T + 2);
    delta[T + 1] = new Float64Array(n);
    for (let t = T; t >= 1; t--) {
      const next = delta[t + 1] as Float64Array;
      const U = Us[t - 1] as Mat;
      const rhs = (rs[t - 1] as Mat).map((row, i) => {
        let v = row[0] as number;
        if (t < T)
          for (let j = 0; j < n; j++)
            v -= ((U[i] as Float64Array)[j] as number) * (next[j] as number);
        return Float64Array.of(v);
      });
      delta[t] = Float64Array.from(luSolve(factors[t - 1] as LU, rhs), (row) => row[0] as number);
    }
    // Damped update: halve the step until the largest residual falls.
    const saved = y.map((row) => Float64Array.from(row));
    let accepted = false;
    for (let step = 1, k = 0; k < 20; k++, step /= 2) {
      for (let t = 1; t <= T; t++) {
        const d = delta[t] as Float64Array;
        (y[t] as Float64Array).set(
          (saved[t] as Float64Array).map((v, i) => v - step * (d[i] as number)),
        );
      }
      const trial = allResiduals();
      if (Number.isFinite(trial.max) && (trial.max < max || trial.max <= tolerance)) {
        ({ R, max, worst } = trial);
        accepted = true;
        break;
      }
    }
    if (!accepted) {
      for (let t = 1; t <= T; t++) (y[t] as Float64Array).set(saved[t] as Float64Array);
      if (max <= 1e-8) return { paths: transposePaths(y, n), iterations: it + 1, residual: max };
      throw fail(`Newton's method made no progress after ${it + 1} iterations`);
    }
  }
  if (max <= tolerance)
    return { paths: transposePaths(y, n), iterations: maxIterations, residual: max };
  throw fail(`Newton's method did not converge in ${maxIterations} iterations`);
}

function transposePaths(y: Float64Array[], n: number): Float64Array[] {
  return Array.from({ length: n }, (_, i) => Float64Array.from(y, (row) => row[i] as number));
}
