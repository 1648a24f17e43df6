import { afterAll, describe, expect, it } from 'vitest';
import { createDuckDb, readDoubleColumns } from './duckdb';
import { seededRandom } from '../seeded-random';
import { profiledColumns } from './columns';
import { binExpression, binner, notRowCounters, numericFacts, type Binning } from './stats';

/** numpy's histogram bin rule, written twice: in SQL (binExpression) and in JavaScript (binner). */

const db = createDuckDb({ threads: 1 });
afterAll(() => db.close());

describe('binner', () => {
  it('puts every value in the bin binExpression puts it in, edges included', async () => {
    const cases: Binning[] = [
      { lo: 0, hi: 1, bins: 10 },
      { lo: -40, hi: 1196, bins: 50 },
      { lo: 0.3695, hi: 422.8271, bins: 50 },
      { lo: 1, hi: 753, bins: 50 },
      { lo: -1e-3, hi: 2e-3, bins: 7 },
    ];
    for (const b of cases) {
      const step = (b.hi - b.lo) / b.bins;
      // Every edge, values just beside each edge, and values spread over the range.
      const values: number[] = [];
      for (let j = 0; j <= b.bins; j++) {
        const edge = j * step + b.lo;
        values.push(edge, edge * (1 + 1e-15), edge * (1 - 1e-15), edge + step / 2);
      }
      for (let i = 0; i <= 1000; i++) values.push(b.lo + ((b.hi - b.lo) * i) / 1000);
      const inRange = values.filter((v) => v >= b.lo && v <= b.hi);
      const [sqlBins] = await db.withConnection((c) =>
        readDoubleColumns(
          c,
          `SELECT (${binExpression('v', b)})::DOUBLE FROM (SELECT unnest([${inRange.map((v) => `'${v}'::DOUBLE`).join(', ')}]) AS v)`,
          1,
        ),
      );
      expect(inRange.map(binner(b))).toEqual([...sqlBins!]);
    }
  });
});

