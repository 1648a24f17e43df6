import { zeros, type Mat } from './linalg';

/**
 * Complex generalised Schur (QZ) decomposition of a real pencil (A, B):
 *
 *     Q^H A Z = S,   Q^H B Z = T,   S and T upper triangular, Q and Z unitary,
 *
 * so the generalised eigenvalues are S_jj / T_jj (infinite where T_jj = 0), and reordering of
 * the diagonal so that selected eigenvalues come first (their deflating subspace is then the
 * span of Z's first columns). This is what Klein (2000) needs; Dynare gets the same from
 * LAPACK's dgges.
 *
 * The algorithm is the textbook one (Moler and Stewart 1973; Golub and Van Loan, "Matrix
 * Computations", 4th ed., section 7.7), in the single-shift complex form that LAPACK's zhgeqz
 * uses: Householder QR of B, Givens reduction to Hessenberg-triangular form, implicit shifted QZ
 * sweeps with deflation, zeros on T's diagonal (infinite eigenvalues) chased to the bottom, and
 * adjacent swaps of 1x1 blocks (as in ztgex2) for the ordering.
 */

export interface ComplexMat {
  re: Mat;
  im: Mat;
}

export interface QZResult {
  n: number;
  S: ComplexMat;
  T: ComplexMat;
  Q: ComplexMat;
  Z: ComplexMat;
}

const ULP = Number.EPSILON;
const SAFMIN = 2.2250738585072014e-308;

function cmat(n: number): ComplexMat {
  return { re: zeros(n, n), im: zeros(n, n) };
}

function cidentity(n: number): ComplexMat {
  const m = cmat(n);
  for (let i = 0; i < n; i++) (m.re[i] as Float64Array)[i] = 1;
  return m;
}

const re = (m: ComplexMat, i: number, j: number): number => (m.re[i] as Float64Array)[j] as number;
const im = (m: ComplexMat, i: number, j: number): number => (m.im[i] as Float64Array)[j] as number;

/**
 * The upper triangle of the 2x2 block at (k, k) as real and imaginary parts:
 * [m11r, m11i, m12r, m12i, m22r, m22i]. Shifts and swaps read this block of S and T.
 */
function upperBlock(m: ComplexMat, k: number): [number, number, number, number, number, number] {
  const l = k + 1;
  return [re(m, k, k), im(m, k, k), re(m, k, l), im(m, k, l), re(m, l, l), im(m, l, l)];
}
function set(m: ComplexMat, i: number, j: number, r: number, c: number): void {
  (m.re[i] as Float64Array)[j] = r;
  (m.im[i] as Float64Array)[j] = c;
}
const abs1 = (m: ComplexMat, i: number, j: number): number => Math.hypot(re(m, i, j), im(m, i, j));

/** Plane rotation [c s; -conj(s) c] with c real: [c s; -conj(s) c] [f; g] = [r; 0]. */
interface Rotation {
  c: number;
  sr: number;
  si: number;
  rr: number;
  ri: number;
}

export function lartg(fr: number, fi: number, gr: number, gi: number): Rotation {
  const gAbs = Math.hypot(gr, gi);
  if (gAbs === 0) return { c: 1, sr: 0, si: 0, rr: fr, ri: fi };
  const fAbs = Math.hypot(fr, fi);
  if (fAbs === 0) return { c: 0, sr: gr / gAbs, si: -gi / gAbs, rr: gAbs, ri: 0 };
  const norm = Math.hypot(fAbs, gAbs);
  const ur = fr / fAbs; // f / |f|
  const ui = fi / fAbs;
  // s = (f/|f|) conj(g) / norm
  const sr = (ur * gr + ui * gi) / norm;
  const si = (ui * gr - ur * gi) / norm;
  return { c: fAbs / norm, sr, si, rr: ur * norm, ri: ui * norm };
}

/** Rows i, j (columns from..to): row_i <- c row_i + s row_j; row_j <- -conj(s) row_i + c row_j. */
function rotRows(m: ComplexMat, i: number, j: number, g: Rotation, from: number, to: number): void {
  const ri = m.re[i] as Float64Array;
  const ii = m.im[i] as Float64Array;
  const rj = m.re[j] as Float64Array;
  const ij = m.im[j] as Float64Array;
  const { c, sr, si } = g;
  for (let k = from; k <= to; k++) {
    const ar = ri[k] as number;
    const ai = ii[k] as number;
    const br = rj[k] as number;
    const bi = ij[k] as number;
    ri[k] = c * ar + (sr * br - si * bi);
    ii[k] = c * ai + (sr * bi + si * br);
    // -conj(s) a + c b
    rj[k] = -(sr * ar + si * ai) + c * br;
    ij[k] = -(sr * ai - si * ar) + c * bi;
  }
}

