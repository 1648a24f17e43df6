import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetProfile } from '../../../common/teams/data';
import { createDuckDb } from './duckdb';
import { ingestFile } from './ingest';
import { checkDataFile } from './inspect';
import { profileFile } from './profile';

/**
 * The profile's numbers against values computed independently by pandas, numpy and statsmodels
 * on the shared real datasets (testdata/reference.py wrote testdata/reference.json).
 */

interface RefNumeric {
  count: number;
  missing: number;
  distinct: number;
  unique: number;
  mean: number;
  sd: number | null;
  variance: number | null;
  sum: number;
  min: number;
  max: number;
  quantiles: number[];
  skewness: number | null;
  kurtosis: number | null;
  zeros: number;
  negatives: number;
  zScoreOutliers: number;
  iqrOutliers: number;
  histogram: { counts: number[]; edges: number[] };
  top: [number, number][];
}
interface RefText {
  count: number;
  missing: number;
  distinct: number;
  top: [string, number][];
}
interface RefProfile {
  rows: number;
  duplicateRows: number;
  columns: Record<string, RefNumeric | RefText>;
  correlations: { columns: string[]; pearson: number[][]; spearman: number[][] };
  periods?: number;
  acf?: Record<string, number[]>;
}

const reference = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'testdata/reference.json'), 'utf8'),
) as Record<string, RefProfile>;

const DATA = path.join(import.meta.dirname, '../../../test/fixtures/data-sources/samples/datasets');
const FILES: Record<string, string> = {
  mroz: 'wooldridge_mroz.csv',
  us_macro: 'us_macro_quarterly_1959q1_2009q3.csv',
  pwt: 'pwt10_sample_21_countries.csv',
  bls: 'bls_unemployment_across_industries.json',
};

/** Equal up to floating-point noise: relative 1e-9 (absolute near zero). */
function close(actual: number | null | undefined, expected: number | null, what: string) {
  if (expected === null) {
    expect(actual ?? null, what).toBeNull();
    return;
  }
  expect(actual, what).not.toBeNull();
  const tolerance = 1e-9 * Math.max(1, Math.abs(expected));
  expect(
    Math.abs((actual as number) - expected),
    `${what}: ${actual} vs ${expected}`,
  ).toBeLessThanOrEqual(tolerance);
}

const db = createDuckDb({ threads: 2 });
const dir = mkdtempSync(path.join(os.tmpdir(), 'profile-ref-'));
const profiles: Record<string, DatasetProfile> = {};

