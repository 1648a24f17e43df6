import { identity, type Mat } from './linalg';
import { QZ_CRITERIUM } from './perturbation';
import { qz, reorder } from './qz';

/**
 * Unit roots of the states' law of motion s_t = A s_{t-1} + C u_t, found as Dynare's
 * lyapunov_symm finds them: eigenvalues with modulus above 2 - qz_criterium (1 - 1e-6) are
 * unit roots, and the Schur vectors that belong to them span the non-stationary directions.
 * A variable y = g's is non-stationary when g loads on that span (|g u| >= schur_vec_tol for a
 * basis vector u, Dynare's test); the others have theoretical moments, computed on the
 * orthogonal complement, where the dynamics are stable.
 */

/** Dynare's options_.schur_vec_tol. */
export const SCHUR_VEC_TOL = 1e-11;
const UNIT_ROOT_MODULUS = 2 - QZ_CRITERIUM;

export interface StateSplit {
  /** Orthonormal real basis (ns x k) of the unit-root invariant subspace; k = 0 if none. */
  unit: Mat;
  /** Orthonormal real basis (ns x (ns - k)) of its orthogonal complement. */
  stable: Mat;
  /** Number of unit roots. */
  k: number;
}

/** Modified Gram-Schmidt: appends to `basis` the part of `v` orthogonal to it, if not negligible. */
function extend(basis: Float64Array[], v: Float64Array, threshold: number): void {
  const w = Float64Array.from(v);
  for (let pass = 0; pass < 2; pass++) {
    for (const b of basis) {
      let dot = 0;
      for (let i = 0; i < w.length; i++) dot += (b[i] as number) * (w[i] as number);
      for (let i = 0; i < w.length; i++) w[i] = (w[i] as number) - dot * (b[i] as number);
    }
  }
  const norm = Math.hypot(...w);
  if (norm > threshold) basis.push(w.map((x) => x / norm));
}

/** Columns as rows of an ns x count matrix. */
function asColumns(vectors: Float64Array[], ns: number): Mat {
  return Array.from({ length: ns }, (_, i) => Float64Array.from(vectors, (v) => v[i] as number));
}

export function splitUnitRoots(A: Mat): StateSplit {
  const ns = A.length;
  const decomposition = qz(A, identity(ns));
  const k = reorder(
    decomposition,
    ({ ar, ai, br, bi }) => Math.hypot(ar, ai) > UNIT_ROOT_MODULUS * Math.hypot(br, bi),
  );
  if (k === 0) return { unit: asColumns([], ns), stable: identity(ns), k: 0 };
  // With B = I the leading k columns of Z span the unit-root invariant subspace (complex);
  // conjugate pairs are selected together, so the real and imaginary parts span it in R^ns.
  const { re, im } = decomposition.Z;
  const unit: Float64Array[] = [];
  for (let j = 0; j < k; j++) {
    extend(
      unit,
      Float64Array.from(re, (row) => row[j] as number),
      1e-8,
    );
    extend(
      unit,
      Float64Array.from(im, (row) => row[j] as number),
      1e-8,
    );
  }
  const stable: Float64Array[] = [];
  const all = [...unit];
  for (let i = 0; i < ns && all.length < ns; i++) {
    const e = new Float64Array(ns);
    e[i] = 1;
    const before = all.length;
    extend(all, e, 1e-6);
    if (all.length > before) stable.push(all[all.length - 1] as Float64Array);
  }
  return { unit: asColumns(unit, ns), stable: asColumns(stable, ns), k: unit.length };
}

/** Rows of G (y = G s) that load on the unit-root directions: the non-stationary variables. */
export function nonStationaryRows(G: Mat, unit: Mat): number[] {
  const k = unit[0]?.length ?? 0;
  if (k === 0) return [];
  const rows: number[] = [];
  G.forEach((g, i) => {
    for (let c = 0; c < k; c++) {
      let x = 0;
      for (let r = 0; r < g.length; r++)
        x += (g[r] as number) * ((unit[r] as Float64Array)[c] as number);
      if (Math.abs(x) >= SCHUR_VEC_TOL) {
        rows.push(i);
        return;
      }
    }
  });
  return rows;
}
