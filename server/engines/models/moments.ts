import { addScaled, matMul, maxAbs, transpose, zeros, type Mat } from './linalg';
import type { FirstOrderSolution } from './perturbation';
import { diagonalCovariance } from './shocks';
import { nonStationaryRows, splitUnitRoots } from './unit-roots';

/**
 * Moments of the first-order solution, in Dynare's sense: theoretical moments (exact, from the
 * state-space form) and sample moments of a simulated path (divided by T, as Dynare does).
 * HP-filtered theoretical moments (lambda 1600) are computed in the frequency domain, as
 * Dynare does with `hp_filter`.
 */

export const AUTOCORR_LAGS = 5;
export const HP_LAMBDA = 1600;
const HP_GRID = 1024;

export interface MomentSet {
  /** Null (in theoretical moments) for a variable with a unit root, as are its other moments. */
  mean: (number | null)[];
  variance: (number | null)[][];
  std: (number | null)[];
  /** autocorr[k][i]: corr(y_i,t, y_i,t-k-1); null for a variable with no variance. */
  autocorr: (number | null)[][];
  correlation: (number | null)[][];
}

/** Theoretical moments and the variables without them (unit roots), by index. */
export interface TheoreticalMoments extends MomentSet {
  nonStationary: number[];
}

/** Variance below which a variable counts as constant (its correlations are undefined). */
const ZERO_VARIANCE = 1e-20;

function momentSet(
  mean: number[],
  variance: Mat,
  autocov: Float64Array[],
  undefinedFor: ReadonlySet<number> = new Set(),
): MomentSet {
  const n = variance.length;
  const defined = (i: number): boolean => !undefinedFor.has(i);
  const v = Array.from({ length: n }, (_, i) => (variance[i] as Float64Array)[i] as number);
  const std = v.map((x) => Math.sqrt(Math.max(x, 0)));
  const varies = (i: number): boolean => defined(i) && (v[i] as number) > ZERO_VARIANCE;
  return {
    mean: mean.map((x, i) => (defined(i) ? x : null)),
    variance: variance.map((row, i) =>
      Array.from(row, (c, j) => (defined(i) && defined(j) ? c : null)),
    ),
    std: std.map((x, i) => (defined(i) ? x : null)),
    autocorr: autocov.map((row) =>
      Array.from(row, (c, i) => (varies(i) ? c / (v[i] as number) : null)),
    ),
    correlation: variance.map((row, i) =>
      Array.from(row, (c, j) =>
        varies(i) && varies(j) ? c / ((std[i] as number) * (std[j] as number)) : null,
      ),
    ),
  };
}

/** The states' own law of motion s_t = A s_{t-1} + C u_t (rows of G and H for the states). */
function stateSystem(solution: FirstOrderSolution): { A: Mat; C: Mat } {
  return {
    A: solution.states.map((j) => Float64Array.from(solution.G[j] as Float64Array)),
    C: solution.states.map((j) => Float64Array.from(solution.H[j] as Float64Array)),
  };
}

function covarianceOf(shocks: Float64Array | Mat): Mat {
  return shocks instanceof Float64Array ? diagonalCovariance(shocks) : shocks;
}

/** Solves X = A X A' + Q by doubling; null when A is not stable (no stationary variance). */
export function discreteLyapunov(A: Mat, Q: Mat): Mat | null {
  let X: Mat = Q.map((row) => Float64Array.from(row));
  let Ak: Mat = A.map((row) => Float64Array.from(row));
  for (let it = 0; it < 100; it++) {
    const step = matMul(matMul(Ak, X), transpose(Ak));
    X = addScaled(X, step);
    const size = maxAbs(step);
    if (!Number.isFinite(size) || maxAbs(X) > 1e100) return null;
    if (size <= 1e-17 * Math.max(maxAbs(X), 1e-300)) return X;
    Ak = matMul(Ak, Ak);
  }
  return null;
}

/**
 * Theoretical moments of the unfiltered variables, as Dynare's th_autocovariances computes
 * them: the variance of the states solves a Lyapunov equation on the stable part of their
 * dynamics; variables that load on a unit root have no moments (null, listed in
 * `nonStationary`). Null only when the stable part has no stationary variance (cannot happen
 * for a solution that passed the Blanchard-Kahn check).
 */
