import type { CompiledModel } from './compile';
import { ModelError } from './errors';
import { luFactor, luSolve, matMul, maxAbs, SINGULAR_PIVOT, zeros, type Mat } from './linalg';
import { eigenPair, qz, QZConvergenceError, reorder } from './qz';
import { linearise, type Linearisation } from './steady';

/**
 * First-order perturbation (Klein 2000) of f(y(-1), y, y(+1), u) = 0 around the steady state:
 *
 *     Am y(-1) + A0 y + Ap E y(+1) + B u = 0   (deviations from the steady state)
 *
 * With s_t = y_{t-1} restricted to the variables that appear lagged (the states), the pencil
 *
 *     [ 0  Ap ] [s_{t+1}]   [ -Am_s  -A0 ] [s_t]
 *     [ I  0  ] [E y_{t+1}] = [  0      S ] [y_t]
 *
 * is put in ordered generalised Schur form with the stable eigenvalues first. A unique stable
 * solution needs exactly as many stable eigenvalues as states (Blanchard and Kahn 1980). The
 * decision rule y_t = G s_t + H u_t then follows from the stable deflating subspace, and is
 * refined by solving (A0 + Ap G S) [G H] = -[Am_s B] once more, as Dynare does.
 *
 * Eigenvalues with modulus below 1 + 1e-6 count as stable (Dynare's qz_criterium).
 */

export const QZ_CRITERIUM = 1 + 1e-6;

export interface Eigenvalue {
  re: number;
  im: number;
  /** Infinity for an infinite eigenvalue. */
  modulus: number;
}

export interface BlanchardKahn {
  satisfied: boolean;
  /** Eigenvalues larger than 1 in modulus, infinite ones included (Dynare's count). */
  explosiveRoots: number;
  /** Variables that appear with a lead. */
  forwardLooking: number;
  message: string;
}

