import { EigenvalueDecomposition, Matrix, solve } from 'ml-matrix';
import { describe, expect, it } from 'vitest';
import { zeros, type Mat } from './linalg';
import { eigenPair, qz, reorder, type ComplexMat, type QZResult } from './qz';
import { seededRandom } from '../seeded-random';

/** A deterministic pseudo-random generator (centred on 0) so failures are reproducible. */
function rng(seed: number): () => number {
  const uniform = seededRandom(seed);
  return () => uniform() - 0.5;
}

function randomMat(n: number, next: () => number): Mat {
  return Array.from({ length: n }, () => Float64Array.from({ length: n }, next));
}

/** max |Q^H M Z - R| for a real M. */
function residual(M: Mat, r: QZResult, R: ComplexMat): number {
  const n = r.n;
  let worst = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let sr = 0;
      let si = 0;
      for (let k = 0; k < n; k++) {
        // (Q^H)_{ik} = conj(Q_{ki})
        const qr = r.Q.re[k]![i]!;
        const qi = -r.Q.im[k]![i]!;
        let tr = 0;
        let ti = 0;
        for (let l = 0; l < n; l++) {
          const m = M[k]![l]!;
          tr += m * r.Z.re[l]![j]!;
          ti += m * r.Z.im[l]![j]!;
        }
        sr += qr * tr - qi * ti;
        si += qr * ti + qi * tr;
      }
      worst = Math.max(worst, Math.hypot(sr - R.re[i]![j]!, si - R.im[i]![j]!));
    }
  }
  return worst;
}

function unitarity(U: ComplexMat): number {
  const n = U.re.length;
  let worst = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let sr = 0;
      let si = 0;
      for (let k = 0; k < n; k++) {
        // (U^H U)_{ij} = sum conj(U_ki) U_kj
        sr += U.re[k]![i]! * U.re[k]![j]! + U.im[k]![i]! * U.im[k]![j]!;
        si += U.re[k]![i]! * U.im[k]![j]! - U.im[k]![i]! * U.re[k]![j]!;
      }
      worst = Math.max(worst, Math.hypot(sr - (i === j ? 1 : 0), si));
    }
  }
  return worst;
}

function belowDiagonal(R: ComplexMat): number {
  let worst = 0;
  R.re.forEach((row, i) =>
    row.forEach((_, j) => {
      if (i > j) worst = Math.max(worst, Math.hypot(R.re[i]![j]!, R.im[i]![j]!));
    }),
  );
  return worst;
}

function sortedModuli(values: number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

function checkDecomposition(A: Mat, B: Mat, r: QZResult): void {
  const scale =
    1 +
    Math.max(
      ...A.flatMap((row) => Array.from(row, Math.abs)),
      ...B.flatMap((row) => Array.from(row, Math.abs)),
    );
  expect(residual(A, r, r.S)).toBeLessThan(1e-12 * scale * r.n);
  expect(residual(B, r, r.T)).toBeLessThan(1e-12 * scale * r.n);
  expect(unitarity(r.Q)).toBeLessThan(1e-12 * r.n);
  expect(unitarity(r.Z)).toBeLessThan(1e-12 * r.n);
  expect(belowDiagonal(r.S)).toBeLessThan(1e-12 * scale);
  expect(belowDiagonal(r.T)).toBeLessThan(1e-12 * scale);
}

describe('QZ decomposition', () => {
  it('decomposes random pencils and finds the eigenvalues of B^-1 A', () => {
    const next = rng(7);
    for (const n of [1, 2, 3, 5, 8, 13, 25]) {
      const A = randomMat(n, next);
      const B = randomMat(n, next);
      const r = qz(A, B);
      checkDecomposition(A, B, r);
      const ours = Array.from({ length: n }, (_, j) => {
        const { ar, ai, br, bi } = eigenPair(r, j);
        return Math.hypot(ar, ai) / Math.hypot(br, bi);
      });
      const BinvA = solve(
        new Matrix(B.map((row) => Array.from(row))),
        new Matrix(A.map((row) => Array.from(row))),
      );
      const eig = new EigenvalueDecomposition(BinvA);
      const theirs = eig.realEigenvalues.map((v, i) => Math.hypot(v, eig.imaginaryEigenvalues[i]!));
      const a = sortedModuli(ours);
      const b = sortedModuli(theirs);
      a.forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 8));
    }
  });

  it('handles a singular B (infinite eigenvalues) and a zero at the top of T', () => {
    const next = rng(11);
    for (const n of [2, 4, 7, 12]) {
      const A = randomMat(n, next);
      const B = randomMat(n, next);
      // make B rank deficient by two: zero two columns
      for (const row of B) {
        row[0] = 0;
        row[n - 1] = 0;
      }
      const r = qz(A, B);
      checkDecomposition(A, B, r);
      const infinite = Array.from({ length: n }, (_, j) => eigenPair(r, j)).filter(
        ({ br, bi }) => Math.hypot(br, bi) < 1e-12,
      ).length;
      expect(infinite).toBe(2);
    }
  });

  it('orders the stable eigenvalues first and keeps the decomposition valid', () => {
    const next = rng(3);
    for (const n of [3, 6, 10, 20]) {
      const A = randomMat(n, next);
      const B = randomMat(n, next);
      (B[1] as Float64Array).fill(0); // some infinite eigenvalues too
      const r = qz(A, B);
      const isStable = ({ ar, ai, br, bi }: ReturnType<typeof eigenPair>): boolean =>
        Math.hypot(ar, ai) < Math.hypot(br, bi);
      const expected = Array.from({ length: n }, (_, j) => eigenPair(r, j)).filter(isStable).length;
      const placed = reorder(r, isStable);
      expect(placed).toBe(expected);
      checkDecomposition(A, B, r);
      for (let j = 0; j < n; j++) expect(isStable(eigenPair(r, j))).toBe(j < placed);
    }
  });

  it('keeps a triangular pencil with repeated eigenvalues intact', () => {
    const A = zeros(3, 3);
    const B = zeros(3, 3);
    [0.9, 0.9, 1.5].forEach((v, i) => {
      A[i]![i] = v;
      B[i]![i] = 1;
    });
    A[0]![2] = 1;
    const r = qz(A, B);
    checkDecomposition(A, B, r);
    reorder(r, ({ ar, br }) => Math.abs(ar) < Math.abs(br));
    checkDecomposition(A, B, r);
  });
});