/** Columns i, j (rows from..to): col_i <- c col_i + s col_j; col_j <- -conj(s) col_i + c col_j. */
function rotCols(
  m: ComplexMat,
  i: number,
  j: number,
  c: number,
  sr: number,
  si: number,
  from: number,
  to: number,
): void {
  for (let k = from; k <= to; k++) {
    const rowR = m.re[k] as Float64Array;
    const rowI = m.im[k] as Float64Array;
    const ar = rowR[i] as number;
    const ai = rowI[i] as number;
    const br = rowR[j] as number;
    const bi = rowI[j] as number;
    rowR[i] = c * ar + (sr * br - si * bi);
    rowI[i] = c * ai + (sr * bi + si * br);
    rowR[j] = -(sr * ar + si * ai) + c * br;
    rowI[j] = -(sr * ai - si * ar) + c * bi;
  }
}

/** A <- G A on rows (i, i+1) is matched by Q <- Q G^H, i.e. a column rotation with conj(s). */
function rotQ(q: ComplexMat, i: number, j: number, g: Rotation): void {
  rotCols(q, i, j, g.c, g.sr, -g.si, 0, q.re.length - 1);
}

function frobenius(m: ComplexMat): number {
  let s = 0;
  for (let i = 0; i < m.re.length; i++) {
    for (let j = 0; j < m.re.length; j++) s += re(m, i, j) ** 2 + im(m, i, j) ** 2;
  }
  return Math.sqrt(s);
}

/** Reduces (A, B) to Hessenberg-triangular form with real Householder and Givens steps. */
function hessenbergTriangular(A: Mat, B: Mat): QZResult {
  const n = A.length;
  const S = cmat(n);
  const T = cmat(n);
  for (let i = 0; i < n; i++) {
    (S.re[i] as Float64Array).set(A[i] as Float64Array);
    (T.re[i] as Float64Array).set(B[i] as Float64Array);
  }
  const Q = cidentity(n);
  const Z = cidentity(n);

  // Householder QR of B: B <- H B, A <- H A, Q <- Q H (all real).
  for (let k = 0; k < n - 1; k++) {
    let norm = 0;
    for (let i = k; i < n; i++) norm += re(T, i, k) ** 2;
    norm = Math.sqrt(norm);
    if (norm === 0) continue;
    const alpha = re(T, k, k) > 0 ? -norm : norm;
    const v = new Float64Array(n);
    for (let i = k; i < n; i++) v[i] = re(T, i, k);
    v[k] = (v[k] as number) - alpha;
    let vv = 0;
    for (let i = k; i < n; i++) vv += (v[i] as number) ** 2;
    if (vv === 0) continue;
    const applyLeft = (M: Mat): void => {
      for (let j = 0; j < n; j++) {
        let dot = 0;
        for (let i = k; i < n; i++) dot += (v[i] as number) * ((M[i] as Float64Array)[j] as number);
        const f = (2 * dot) / vv;
        if (f === 0) continue;
        for (let i = k; i < n; i++)
          (M[i] as Float64Array)[j] = ((M[i] as Float64Array)[j] as number) - f * (v[i] as number);
      }
    };
    applyLeft(T.re);
    applyLeft(S.re);
    // Q <- Q H: columns k..n-1 of each row
    for (let r = 0; r < n; r++) {
      const row = Q.re[r] as Float64Array;
      let dot = 0;
      for (let i = k; i < n; i++) dot += (row[i] as number) * (v[i] as number);
      const f = (2 * dot) / vv;
      if (f === 0) continue;
      for (let i = k; i < n; i++) row[i] = (row[i] as number) - f * (v[i] as number);
    }
    for (let i = k + 1; i < n; i++) set(T, i, k, 0, 0);
  }

  // Zero A below the subdiagonal, column by column, keeping B triangular.
  for (let j = 0; j < n - 2; j++) {
    for (let i = n - 1; i >= j + 2; i--) {
      const g = lartg(re(S, i - 1, j), 0, re(S, i, j), 0);
      rotRows(S, i - 1, i, g, j, n - 1);
      rotRows(T, i - 1, i, g, i - 1, n - 1);
      rotQ(Q, i - 1, i, g);
      set(S, i, j, 0, 0);
      // fill-in T[i][i-1]: zero it with a rotation of columns i, i-1
      const h = lartg(re(T, i, i), 0, re(T, i, i - 1), 0);
      rotCols(S, i, i - 1, h.c, h.sr, h.si, 0, n - 1);
      rotCols(T, i, i - 1, h.c, h.sr, h.si, 0, i);
      rotCols(Z, i, i - 1, h.c, h.sr, h.si, 0, n - 1);
      set(T, i, i - 1, 0, 0);
    }
  }
  return { n, S, T, Q, Z };
}