export interface FirstOrderSolution {
  /** Indices of the state variables (those appearing with a lag). */
  states: number[];
  /** n x nStates: response of y_t to the states' deviations at t-1. */
  G: Mat;
  /** n x m: response of y_t to the shocks at t. */
  H: Mat;
  eigenvalues: Eigenvalue[];
  bk: BlanchardKahn;
  linearisation: Linearisation;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function solveFirstOrder(
  model: CompiledModel,
  ys: Float64Array,
  params: Float64Array,
): FirstOrderSolution {
  const n = model.endo.length;
  const states = model.lagged;
  const ns = states.length;
  const lin = linearise(model, ys, params);
  const { Am, A0, Ap } = lin;
  const N = ns + n;

  // Pencil E z_{t+1} = F z_t with z = [s; y]; rows: the n model equations, then s_{t+1} = S y_t.
  const E = zeros(N, N);
  const F = zeros(N, N);
  for (let i = 0; i < n; i++) {
    const e = E[i] as Float64Array;
    const f = F[i] as Float64Array;
    for (let j = 0; j < n; j++) {
      e[ns + j] = (Ap[i] as Float64Array)[j] as number;
      f[ns + j] = -((A0[i] as Float64Array)[j] as number);
    }
    states.forEach((s, r) => (f[r] = -((Am[i] as Float64Array)[s] as number)));
  }
  states.forEach((s, r) => {
    (E[n + r] as Float64Array)[r] = 1;
    (F[n + r] as Float64Array)[ns + s] = 1;
  });

  let decomposition;
  try {
    decomposition = qz(F, E);
  } catch (err) {
    if (err instanceof QZConvergenceError) {
      throw new ModelError(
        'singular',
        `The linearised model could not be decomposed: ${err.message}`,
      );
    }
    throw err;
  }
  const normF = maxAbs(F) || 1;
  const normE = maxAbs(E) || 1;
  const eigenvalues: Eigenvalue[] = [];
  for (let j = 0; j < N; j++) {
    const { ar, ai, br, bi } = eigenPair(decomposition, j);
    const a = Math.hypot(ar, ai);
    const b = Math.hypot(br, bi);
    if (a <= 1e-11 * normF && b <= 1e-11 * normE) {
      throw new ModelError(
        'singular',
        'The linearised model is singular: its equations do not determine all variables (a 0/0 generalised eigenvalue). Check for dependent equations or a variable that enters no equation at date t.',
      );
    }
    if (b <= 1e-13 * normE) {
      eigenvalues.push({ re: Infinity, im: 0, modulus: Infinity });
    } else {
      const d = br * br + bi * bi;
      const re = (ar * br + ai * bi) / d;
      const im = (ai * br - ar * bi) / d;
      eigenvalues.push({ re, im, modulus: Math.hypot(re, im) });
    }
  }
  eigenvalues.sort((x, y) => x.modulus - y.modulus);

  const stable = reorder(
    decomposition,
    ({ ar, ai, br, bi }) => Math.hypot(ar, ai) < QZ_CRITERIUM * Math.hypot(br, bi),
  );
  // Counted as Dynare counts them: eigenvalues larger than 1 in modulus (infinite ones
  // included) against variables that appear with a lead. Our pencil carries one extra infinite
  // eigenvalue for each variable without a lead, so those n - forward are subtracted; the
  // condition (stable roots = states) is the same either way.
  const forwardLooking = model.leads.length;
  const explosiveRoots = Math.max(0, N - stable - (n - forwardLooking));
  const bk: BlanchardKahn = {
    satisfied: stable === ns,
    explosiveRoots,
    forwardLooking,
    message: '',
  };
  const counts = `there ${explosiveRoots === 1 ? 'is' : 'are'} ${plural(explosiveRoots, 'eigenvalue', 'eigenvalues')} larger than 1 in modulus for ${plural(forwardLooking, 'forward-looking variable', 'forward-looking variables')}`;
  if (stable === ns) {
    bk.message = `Blanchard-Kahn conditions are satisfied: ${counts}.`;
  } else if (stable < ns) {
    bk.message = `Blanchard-Kahn conditions are not satisfied: ${counts}, so the model has no stable solution (it is explosive). Check the signs and timing of the equations and the parameter values (for example the Taylor principle).`;
  } else {
    bk.message = `Blanchard-Kahn conditions are not satisfied: ${counts}, so the model has infinitely many stable solutions (indeterminacy). Check the signs and timing of the equations and the parameter values (for example the Taylor principle).`;
  }
  if (!bk.satisfied) {
    throw Object.assign(new ModelError('blanchard_kahn', bk.message), { bk, eigenvalues });
  }

  // Stable block: G_s = Z21 Z11^{-1} (complex in general, real in exact arithmetic).
  let Gs = zeros(n, ns);
  if (ns > 0) {
    const { re: Zr, im: Zi } = decomposition.Z;
    // Solve X Z11 = Z21  <=>  Z11^T X^T = Z21^T, as a real system of twice the size.
    const M = zeros(2 * ns, 2 * ns);
    for (let i = 0; i < ns; i++) {
      for (let j = 0; j < ns; j++) {
        const a = (Zr[j] as Float64Array)[i] as number; // (Z11^T)_{ij} = Z11_{ji}
        const b = (Zi[j] as Float64Array)[i] as number;
        (M[i] as Float64Array)[j] = a;
        (M[i] as Float64Array)[ns + j] = -b;
        (M[ns + i] as Float64Array)[j] = b;
        (M[ns + i] as Float64Array)[ns + j] = a;
      }
    }
    const rhs = zeros(2 * ns, n);
    for (let i = 0; i < ns; i++) {
      for (let j = 0; j < n; j++) {
        (rhs[i] as Float64Array)[j] = (Zr[ns + j] as Float64Array)[i] as number;
        (rhs[ns + i] as Float64Array)[j] = (Zi[ns + j] as Float64Array)[i] as number;
      }
    }
    const lu = luFactor(M);
    if (!(lu.relativePivot > 1e-10)) {
      throw new ModelError(
        'singular',
        'The rank condition fails: the stable dynamics do not pin down the state variables (Z11 is singular), so the model has no unique first-order solution',
      );
    }
    const X = luSolve(lu, rhs);
    Gs = zeros(n, ns);
    for (let i = 0; i < n; i++)
      for (let r = 0; r < ns; r++) (Gs[i] as Float64Array)[r] = (X[r] as Float64Array)[i] as number;
  }

  // Refinement: (A0 + Ap G_s S) [G H] = -[Am_s B].
  const ApG = matMul(Ap, Gs);
  const M0 = A0.map((row) => Float64Array.from(row));
  for (let i = 0; i < n; i++) {
    states.forEach((s, r) => {
      (M0[i] as Float64Array)[s] =
        ((M0[i] as Float64Array)[s] as number) + ((ApG[i] as Float64Array)[r] as number);
    });
  }
  const lu0 = luFactor(M0);
  if (!(lu0.relativePivot > SINGULAR_PIVOT)) {
    throw new ModelError(
      'singular',
      'The first-order solution cannot be formed: A0 + Ap G is singular (the contemporaneous equations do not determine all variables)',
    );
  }
  const m = model.exo.length;
  const rhs = zeros(n, ns + m);
  for (let i = 0; i < n; i++) {
    const row = rhs[i] as Float64Array;
    states.forEach((s, r) => (row[r] = -((Am[i] as Float64Array)[s] as number)));
    for (let k = 0; k < m; k++) row[ns + k] = -((lin.B[i] as Float64Array)[k] as number);
  }
  const GH = luSolve(lu0, rhs);
  const G = GH.map((row) => row.slice(0, ns));
  const H = GH.map((row) => row.slice(ns));
  return { states, G, H, eigenvalues, bk, linearisation: lin };
}
