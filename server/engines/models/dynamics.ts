import type { Mat } from './linalg';
import type { FirstOrderSolution } from './perturbation';
import { diagonalCovariance, irfImpulses, lowerCholesky } from './shocks';

/**
 * Impulse responses and stochastic simulation of a first-order solution
 *   y_t - ys = G (y^s_{t-1} - ys^s) + H u_t,   u_t ~ N(0, Sigma_e).
 * The shocks are given by their covariance matrix Sigma_e, or by their standard deviations
 * when they are independent.
 */

function covarianceOf(shocks: Float64Array | Mat): Mat {
  return shocks instanceof Float64Array ? diagonalCovariance(shocks) : shocks;
}

/**
 * Dynare's convention: the deviation of every variable from its steady state after a
 * one-standard-deviation orthogonalised shock in period 1 (the impulse is a column of the lower
 * Cholesky factor of Sigma_e, see `irfImpulses`), for `periods` periods (irfs[shock][variable]).
 * A shock Dynare leaves out (zero variance) has responses of zero.
 */
export function impulseResponses(
  solution: FirstOrderSolution,
  shocks: Float64Array | Mat,
  periods: number,
): Float64Array[][] {
  const { G, H, states } = solution;
  const n = G.length;
  const impulses = irfImpulses(covarianceOf(shocks));
  return impulses.map((impulse) => {
    const paths = Array.from({ length: n }, () => new Float64Array(periods));
    if (!impulse) return paths;
    let y = Float64Array.from(H, (row) => {
      let v = 0;
      for (let k = 0; k < impulse.length; k++) v += (row[k] as number) * (impulse[k] as number);
      return v;
    });
    for (let t = 0; t < periods; t++) {
      for (let i = 0; i < n; i++) (paths[i] as Float64Array)[t] = y[i] as number;
      const s = states.map((j) => y[j] as number);
      y = Float64Array.from(G, (row) => {
        let v = 0;
        for (let r = 0; r < s.length; r++) v += (row[r] as number) * (s[r] as number);
        return v;
      });
    }
    return paths;
  });
}

/** A small seeded generator (mulberry32) with Box-Muller normals, so runs are reproducible. */
export function normalGenerator(seed: number): () => number {
  let state = seed >>> 0;
  let spare: number | null = null;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296; // in (0, 1)
  };
  return () => {
    if (spare !== null) {
      const v = spare;
      spare = null;
      return v;
    }
    const r = Math.sqrt(-2 * Math.log(uniform()));
    const a = 2 * Math.PI * uniform();
    spare = r * Math.sin(a);
    return r * Math.cos(a);
  };
}

/**
 * Simulates `burnIn + periods` periods from the steady state and returns the last `periods`
 * deviations per variable (Dynare drops the first `drop` periods the same way).
 */
export function simulate(
  solution: FirstOrderSolution,
  shocks: Float64Array | Mat,
  periods: number,
  burnIn: number,
  seed: number,
): Float64Array[] {
  const { G, H, states } = solution;
  const n = G.length;
  // u = L z with L L' = Sigma_e and z standard normal (as Dynare draws correlated shocks)
  const L = lowerCholesky(covarianceOf(shocks));
  if (!L) throw new Error('the shock covariance matrix is not positive semi-definite');
  const m = L.length;
  const draw = normalGenerator(seed);
  const out = Array.from({ length: n }, () => new Float64Array(periods));
  let y = new Float64Array(n);
  const z = new Float64Array(m);
  const u = new Float64Array(m);
  for (let t = 0; t < burnIn + periods; t++) {
    for (let k = 0; k < m; k++) z[k] = draw();
    for (let k = 0; k < m; k++) {
      const row = L[k] as Float64Array;
      let v = 0;
      for (let j = 0; j <= k; j++) v += (row[j] as number) * (z[j] as number);
      u[k] = v;
    }
    const s = states.map((j) => y[j] as number);
    y = Float64Array.from(G, (row, i) => {
      let v = 0;
      for (let r = 0; r < s.length; r++) v += (row[r] as number) * (s[r] as number);
      const h = H[i] as Float64Array;
      for (let k = 0; k < m; k++) v += (h[k] as number) * (u[k] as number);
      return v;
    });
    if (t >= burnIn)
      for (let i = 0; i < n; i++) (out[i] as Float64Array)[t - burnIn] = y[i] as number;
  }
  return out;
}
