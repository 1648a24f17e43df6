/**
 * Small dense linear algebra on rows of Float64Array: what the solvers need beyond the QZ
 * decomposition, kept here so each routine is tested once. Sizes are small (a model has at
 * most 80 variables), so plain O(n^3) loops are the right tool.
 */

export type Mat = Float64Array[];

export function zeros(rows: number, cols: number): Mat {
  return Array.from({ length: rows }, () => new Float64Array(cols));
}

export function identity(n: number): Mat {
  const m = zeros(n, n);
  for (let i = 0; i < n; i++) (m[i] as Float64Array)[i] = 1;
  return m;
}

export function clone(a: Mat): Mat {
  return a.map((row) => Float64Array.from(row));
}

export function cols(a: Mat): number {
  return a[0]?.length ?? 0;
}

export function matMul(a: Mat, b: Mat): Mat {
  const n = a.length;
  const k = b.length;
  const m = cols(b);
  const out = zeros(n, m);
  for (let i = 0; i < n; i++) {
    const ai = a[i] as Float64Array;
    const oi = out[i] as Float64Array;
    for (let p = 0; p < k; p++) {
      const v = ai[p] as number;
      if (v === 0) continue;
      const bp = b[p] as Float64Array;
      for (let j = 0; j < m; j++) oi[j] = (oi[j] as number) + v * (bp[j] as number);
    }
  }
  return out;
}

export function transpose(a: Mat): Mat {
  const out = zeros(cols(a), a.length);
  a.forEach((row, i) => row.forEach((v, j) => ((out[j] as Float64Array)[i] = v)));
  return out;
}

export function addScaled(a: Mat, b: Mat, scale = 1): Mat {
  return a.map((row, i) => row.map((v, j) => v + scale * ((b[i] as Float64Array)[j] as number)));
}

export function maxAbs(a: Mat): number {
  let m = 0;
  for (const row of a) for (const v of row) m = Math.max(m, Math.abs(v));
  return m;
}

export function toArrays(a: Mat): number[][] {
  return a.map((row) => Array.from(row));
}

/** LU factorisation with partial pivoting, in place on a copy. */
export interface LU {
  lu: Mat;
  perm: Int32Array;
  /** Smallest |pivot| relative to the largest entry of the matrix: near 0 means singular. */
  relativePivot: number;
  /** Row at which the smallest pivot occurred (for messages). */
  weakestRow: number;
}

export function luFactor(a: Mat): LU {
  const n = a.length;
  const lu = clone(a);
  const perm = new Int32Array(n).map((_, i) => i);
  const scale = maxAbs(a) || 1;
  let relativePivot = Infinity;
  let weakestRow = 0;
  for (let k = 0; k < n; k++) {
    let p = k;
    let best = Math.abs((lu[k] as Float64Array)[k] as number);
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs((lu[i] as Float64Array)[k] as number);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (best / scale < relativePivot) {
      relativePivot = best / scale;
      weakestRow = k;
    }
    if (p !== k) {
      [lu[k], lu[p]] = [lu[p] as Float64Array, lu[k] as Float64Array];
      [perm[k], perm[p]] = [perm[p] as number, perm[k] as number];
    }
    const rowK = lu[k] as Float64Array;
    const pivot = rowK[k] as number;
    if (pivot === 0) continue;
    for (let i = k + 1; i < n; i++) {
      const rowI = lu[i] as Float64Array;
      const f = (rowI[k] as number) / pivot;
      if (f === 0) continue;
      rowI[k] = f;
      for (let j = k + 1; j < n; j++) rowI[j] = (rowI[j] as number) - f * (rowK[j] as number);
    }
  }
  return { lu, perm, relativePivot: n === 0 ? 1 : relativePivot, weakestRow };
}

/** Solves A X = B for X given A's LU factors. */
export function luSolve({ lu, perm }: LU, b: Mat): Mat {
  const n = lu.length;
  const m = cols(b);
  const x = perm.length ? Array.from(perm, (p) => Float64Array.from(b[p] as Float64Array)) : [];
  for (let c = 0; c < m; c++) {
    for (let i = 0; i < n; i++) {
      const row = lu[i] as Float64Array;
      let s = (x[i] as Float64Array)[c] as number;
      for (let j = 0; j < i; j++) s -= (row[j] as number) * ((x[j] as Float64Array)[c] as number);
      (x[i] as Float64Array)[c] = s;
    }
    for (let i = n - 1; i >= 0; i--) {
      const row = lu[i] as Float64Array;
      let s = (x[i] as Float64Array)[c] as number;
      for (let j = i + 1; j < n; j++)
        s -= (row[j] as number) * ((x[j] as Float64Array)[c] as number);
      (x[i] as Float64Array)[c] = s / (row[i] as number);
    }
  }
  return x;
}

/** Relative pivot below which a matrix is treated as singular. */
export const SINGULAR_PIVOT = 1e-13;

/** Solves A X = B, or returns null when A is (numerically) singular. */
export function solve(a: Mat, b: Mat): Mat | null {
  const f = luFactor(a);
  if (!(f.relativePivot > SINGULAR_PIVOT)) return null;
  return luSolve(f, b);
}

export function vectorSolve(a: Mat, b: Float64Array): Float64Array | null {
  const x = solve(
    a,
    Array.from(b, (v) => Float64Array.of(v)),
  );
  return x ? Float64Array.from(x, (row) => row[0] as number) : null;
}