export function theoreticalMoments(
  solution: FirstOrderSolution,
  shocks: Float64Array | Mat,
  steadyState: Float64Array,
  lags = AUTOCORR_LAGS,
): TheoreticalMoments | null {
  const { G, H } = solution;
  const { A, C } = stateSystem(solution);
  const omega = covarianceOf(shocks);
  const ns = A.length;
  let variance: Mat;
  let P: Mat; // Cov(s_t, y_t)
  let nonStationary: number[] = [];
  if (ns > 0) {
    const COC = matMul(matMul(C, omega), transpose(C));
    let Sigma: Mat | null;
    const split = splitUnitRoots(A);
    if (split.k === 0) {
      Sigma = discreteLyapunov(A, COC);
    } else {
      // Project on the stable complement W: b = W's follows b_t = (W'AW) b_{t-1} + W'C u_t.
      const W = split.stable;
      const Wt = transpose(W);
      const X = discreteLyapunov(matMul(matMul(Wt, A), W), matMul(matMul(Wt, COC), W));
      Sigma = X && matMul(matMul(W, X), Wt);
      nonStationary = nonStationaryRows(G, split.unit);
    }
    if (!Sigma) return null;
    const HOH = matMul(matMul(H, omega), transpose(H));
    variance = addScaled(matMul(matMul(G, Sigma), transpose(G)), HOH);
    P = addScaled(matMul(matMul(A, Sigma), transpose(G)), matMul(matMul(C, omega), transpose(H)));
  } else {
    variance = matMul(matMul(H, omega), transpose(H));
    P = [];
  }
  // Cov(y_t, y_{t-k}) = G A^{k-1} P for k >= 1
  const autocov: Float64Array[] = [];
  let GA: Mat = G.map((row) => Float64Array.from(row));
  for (let k = 1; k <= lags; k++) {
    const cov = ns > 0 ? matMul(GA, P) : zeros(G.length, G.length);
    autocov.push(Float64Array.from(cov, (row, i) => row[i] as number));
    if (ns > 0) GA = matMul(GA, A);
  }
  return {
    ...momentSet(Array.from(steadyState), variance, autocov, new Set(nonStationary)),
    nonStationary,
  };
}

/**
 * Theoretical moments of HP-filtered variables: the autocovariances are the inverse Fourier
 * transform of the spectral density times the squared gain of the HP cycle filter.
 */