/** Complex division (ar + i ai) / (br + i bi). */
function cdiv(ar: number, ai: number, br: number, bi: number): [number, number] {
  if (Math.abs(br) >= Math.abs(bi)) {
    const r = bi / br;
    const d = br + bi * r;
    return [(ar + ai * r) / d, (ai - ar * r) / d];
  }
  const r = br / bi;
  const d = bi + br * r;
  return [(ar * r + ai) / d, (ai * r - ar) / d];
}

function csqrt(ar: number, ai: number): [number, number] {
  const m = Math.hypot(ar, ai);
  if (m === 0) return [0, 0];
  const r = Math.sqrt((m + Math.abs(ar)) / 2);
  if (ar >= 0) return [r, ai / (2 * r)];
  return [Math.abs(ai) / (2 * r), ai >= 0 ? r : -r];
}

/** The eigenvalue of the trailing 2x2 pencil nearest to S_ll / T_ll (Wilkinson shift). */
function wilkinsonShift(S: ComplexMat, T: ComplexMat, l: number): [number, number] {
  const k = l - 1;
  const [a11r, a11i, a12r, a12i, a21r, a21i, a22r, a22i] = [
    re(S, k, k),
    im(S, k, k),
    re(S, k, l),
    im(S, k, l),
    re(S, l, k),
    im(S, l, k),
    re(S, l, l),
    im(S, l, l),
  ];
  const [t11r, t11i, t12r, t12i, t22r, t22i] = upperBlock(T, k);
  // det(A2 - x T2) = a x^2 + b x + c
  const ar = t11r * t22r - t11i * t22i;
  const ai = t11r * t22i + t11i * t22r;
  const br =
    -(a11r * t22r - a11i * t22i + (a22r * t11r - a22i * t11i)) + (t12r * a21r - t12i * a21i);
  const bi =
    -(a11r * t22i + a11i * t22r + (a22r * t11i + a22i * t11r)) + (t12r * a21i + t12i * a21r);
  const cr = a11r * a22r - a11i * a22i - (a12r * a21r - a12i * a21i);
  const ci = a11r * a22i + a11i * a22r - (a12r * a21i + a12i * a21r);
  const [dr, di] = csqrt(
    br * br - bi * bi - 4 * (ar * cr - ai * ci),
    2 * br * bi - 4 * (ar * ci + ai * cr),
  );
  // q = -(b + sign * sqrt(disc)) / 2 with the sign that avoids cancellation
  const sign = br * dr + bi * di >= 0 ? 1 : -1;
  const qr = -(br + sign * dr) / 2;
  const qi = -(bi + sign * di) / 2;
  const target = cdiv(a22r, a22i, t22r, t22i);
  const candidates: [number, number][] = [];
  if (Math.hypot(ar, ai) > 0) candidates.push(cdiv(qr, qi, ar, ai));
  if (Math.hypot(qr, qi) > 0) candidates.push(cdiv(cr, ci, qr, qi));
  let best = target;
  let bestDist = Infinity;
  for (const z of candidates) {
    const d = Math.hypot(z[0] - target[0], z[1] - target[1]);
    if (Number.isFinite(d) && d < bestDist) {
      bestDist = d;
      best = z;
    }
  }
  return best;
}

export class QZConvergenceError extends Error {}