describe('numericFacts: a column read from its table of distinct values', () => {
  /** pandas' quantile (linear interpolation) of sorted values. */
  const quantile = (sorted: number[], p: number) => {
    const h = (sorted.length - 1) * p;
    const low = sorted[Math.floor(h)]!;
    const high = sorted[Math.min(sorted.length - 1, Math.floor(h) + 1)]!;
    return low + (high - low) * (h - Math.floor(h));
  };

  /** The column `x` of a table of `values` (NULL for null), profiled with slices of `sliceRows`. */
  async function factsOf(values: (number | null)[], sliceRows?: number) {
    return db.withConnection(async (c) => {
      await c.run('CREATE OR REPLACE TEMP TABLE src (x DOUBLE)');
      const appender = await c.createAppender('src', 'main', 'temp');
      for (const v of values) {
        if (v === null) appender.appendNull();
        else appender.appendDouble(v);
        appender.endRow();
      }
      appender.closeSync();
      const column = profiledColumns([{ name: 'x', type: 'DOUBLE' }])[0]!;
      return numericFacts(c, column, values.length, sliceRows);
    });
  }

  function expectLikeBruteForce(
    facts: Awaited<ReturnType<typeof factsOf>>,
    values: (number | null)[],
  ) {
    const present = values.filter((v): v is number => v !== null);
    const sorted = [...present].sort((a, b) => a - b);
    const counts = new Map<number, number>();
    for (const v of present) counts.set(v, (counts.get(v) ?? 0) + 1);
    expect(facts.count).toBe(present.length);
    expect(facts.distinct).toBe(counts.size);
    expect(facts.unique).toBe([...counts.values()].filter((n) => n === 1).length);
    const top = [...counts]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, 10)
      .map(([value, count]) => ({ value, count }));
    expect(facts.top).toEqual(top);
    const s = facts.stats!;
    expect([s.min, s.max]).toEqual([sorted[0], sorted[sorted.length - 1]]);
    expect(s.zeros).toBe(present.filter((v) => v === 0).length);
    expect(s.negatives).toBe(present.filter((v) => v < 0).length);
    expect(s.quantiles).toEqual({
      p5: quantile(sorted, 0.05),
      p25: quantile(sorted, 0.25),
      p50: quantile(sorted, 0.5),
      p75: quantile(sorted, 0.75),
      p95: quantile(sorted, 0.95),
    });
    const mean = present.reduce((a, v) => a + v, 0) / present.length;
    expect(s.mean).toBeCloseTo(mean, 6);
    expect(s.histogram.reduce((a, b) => a + b.count, 0)).toBe(present.length);
    for (const bin of s.histogram) {
      const last = bin === s.histogram[s.histogram.length - 1];
      const inBin = present.filter(
        (v) => v >= bin.start && (last ? v <= bin.end : v < bin.end),
      ).length;
      expect(bin.count, `bin from ${bin.start}`).toBe(inBin);
    }
    const outside = present.filter((v) => v < s.outliers.iqrLower || v > s.outliers.iqrUpper);
    expect(s.outliers.iqr).toBe(outside.length);
    const far = present.filter((v) => Math.abs(v - s.mean) > 3 * s.sd!);
    expect(s.outliers.zScore).toBe(far.length);
  }

  it('gives the same numbers read at once or in slices of a few rows, with repeated values, gaps, zeros and negatives', async () => {
    const random = seededRandom(3);
    const values = Array.from({ length: 5000 }, (_, i) =>
      i % 97 === 0 ? null : i % 13 === 0 ? 0 : Math.round((random() - 0.3) * 400) / 4,
    );
    values.push(5000, -800);
    const whole = await factsOf(values);
    expectLikeBruteForce(whole, values);
    // Sums added slice by slice may differ in the last place; everything counted is the same.
    const moments = ['mean', 'sd', 'variance', 'sum', 'skewness', 'kurtosis', 'cv'] as const;
    for (const sliceRows of [7, 4999]) {
      const sliced = await factsOf(values, sliceRows);
      for (const m of moments) {
        expect(sliced.stats![m]!, m).toBeCloseTo(whole.stats![m]!, 9);
        delete sliced.stats![m];
      }
      const { mean, sd, variance, sum, skewness, kurtosis, cv, ...counted } = whole.stats!;
      void [mean, sd, variance, sum, skewness, kurtosis, cv];
      expect(sliced.stats).toEqual(counted);
      expect({ ...sliced, stats: null }).toEqual({ ...whole, stats: null });
    }
  });

  it('finds the quantiles when one bin of a split holds almost every value, down to neighbouring doubles', async () => {
    // 100,000 distinct values in [0, 1) and one far outlier: the first split's first bin holds
    // them all and is split again. Then 70,000 neighbouring doubles above 1 (each the next one),
    // which only the deepest splits tell apart.
    const random = seededRandom(9);
    const spread = Array.from({ length: 100_000 }, () => random());
    const values: number[] = [...spread, 1e12];
    expectLikeBruteForce(await factsOf(values), values);
    const scratch = new Float64Array(1);
    const bits = new BigUint64Array(scratch.buffer);
    const neighbours: number[] = [];
    scratch[0] = 1;
    for (let i = 0; i < 70_000; i++) {
      bits[0]! += 1n;
      neighbours.push(scratch[0]!);
    }
    const packed = [...neighbours, 2, 1e9];
    expectLikeBruteForce(await factsOf(packed, 30_000), packed);
  });

  it('has no moments for a column holding NaN or infinity, and still counts its values', async () => {
    const facts = await factsOf([1, 2, 2, Infinity]);
    expect(facts.stats).toBeNull();
    expect(facts).toMatchObject({ count: 4, distinct: 3, unique: 2 });
    expect(facts.top[0]).toEqual({ value: 2, count: 2 });
    // NaN first, so later values would replace it as the minimum if it were not kept.
    const nan = await factsOf([NaN, 1, 2, 3, 3]);
    expect(nan.stats).toBeNull();
    expect(nan).toMatchObject({ count: 5, distinct: 4 });
  });
});

describe('notRowCounters', () => {
  it('rules out a sampled column only where the sample proves it does not count rows', () => {
    const sample = {
      step: 3,
      columns: [
        Float64Array.from([5, 8, 11, 14]), // counts rows from 5
        Float64Array.from([5, 8, 12, 14]), // one step too long
        Float64Array.from([NaN, 3, 6]), // a missing first value
        Float64Array.from([0, 3, NaN]), // a missing value later
        Float64Array.from([7]), // one value proves nothing
      ],
    };
    expect(notRowCounters(['a', 'b', 'c', 'd', 'e'], sample)).toEqual(new Set(['b', 'c', 'd']));
  });
});