export function hpFilteredMoments(
  solution: FirstOrderSolution,
  shocks: Float64Array | Mat,
  steadyState: Float64Array,
  lags = AUTOCORR_LAGS,
  lambda = HP_LAMBDA,
): MomentSet {
  const { G, H } = solution;
  const { A, C } = stateSystem(solution);
  const omega = covarianceOf(shocks);
  const n = G.length;
  const m = omega.length;
  const ns = A.length;
  const psiOR = zeros(n, m); // Psi Omega
  const psiOI = zeros(n, m);
  const acc = Array.from({ length: lags + 1 }, () => zeros(n, n));
  const psiR = zeros(n, m);
  const psiI = zeros(n, m);
  for (let j = 1; j < HP_GRID; j++) {
    const w = (2 * Math.PI * j) / HP_GRID;
    const x = 4 * lambda * (1 - Math.cos(w)) ** 2;
    const gain = x / (1 + x);
    // Psi = G e^{-iw} (I - A e^{-iw})^{-1} C + H
    const cw = Math.cos(w);
    const sw = -Math.sin(w);
    let XR: Mat = zeros(ns, m);
    let XI: Mat = zeros(ns, m);
    if (ns > 0) [XR, XI] = complexSolve(A, cw, sw, C);
    for (let i = 0; i < n; i++) {
      const g = G[i] as Float64Array;
      for (let k = 0; k < m; k++) {
        let ar = 0;
        let ai = 0;
        for (let r = 0; r < ns; r++) {
          ar += (g[r] as number) * ((XR[r] as Float64Array)[k] as number);
          ai += (g[r] as number) * ((XI[r] as Float64Array)[k] as number);
        }
        // times e^{-iw}
        (psiR[i] as Float64Array)[k] = ar * cw - ai * sw + ((H[i] as Float64Array)[k] as number);
        (psiI[i] as Float64Array)[k] = ar * sw + ai * cw;
      }
    }
    const weight = (gain * gain) / HP_GRID;
    for (let a = 0; a < n; a++) {
      for (let l = 0; l < m; l++) {
        let r = 0;
        let c = 0;
        for (let k = 0; k < m; k++) {
          const o = (omega[k] as Float64Array)[l] as number;
          r += ((psiR[a] as Float64Array)[k] as number) * o;
          c += ((psiI[a] as Float64Array)[k] as number) * o;
        }
        (psiOR[a] as Float64Array)[l] = r;
        (psiOI[a] as Float64Array)[l] = c;
      }
    }
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        // (Psi Omega Psi^H)_{ab}
        let sr = 0;
        let si = 0;
        for (let k = 0; k < m; k++) {
          const pr = (psiOR[a] as Float64Array)[k] as number;
          const pi = (psiOI[a] as Float64Array)[k] as number;
          const qr = (psiR[b] as Float64Array)[k] as number;
          const qi = -((psiI[b] as Float64Array)[k] as number);
          sr += pr * qr - pi * qi;
          si += pr * qi + pi * qr;
        }
        for (let lag = 0; lag <= lags; lag++) {
          // real part of f e^{i w lag}
          const row = acc[lag] as Mat;
          (row[a] as Float64Array)[b] =
            ((row[a] as Float64Array)[b] as number) +
            weight * (sr * Math.cos(w * lag) - si * Math.sin(w * lag));
        }
      }
    }
  }
  const variance = acc[0] as Mat;
  const autocov = acc.slice(1).map((M) => Float64Array.from(M, (row, i) => row[i] as number));
  return momentSet(Array.from(steadyState), variance, autocov);
}

/** Solves (I - A z) X = C for complex z = cw + i sw, as a real system of twice the size. */
function complexSolve(A: Mat, cw: number, sw: number, C: Mat): [Mat, Mat] {
  const ns = A.length;
  const m = C[0]?.length ?? 0;
  const M = zeros(2 * ns, 2 * ns);
  for (let i = 0; i < ns; i++) {
    for (let j = 0; j < ns; j++) {
      const a = (A[i] as Float64Array)[j] as number;
      const mr = (i === j ? 1 : 0) - a * cw;
      const mi = -a * sw;
      (M[i] as Float64Array)[j] = mr;
      (M[i] as Float64Array)[ns + j] = -mi;
      (M[ns + i] as Float64Array)[j] = mi;
      (M[ns + i] as Float64Array)[ns + j] = mr;
    }
  }
  const rhs = zeros(2 * ns, m);
  for (let i = 0; i < ns; i++) (rhs[i] as Float64Array).set(C[i] as Float64Array);
  // Gaussian elimination with partial pivoting (small systems)
  const n2 = 2 * ns;
  for (let k = 0; k < n2; k++) {
    let p = k;
    for (let i = k + 1; i < n2; i++) {
      if (
        Math.abs((M[i] as Float64Array)[k] as number) >
        Math.abs((M[p] as Float64Array)[k] as number)
      )
        p = i;
    }
    [M[k], M[p]] = [M[p] as Float64Array, M[k] as Float64Array];
    [rhs[k], rhs[p]] = [rhs[p] as Float64Array, rhs[k] as Float64Array];
    const piv = (M[k] as Float64Array)[k] as number;
    for (let i = k + 1; i < n2; i++) {
      const f = ((M[i] as Float64Array)[k] as number) / piv;
      if (f === 0) continue;
      for (let j = k; j < n2; j++)
        (M[i] as Float64Array)[j] =
          ((M[i] as Float64Array)[j] as number) - f * ((M[k] as Float64Array)[j] as number);
      for (let j = 0; j < m; j++)
        (rhs[i] as Float64Array)[j] =
          ((rhs[i] as Float64Array)[j] as number) - f * ((rhs[k] as Float64Array)[j] as number);
    }
  }
  for (let i = n2 - 1; i >= 0; i--) {
    for (let j = 0; j < m; j++) {
      let s = (rhs[i] as Float64Array)[j] as number;
      for (let c = i + 1; c < n2; c++)
        s -= ((M[i] as Float64Array)[c] as number) * ((rhs[c] as Float64Array)[j] as number);
      (rhs[i] as Float64Array)[j] = s / ((M[i] as Float64Array)[i] as number);
    }
  }
  return [rhs.slice(0, ns), rhs.slice(ns)];
}