/** The QZ decomposition of the real pencil (A, B). Throws QZConvergenceError if it stalls. */
export function qz(A: Mat, B: Mat): QZResult {
  const result = hessenbergTriangular(A, B);
  const { n, S, T, Q, Z } = result;
  if (n <= 1) return result;
  const atol = Math.max(SAFMIN, ULP * frobenius(S));
  const btol = Math.max(SAFMIN, ULP * frobenius(T));
  const maxIterations = 30 * n;
  let iterations = 0;
  let sinceDeflation = 0;
  let eshiftR = 0;
  let eshiftI = 0;
  let ilast = n - 1;

  /** T[ilast][ilast] = 0: a column rotation zeroes S[ilast][ilast-1] and deflates. */
  const deflateInfinite = (l: number): void => {
    const g = lartg(re(S, l, l), im(S, l, l), re(S, l, l - 1), im(S, l, l - 1));
    rotCols(S, l, l - 1, g.c, g.sr, g.si, 0, l);
    rotCols(T, l, l - 1, g.c, g.sr, g.si, 0, l - 1);
    rotCols(Z, l, l - 1, g.c, g.sr, g.si, 0, n - 1);
    set(S, l, l - 1, 0, 0);
    set(T, l, l, 0, 0);
  };

  while (ilast > 0) {
    // Test for a negligible subdiagonal at the bottom: a 1x1 block deflates.
    if (abs1(S, ilast, ilast - 1) <= atol) {
      set(S, ilast, ilast - 1, 0, 0);
      ilast--;
      sinceDeflation = 0;
      eshiftR = eshiftI = 0;
      continue;
    }
    if (abs1(T, ilast, ilast) <= btol) {
      deflateInfinite(ilast);
      ilast--;
      sinceDeflation = 0;
      eshiftR = eshiftI = 0;
      continue;
    }
    // Find the top of the unreduced block, chasing any zero on T's diagonal to the bottom.
    let ifirst = 0;
    let chased = false;
    for (let j = ilast - 1; j >= 0; j--) {
      const top = j === 0 || abs1(S, j, j - 1) <= atol;
      if (j > 0 && top) set(S, j, j - 1, 0, 0);
      if (abs1(T, j, j) <= btol) {
        set(T, j, j, 0, 0);
        for (let k = j; k < ilast; k++) {
          const g = lartg(
            re(T, k, k + 1),
            im(T, k, k + 1),
            re(T, k + 1, k + 1),
            im(T, k + 1, k + 1),
          );
          rotRows(T, k, k + 1, g, k + 1, n - 1);
          set(T, k, k + 1, g.rr, g.ri);
          set(T, k + 1, k + 1, 0, 0);
          rotRows(S, k, k + 1, g, Math.max(k - 1, 0), n - 1);
          rotQ(Q, k, k + 1, g);
          if (k > 0) {
            const h = lartg(
              re(S, k + 1, k),
              im(S, k + 1, k),
              re(S, k + 1, k - 1),
              im(S, k + 1, k - 1),
            );
            rotCols(S, k, k - 1, h.c, h.sr, h.si, 0, k + 1);
            rotCols(T, k, k - 1, h.c, h.sr, h.si, 0, k - 1);
            rotCols(Z, k, k - 1, h.c, h.sr, h.si, 0, n - 1);
            set(S, k + 1, k - 1, 0, 0);
          }
        }
        deflateInfinite(ilast);
        ilast--;
        sinceDeflation = 0;
        eshiftR = eshiftI = 0;
        chased = true;
        break;
      }
      if (top) {
        ifirst = j;
        break;
      }
    }
    if (chased) continue;

    iterations++;
    sinceDeflation++;
    if (iterations > maxIterations) {
      throw new QZConvergenceError(
        `the QZ iteration did not converge after ${maxIterations} sweeps`,
      );
    }
    let shiftR: number;
    let shiftI: number;
    if (sinceDeflation % 10 === 0) {
      // exceptional shift, as LAPACK does, to break a cycle
      const [er, ei] = cdiv(
        re(S, ilast, ilast - 1),
        im(S, ilast, ilast - 1),
        re(T, ilast - 1, ilast - 1),
        im(T, ilast - 1, ilast - 1),
      );
      eshiftR += er;
      eshiftI += ei;
      shiftR = eshiftR;
      shiftI = eshiftI;
    } else {
      [shiftR, shiftI] = wilkinsonShift(S, T, ilast);
    }
    // First rotation from the first column of (S - shift T) restricted to the block.
    const xr =
      re(S, ifirst, ifirst) - (shiftR * re(T, ifirst, ifirst) - shiftI * im(T, ifirst, ifirst));
    const xi =
      im(S, ifirst, ifirst) - (shiftR * im(T, ifirst, ifirst) + shiftI * re(T, ifirst, ifirst));
    let g = lartg(xr, xi, re(S, ifirst + 1, ifirst), im(S, ifirst + 1, ifirst));
    for (let j = ifirst; j < ilast; j++) {
      if (j > ifirst) {
        g = lartg(re(S, j, j - 1), im(S, j, j - 1), re(S, j + 1, j - 1), im(S, j + 1, j - 1));
        set(S, j, j - 1, g.rr, g.ri);
        set(S, j + 1, j - 1, 0, 0);
      }
      rotRows(S, j, j + 1, g, j, n - 1);
      rotRows(T, j, j + 1, g, j, n - 1);
      rotQ(Q, j, j + 1, g);
      const h = lartg(re(T, j + 1, j + 1), im(T, j + 1, j + 1), re(T, j + 1, j), im(T, j + 1, j));
      set(T, j + 1, j + 1, h.rr, h.ri);
      set(T, j + 1, j, 0, 0);
      rotCols(S, j + 1, j, h.c, h.sr, h.si, 0, Math.min(j + 2, ilast));
      rotCols(T, j + 1, j, h.c, h.sr, h.si, 0, j);
      rotCols(Z, j + 1, j, h.c, h.sr, h.si, 0, n - 1);
    }
  }
  return result;
}

