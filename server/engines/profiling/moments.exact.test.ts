import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnalysisResult } from '../../../common/teams/data';
import { seededRandom } from '../seeded-random';
import { createProfilingEngine } from './index';
import { exactMoments } from './testdata/exact-moments';

/**
 * Moments against an exact computation (testdata/exact-moments.ts: BigInt sums of centred
 * powers of the very doubles stored): columns whose mean is large against their spread, where
 * centring on a rounded mean loses the digits the higher moments are made of, and standard
 * deviations by group.
 */

const engine = createProfilingEngine({ threads: 1 });
const dir = mkdtempSync(path.join(os.tmpdir(), 'moments-'));
afterAll(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
async function stored(rows: string[]): Promise<string> {
  const file = path.join(dir, `${n++}.csv`);
  writeFileSync(file, rows.join('\n'));
  await engine.load(file, 'data.csv', undefined, `${file}.parquet`);
  return `${file}.parquet`;
}

/** |actual - expected| within `rel` of |expected| (absolute near zero). */
function near(
  actual: number | null | undefined,
  expected: number | null,
  rel: number,
  what: string,
) {
  expect(actual ?? null, what).not.toBeNull();
  expect(expected, what).not.toBeNull();
  const gap = Math.abs(actual! - expected!);
  expect(gap, `${what}: ${actual} vs exact ${expected}`).toBeLessThanOrEqual(
    rel * Math.max(1, Math.abs(expected!)),
  );
}

const random = seededRandom(23);
const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
/** Values as the CSV holds them: written with 17 significant digits, read back exactly. */
const written = (x: number) => Number(x.toPrecision(17));

describe('exact moments (the reference itself)', () => {
  it('gives the hand-computed moments of 1, 2, 3, 4, 100, 100', () => {
    const m = exactMoments([1, 2, 3, 4, 100, 100]);
    expect(m.mean).toBe(35);
    expect(m.variance).toBe(12680 / 5);
    // Sums of centred cubes and fourth powers: -1,262,304... worked out with fractions.
    const d = [1, 2, 3, 4, 100, 100].map((x) => x - 35);
    const s2 = d.reduce((s, x) => s + x * x, 0);
    const s3 = d.reduce((s, x) => s + x ** 3, 0);
    const s4 = d.reduce((s, x) => s + x ** 4, 0);
    expect(m.skewness).toBeCloseTo(((6 * Math.sqrt(5)) / 4) * (s3 / s2 ** 1.5), 14);
    expect(m.kurtosis).toBeCloseTo((6 * 7 * 5 * s4) / (4 * 3 * s2 * s2) - (3 * 25) / (4 * 3), 13);
  });
});

describe('a column whose mean is large against its spread', () => {
  it('keeps its standard deviation, skewness and kurtosis (mean 1e9, sd 1e-3)', async () => {
    // Right-skewed noise (a squared normal) so the skewness is far from zero.
    const values = Array.from({ length: 2000 }, () =>
      written(1e9 + 1e-3 * (normal() + 0.4 * normal() ** 2)),
    );
    const profile = await engine.profile(await stored(['x', ...values.map(String)]));
    const stats = profile.columns[0]!.numeric!;
    const exact = exactMoments(values);
    near(stats.mean, exact.mean, 1e-15, 'mean');
    near(stats.sd, exact.sd, 1e-9, 'sd');
    near(stats.skewness, exact.skewness, 1e-9, 'skewness');
    near(stats.kurtosis, exact.kurtosis, 1e-9, 'kurtosis');
  });

  it('keeps them for a negative level too (mean -3e12, sd 0.5)', async () => {
    const values = Array.from({ length: 1500 }, () =>
      written(-3e12 + 0.5 * (normal() - 0.3 * normal() ** 2)),
    );
    const profile = await engine.profile(await stored(['x', ...values.map(String)]));
    const stats = profile.columns[0]!.numeric!;
    const exact = exactMoments(values);
    near(stats.sd, exact.sd, 1e-9, 'sd');
    near(stats.skewness, exact.skewness, 1e-9, 'skewness');
    near(stats.kurtosis, exact.kurtosis, 1e-9, 'kurtosis');
  });
});

describe('standard deviations by group (descriptive analysis)', () => {
  it('equals the exact sample standard deviation of each group, large means included', async () => {
    const groups = { a: 1e9, b: 5e6, c: 0 } as const;
    const spread = { a: 1e-3, b: 2.5, c: 1 } as const;
    const byGroup: Record<string, number[]> = { a: [], b: [], c: [] };
    const rows = ['g,x,y'];
    for (let i = 0; i < 3000; i++) {
      const g = (['a', 'b', 'c'] as const)[i % 3]!;
      const x = written(groups[g] + spread[g] * normal());
      byGroup[g]!.push(x);
      rows.push(`${g},${x},${written(normal())}`);
    }
    const parquet = await stored(rows);
    const { analysis } = await engine.analyze(parquet, 'descriptive');
    const result = analysis as Extract<AnalysisResult, { type: 'descriptive' }>;
    expect(result.byGroup?.groupColumn).toBe('g');
    for (const g of ['a', 'b', 'c']) {
      const row = result.byGroup!.groups.find((r) => r.group === g)!;
      const x = row.stats.find((s) => s.column === 'x')!;
      const exact = exactMoments(byGroup[g]!);
      expect(x.count).toBe(1000);
      near(x.mean, exact.mean, 1e-15, `mean of ${g}`);
      near(x.sd, exact.sd, 1e-12, `sd of ${g}`);
    }
  });

  it('gives no standard deviation for a group of one value, and 0 for a constant group', async () => {
    const parquet = await stored(['g,x', 'a,1', 'b,2', 'b,2', 'b,2', 'c,5', 'c,7']);
    const { analysis } = await engine.analyze(parquet, 'descriptive');
    const groups = (analysis as Extract<AnalysisResult, { type: 'descriptive' }>).byGroup!.groups;
    const sd = (g: string) => groups.find((r) => r.group === g)!.stats[0]!.sd;
    expect(sd('a')).toBeNull();
    expect(sd('b')).toBe(0);
    expect(sd('c')).toBe(Math.SQRT2);
  });
});
