import { describe, expect, it } from 'vitest';
import { seededRandom } from '../seeded-random';
import { averageRanks, spearmanMatrix } from './spearman';

/** Average ranks the plain way: sort positions with a comparator, ties share the mean rank. */
function reference(values: number[]): number[] {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length;) {
    let end = start + 1;
    while (end < order.length && values[order[end]!] === values[order[start]!]) end++;
    for (let p = start; p < end; p++) ranks[order[p]!] = (start + end + 1) / 2;
    start = end;
  }
  return ranks;
}

const all = (n: number) => Int32Array.from({ length: n }, (_, i) => i);

describe('averageRanks', () => {
  it('ranks a small list with ties, negatives, zeros of both signs and infinities', () => {
    const values = [3, -1, 0, -0, 3, -Infinity, 2.5, Infinity, -1, 1e-300, -1e-300, 3];
    const ranks = averageRanks(Float64Array.from(values), all(values.length));
    expect([...ranks]).toEqual(reference(values));
    // -Infinity first; -1 twice shares ranks 2 and 3; 0 and -0 share ranks 5 and 6.
    expect(ranks[5]).toBe(1);
    expect(ranks[1]).toBe(2.5);
    expect(ranks[2]).toBe(5.5);
    expect(ranks[3]).toBe(5.5);
    expect(ranks[7]).toBe(12);
  });

  it('agrees with the comparator sort on 50,000 random values of several shapes', () => {
    const random = seededRandom(7);
    const shapes: (() => number)[] = [
      () => (random() - 0.5) * 1e6, // continuous, both signs
      () => Math.floor(random() * 40), // many ties
      () => Math.round(Math.exp(random() * 20)) / 100, // wide range, some ties
      () => 2000 + Math.floor(random() * 3), // three values, large mean
    ];
    for (const draw of shapes) {
      const values = Array.from({ length: 50_000 }, draw);
      expect([...averageRanks(Float64Array.from(values), all(values.length))]).toEqual(
        reference(values),
      );
    }
  });

  it('ranks only the given positions, in their order', () => {
    const values = Float64Array.from([10, NaN, 30, 20, NaN, 10]);
    const rows = Int32Array.from([5, 3, 0, 2]);
    expect([...averageRanks(values, rows)]).toEqual([1.5, 3, 1.5, 4]);
  });

  it('handles empty and constant input', () => {
    expect([...averageRanks(new Float64Array(0), new Int32Array(0))]).toEqual([]);
    expect([...averageRanks(Float64Array.from([4, 4, 4]), all(3))]).toEqual([2, 2, 2]);
  });
});

describe('spearmanMatrix', () => {
  it('is the Pearson correlation of ranks, pairwise on rows where both are present', async () => {
    // y is a monotone transform of x: rho 1; z reverses x except where NaN.
    const x = Float64Array.from([1, 2, 3, 4, 5, 6]);
    const y = Float64Array.from([1, 8, 27, 64, 125, 216]);
    const z = Float64Array.from([6, NaN, 4, 3, NaN, 1]);
    const m = await spearmanMatrix([x, y, z]);
    expect(m[0]![1]).toBeCloseTo(1, 12);
    expect(m[0]![2]).toBeCloseTo(-1, 12);
    expect(m[1]![2]).toBeCloseTo(-1, 12);
    expect(m[2]![2]).toBe(1);
  });
});

describe('spearmanMatrix on columns with gaps', () => {
  /** pandas' rule the plain way: each pair on its rows where both are present. */
  function naive(columns: number[][]): (number | null)[][] {
    const pearsonOf = (a: number[], b: number[]) => {
      const ma = a.reduce((s, v) => s + v, 0) / a.length;
      const mb = b.reduce((s, v) => s + v, 0) / b.length;
      let sab = 0;
      let saa = 0;
      let sbb = 0;
      a.forEach((v, i) => {
        sab += (v - ma) * (b[i]! - mb);
        saa += (v - ma) ** 2;
        sbb += (b[i]! - mb) ** 2;
      });
      return sab / Math.sqrt(saa * sbb);
    };
    return columns.map((a, i) =>
      columns.map((b, j) => {
        if (i === j) return 1;
        const rows = a.map((_, r) => r).filter((r) => !Number.isNaN(a[r]!) && !Number.isNaN(b[r]!));
        return pearsonOf(reference(rows.map((r) => a[r]!)), reference(rows.map((r) => b[r]!)));
      }),
    );
  }

  it('agrees with ranking every pair on its own rows, ties and gaps included', async () => {
    const random = seededRandom(11);
    const n = 3_000;
    const complete1 = Array.from({ length: n }, () => Math.floor(random() * 50));
    const complete2 = Array.from({ length: n }, (_, i) => complete1[i]! * 2 + random());
    const gappy1 = Array.from({ length: n }, () => (random() < 0.2 ? NaN : random() * 10));
    const gappy2 = Array.from({ length: n }, () =>
      random() < 0.1 ? NaN : Math.round(random() * 5),
    );
    const columns = [complete1, gappy1, complete2, gappy2];
    const got = await spearmanMatrix(columns.map((c) => Float64Array.from(c)));
    const want = naive(columns);
    for (let i = 0; i < 4; i++) {
      for (let j = 0; j < 4; j++) expect(got[i]![j]!).toBeCloseTo(want[i]![j]!, 12);
    }
  });
});