/** The cyclical component of the Hodrick-Prescott filter (banded Cholesky of I + lambda K'K). */
export function hpCycle(y: Float64Array, lambda = HP_LAMBDA): Float64Array {
  const T = y.length;
  if (T < 3) return new Float64Array(T);
  const d0 = new Float64Array(T);
  const d1 = new Float64Array(T); // M[i][i-1]
  const d2 = new Float64Array(T); // M[i][i-2]
  for (let i = 0; i < T; i++) {
    const k = i === 0 || i === T - 1 ? 1 : i === 1 || i === T - 2 ? 5 : 6;
    d0[i] = 1 + lambda * k;
    if (i >= 1) d1[i] = lambda * (i === 1 || i === T - 1 ? -2 : -4);
    if (i >= 2) d2[i] = lambda;
  }
  const l0 = new Float64Array(T);
  const l1 = new Float64Array(T);
  const l2 = new Float64Array(T);
  for (let i = 0; i < T; i++) {
    l2[i] = i >= 2 ? (d2[i] as number) / (l0[i - 2] as number) : 0;
    l1[i] =
      i >= 1
        ? ((d1[i] as number) - (l2[i] as number) * (l1[i - 1] as number)) / (l0[i - 1] as number)
        : 0;
    l0[i] = Math.sqrt((d0[i] as number) - (l1[i] as number) ** 2 - (l2[i] as number) ** 2);
  }
  const z = new Float64Array(T);
  for (let i = 0; i < T; i++) {
    const prev1 = i >= 1 ? (l1[i] as number) * (z[i - 1] as number) : 0;
    const prev2 = i >= 2 ? (l2[i] as number) * (z[i - 2] as number) : 0;
    z[i] = ((y[i] as number) - prev1 - prev2) / (l0[i] as number);
  }
  const trend = new Float64Array(T);
  for (let i = T - 1; i >= 0; i--) {
    const next1 = i + 1 < T ? (l1[i + 1] as number) * (trend[i + 1] as number) : 0;
    const next2 = i + 2 < T ? (l2[i + 2] as number) * (trend[i + 2] as number) : 0;
    trend[i] = ((z[i] as number) - next1 - next2) / (l0[i] as number);
  }
  return y.map((v, i) => v - (trend[i] as number));
}

/** Sample moments of simulated deviations (means are reported as steady state + sample mean). */
export function sampleMoments(
  series: Float64Array[],
  steadyState: Float64Array,
  lags = AUTOCORR_LAGS,
): MomentSet {
  const n = series.length;
  const T = series[0]?.length ?? 0;
  const means = series.map((s) => s.reduce((a, b) => a + b, 0) / Math.max(T, 1));
  const centred = series.map((s, i) => s.map((v) => v - (means[i] as number)));
  const variance = zeros(n, n);
  for (let a = 0; a < n; a++) {
    for (let b = a; b < n; b++) {
      let s = 0;
      const x = centred[a] as Float64Array;
      const y = centred[b] as Float64Array;
      for (let t = 0; t < T; t++) s += (x[t] as number) * (y[t] as number);
      (variance[a] as Float64Array)[b] = s / T;
      (variance[b] as Float64Array)[a] = s / T;
    }
  }
  const autocov = Array.from({ length: lags }, (_, k) =>
    Float64Array.from(centred, (x) => {
      let s = 0;
      for (let t = k + 1; t < T; t++) s += (x[t] as number) * (x[t - k - 1] as number);
      return s / T;
    }),
  );
  return momentSet(
    means.map((v, i) => v + (steadyState[i] as number)),
    variance,
    autocov,
  );
}