/** Generalised eigenvalue j as (alpha, beta) with lambda = alpha / beta. */
export function eigenPair(
  r: QZResult,
  j: number,
): { ar: number; ai: number; br: number; bi: number } {
  return { ar: re(r.S, j, j), ai: im(r.S, j, j), br: re(r.T, j, j), bi: im(r.T, j, j) };
}

/**
 * Swaps the adjacent 1x1 blocks k and k+1 of the triangular pair (S, T), updating Q and Z.
 * Z's new first column (of the pair) spans the eigenvector of the lower eigenvalue
 * (the null vector of s22 T2 - t22 S2), then a row rotation restores triangularity.
 */
export function swapAdjacent(r: QZResult, k: number): void {
  const { n, S, T, Q, Z } = r;
  const l = k + 1;
  const [s11r, s11i, s12r, s12i, s22r, s22i] = upperBlock(S, k);
  const [t11r, t11i, t12r, t12i, t22r, t22i] = upperBlock(T, k);
  // F = s22 t11 - t22 s11,  G = s22 t12 - t22 s12
  const fr = s22r * t11r - s22i * t11i - (t22r * s11r - t22i * s11i);
  const fi = s22r * t11i + s22i * t11r - (t22r * s11i + t22i * s11r);
  const gr = s22r * t12r - s22i * t12i - (t22r * s12r - t22i * s12i);
  const gi = s22r * t12i + s22i * t12r - (t22r * s12i + t22i * s12r);
  const norm = Math.hypot(fr, fi, gr, gi);
  if (norm === 0) return; // equal eigenvalues and decoupled: nothing to swap
  // v = [G, -F] / norm; Z2 = [[v1, -conj(v2)], [v2, conj(v1)]]
  const v1r = gr / norm;
  const v1i = gi / norm;
  const v2r = -fr / norm;
  const v2i = -fi / norm;
  const applyZ2 = (m: ComplexMat, rows: number): void => {
    for (let i = 0; i <= rows; i++) {
      const rowR = m.re[i] as Float64Array;
      const rowI = m.im[i] as Float64Array;
      const ar = rowR[k] as number;
      const ai = rowI[k] as number;
      const br = rowR[l] as number;
      const bi = rowI[l] as number;
      // new col k = v1 a + v2 b
      rowR[k] = v1r * ar - v1i * ai + (v2r * br - v2i * bi);
      rowI[k] = v1r * ai + v1i * ar + (v2r * bi + v2i * br);
      // new col l = -conj(v2) a + conj(v1) b
      rowR[l] = -(v2r * ar + v2i * ai) + (v1r * br + v1i * bi);
      rowI[l] = -(v2r * ai - v2i * ar) + (v1r * bi - v1i * br);
    }
  };
  applyZ2(S, l);
  applyZ2(T, l);
  applyZ2(Z, n - 1);
  const useS =
    Math.hypot(s22r, s22i) * Math.hypot(t11r, t11i) >=
    Math.hypot(s11r, s11i) * Math.hypot(t22r, t22i);
  const X = useS ? S : T;
  const g = lartg(re(X, k, k), im(X, k, k), re(X, l, k), im(X, l, k));
  rotRows(S, k, l, g, k, n - 1);
  rotRows(T, k, l, g, k, n - 1);
  rotQ(Q, k, l, g);
  set(S, l, k, 0, 0);
  set(T, l, k, 0, 0);
}

/**
 * Moves the eigenvalues for which `select(alpha, beta)` holds to the top-left, keeping the
 * relative order. Returns how many were selected.
 */
export function reorder(
  r: QZResult,
  select: (e: { ar: number; ai: number; br: number; bi: number }) => boolean,
): number {
  let placed = 0;
  for (let j = 0; j < r.n; j++) {
    if (!select(eigenPair(r, j))) continue;
    for (let k = j - 1; k >= placed; k--) swapAdjacent(r, k);
    placed++;
  }
  return placed;
}