beforeAll(async () => {
  for (const [key, file] of Object.entries(FILES)) {
    const source = path.join(DATA, file);
    const check = await checkDataFile(source, file);
    const out = path.join(dir, `${key}.parquet`);
    await ingestFile(db, source, check, out);
    profiles[key] = await profileFile(db, out);
  }
}, 120_000);

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(Object.keys(FILES))('profile of %s against pandas', (key) => {
  const ref = reference[key]!;

  it('counts rows and duplicate rows', () => {
    const p = profiles[key]!;
    expect(p.rowCount).toBe(ref.rows);
    expect(p.duplicateRows).toBe(ref.duplicateRows);
    expect(p.columns.map((c) => c.name)).toEqual(Object.keys(ref.columns));
  });

  it('computes every column statistic as pandas and numpy do', () => {
    const p = profiles[key]!;
    for (const [name, r] of Object.entries(ref.columns)) {
      const c = p.columns.find((x) => x.name === name)!;
      const at = `${key}.${name}`;
      expect(c.count, `${at} count`).toBe(r.count);
      expect(c.missing, `${at} missing`).toBe(r.missing);
      expect(c.distinct, `${at} distinct`).toBe(r.distinct);
      if (!('mean' in r)) {
        expect(c.numeric, at).toBeUndefined();
        // pandas keeps the JSON's ISO text; DuckDB reads a timestamp: compare the instants.
        const value = (v: unknown) =>
          c.kind === 'datetime'
            ? new Date(`${String(v).replace(' ', 'T').replace(/Z?$/, 'Z')}`).getTime()
            : v;
        expect(
          c.topValues.map((t) => [value(t.value), t.count]),
          `${at} top values`,
        ).toEqual(r.top.map(([v, n]) => [value(v), n]));
        continue;
      }
      const n = c.numeric!;
      expect(n, at).toBeDefined();
      expect(c.unique, `${at} unique`).toBe(r.unique);
      close(n.mean, r.mean, `${at} mean`);
      close(n.sd, r.sd, `${at} sd`);
      close(n.variance, r.variance, `${at} variance`);
      close(n.sum, r.sum, `${at} sum`);
      close(n.min, r.min, `${at} min`);
      close(n.max, r.max, `${at} max`);
      const q = n.quantiles;
      [q.p5, q.p25, q.p50, q.p75, q.p95].forEach((v, i) =>
        close(v, r.quantiles[i]!, `${at} quantile ${i}`),
      );
      close(n.iqr, r.quantiles[3]! - r.quantiles[1]!, `${at} iqr`);
      close(n.skewness, r.skewness, `${at} skewness`);
      close(n.kurtosis, r.kurtosis, `${at} kurtosis`);
      expect(n.zeros, `${at} zeros`).toBe(r.zeros);
      expect(n.negatives, `${at} negatives`).toBe(r.negatives);
      expect(n.outliers.zScore, `${at} z outliers`).toBe(r.zScoreOutliers);
      expect(n.outliers.iqr, `${at} iqr outliers`).toBe(r.iqrOutliers);
      expect(
        n.histogram.map((b) => b.count),
        `${at} histogram counts`,
      ).toEqual(r.histogram.counts);
      n.histogram.forEach((b, i) => {
        close(b.start, r.histogram.edges[i]!, `${at} bin ${i} start`);
        close(b.end, r.histogram.edges[i + 1]!, `${at} bin ${i} end`);
      });
      expect(
        c.topValues.map((t) => [t.value, t.count]),
        `${at} top values`,
      ).toEqual(r.top);
    }
  });

  it('computes Pearson and Spearman matrices as pandas does', () => {
    const p = profiles[key]!;
    expect(p.correlations.columns).toEqual(ref.correlations.columns);
    ref.correlations.pearson.forEach((row, i) =>
      row.forEach((v, j) => close(p.correlations.pearson[i]![j], v, `pearson ${i},${j}`)),
    );
    ref.correlations.spearman.forEach((row, i) =>
      row.forEach((v, j) => close(p.correlations.spearman[i]![j], v, `spearman ${i},${j}`)),
    );
  });
});

describe.each(Object.keys(FILES).filter((k) => reference[k]!.acf))(
  'time series of %s against statsmodels',
  (key) => {
    const ref = reference[key]!;
    it('finds the periods and their autocorrelation (statsmodels acf)', () => {
      const ts = profiles[key]!.timeSeries!;
      expect(ts).not.toBeNull();
      expect(ts.periods).toBe(ref.periods);
      for (const [column, lags] of Object.entries(ref.acf!)) {
        const mine = ts.autocorrelation.find((a) => a.column === column);
        expect(mine, column).toBeDefined();
        expect(mine!.lags).toHaveLength(lags.length);
        lags.forEach((v, i) => close(mine!.lags[i], v, `${column} acf lag ${i + 1}`));
      }
    });
  },
);

describe('time index of the shared datasets', () => {
  it('reads year + quarter as quarterly, a country panel by year, and a date column as monthly', () => {
    expect(profiles.us_macro!.timeSeries).toMatchObject({
      columns: ['year', 'quarter'],
      source: 'year_quarter',
      frequency: 'quarterly',
      start: '1959Q1',
      end: '2009Q3',
      gaps: { missingPeriods: 0, runs: [] },
      rowsPerPeriod: { min: 1, max: 1 },
    });
    expect(profiles.pwt!.timeSeries).toMatchObject({
      columns: ['year'],
      source: 'year',
      frequency: 'yearly',
      periods: 70,
      start: '1950',
      end: '2019',
      rowsPerPeriod: { min: 22, max: 22 },
    });
    expect(profiles.bls!.timeSeries).toMatchObject({
      columns: ['date'],
      source: 'date',
      frequency: 'monthly',
      start: '2000-01',
      end: '2010-02',
      rowsPerPeriod: { min: 14, max: 14 },
      gaps: { missingPeriods: 0 },
    });
  });
});
