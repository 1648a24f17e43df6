import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnalysisResult, ChartSpec, DatasetProfile } from '../../../common/teams/data';
import { seededRandom } from '../seeded-random';
import { createProfilingEngine, DataError } from './index';

/** Profiles, analyses and charts of small hand-made datasets, checked against hand-computed numbers. */

const engine = createProfilingEngine({ threads: 1 });
const dir = mkdtempSync(path.join(os.tmpdir(), 'engine-'));
afterAll(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
async function stored(name: string, content: string): Promise<string> {
  const file = path.join(dir, `${n++}-${name}`);
  writeFileSync(file, content);
  await engine.load(file, name, undefined, `${file}.parquet`);
  return `${file}.parquet`;
}

const SMALL = [
  'id,region,x,y,z,flag,const,note',
  '1,North,1,2,0,1,7,',
  '2,North,2,4,0,0,7,',
  '3,South,3,6,0,1,7,',
  '4,South,4,8,5,0,7,',
  '5,South,100,,0,1,7,',
  '5,South,100,,0,1,7,',
].join('\n');

const col = (p: DatasetProfile, name: string) => p.columns.find((c) => c.name === name)!;

describe('profile of a small hand-made table', () => {
  let profile: DatasetProfile;
  it('counts rows, cells, duplicates and kinds', async () => {
    profile = await engine.profile(await stored('small.csv', SMALL));
    expect(profile.rowCount).toBe(6);
    expect(profile.columnCount).toBe(8);
    expect(profile.duplicateRows).toBe(1);
    // y misses 2, note misses all 6.
    expect(profile.missingCells).toBe(8);
    expect(profile.missingCellsShare).toBeCloseTo(8 / 48, 12);
    expect(col(profile, 'flag').kind).toBe('boolean');
    expect(col(profile, 'region').kind).toBe('categorical');
    expect(col(profile, 'x').kind).toBe('numeric');
    expect(profile.kinds).toEqual({ numeric: 5, categorical: 2, boolean: 1 });
  });

  it('computes the numbers of x = 1, 2, 3, 4, 100, 100 by hand', () => {
    const x = col(profile, 'x');
    expect(x).toMatchObject({ count: 6, missing: 0, distinct: 5, unique: 4 });
    const s = x.numeric!;
    expect(s.sum).toBe(210);
    expect(s.mean).toBe(35);
    // Squared deviations 1156 + 1089 + 1024 + 961 + 4225 + 4225 = 12680, over n - 1 = 5.
    expect(s.variance).toBeCloseTo(2536, 9);
    expect(s.sd).toBeCloseTo(Math.sqrt(2536), 9);
    // Linear interpolation: p25 at position 1.25 -> 2.25, p50 at 2.5 -> 3.5, p75 at 3.75 -> 76.
    expect(s.quantiles).toMatchObject({ p25: 2.25, p50: 3.5, p75: 76 });
    expect(s.iqr).toBe(73.75);
    expect(s.outliers).toMatchObject({
      iqr: 0,
      zScore: 0,
      iqrLower: 2.25 - 110.625,
      iqrUpper: 186.625,
    });
    // Five bins (five distinct values) of width 19.8 from 1 to 100.
    expect(s.histogram.map((b) => b.count)).toEqual([4, 0, 0, 0, 2]);
    expect(s.histogram[1]!.start).toBeCloseTo(20.8, 12);
    expect(s.histogram[4]!.end).toBe(100);
    expect(x.topValues.slice(0, 2)).toEqual([
      { value: 100, count: 2, share: 2 / 6 },
      { value: 1, count: 1, share: 1 / 6 },
    ]);
  });

  it('finds exact quantiles when one bin holds almost every value (a far outlier)', async () => {
    // 500 zeros, 1..499 and one huge value: nearly everything sits in the lowest of the bins
    // used to locate order statistics.
    const values = [
      ...Array.from({ length: 500 }, () => 0),
      ...Array.from({ length: 499 }, (_, i) => i + 1),
      1e9,
    ];
    const p = await engine.profile(await stored('skew.csv', `x\n${values.join('\n')}\n`));
    const sorted = [...values].sort((a, b) => a - b);
    const quantile = (q: number) => {
      const h = (sorted.length - 1) * q;
      const lo = Math.floor(h);
      return sorted[lo]! + (sorted[Math.min(sorted.length - 1, lo + 1)]! - sorted[lo]!) * (h - lo);
    };
    expect(col(p, 'x').numeric!.quantiles).toEqual({
      p5: quantile(0.05),
      p25: quantile(0.25),
      p50: quantile(0.5),
      p75: quantile(0.75),
      p95: quantile(0.95),
    });
  });

  it('counts zeros, blanks and category frequencies', () => {
    expect(col(profile, 'z').numeric).toMatchObject({ zeros: 5, zerosShare: 5 / 6, negatives: 0 });
    expect(col(profile, 'region').topValues).toEqual([
      { value: 'South', count: 4, share: 4 / 6 },
      { value: 'North', count: 2, share: 2 / 6 },
    ]);
    expect(col(profile, 'flag').boolean).toBeUndefined();
    expect(col(profile, 'note')).toMatchObject({ count: 0, missing: 6, missingShare: 1 });
  });

  it('measures the lengths and blanks of string columns, repeated values counted each time', async () => {
    const long = 'A'.repeat(45);
    const p = await engine.profile(
      await stored(
        'strings.csv',
        [
          'code,comment',
          `ab,${long}`,
          `ab,${long}`,
          `ab,${long}B`,
          '"   ",',
          `"",${long}BB`,
          `abcdef,${long}`,
        ].join('\n'),
      ),
    );
    // DuckDB reads the quoted empty field as NULL: five values of lengths 2, 2, 2, 3 and 6.
    expect(col(p, 'code')).toMatchObject({ kind: 'categorical', count: 5, distinct: 3 });
    expect(col(p, 'code').text).toEqual({
      minLength: 2,
      meanLength: 15 / 5,
      maxLength: 6,
      blank: 1,
    });
    // Five values of 45, 45, 46, 47 and 45 characters: text, not categories.
    expect(col(p, 'comment')).toMatchObject({ kind: 'text', count: 5 });
    expect(col(p, 'comment').text).toEqual({
      minLength: 45,
      meanLength: 228 / 5,
      maxLength: 47,
      blank: 0,
    });
  });

  it('raises the alerts the numbers call for, most severe first', () => {
    const types = profile.alerts.map((a) => `${a.type}:${a.columns.join('+')}`);
    expect(types).toEqual(
      expect.arrayContaining([
        'empty:note',
        'constant:const',
        'missing:y',
        'zeros:z',
        'duplicates:',
        'high_correlation:x+y',
      ]),
    );
    expect(profile.alerts.find((a) => a.type === 'missing')).toMatchObject({
      severity: 'medium',
      value: 2 / 6,
    });
    expect(profile.alerts.find((a) => a.type === 'duplicates')).toMatchObject({
      severity: 'high',
      value: 1,
    });
    const order = profile.alerts.map((a) => a.severity);
    expect(order).toEqual(
      [...order].sort(
        (a, b) => ['high', 'medium', 'low'].indexOf(a) - ['high', 'medium', 'low'].indexOf(b),
      ),
    );
    // x on the rows where y exists is 1..4 against 2..8: exactly linear.
    const corr = profile.correlations;
    const [ix, iy] = [corr.columns.indexOf('x'), corr.columns.indexOf('y')];
    expect(corr.pearson[ix]![iy]).toBeCloseTo(1, 12);
    expect(corr.spearman[ix]![iy]).toBeCloseTo(1, 12);
  });
});

describe('Pearson correlation over every row', () => {
  /** Two-pass Pearson on the rows where both values are present (pandas' pairwise rule). */
  function reference(a: (number | null)[], b: (number | null)[]): number {
    const rows = a.flatMap((v, i) => (v !== null && b[i] !== null ? [[v, b[i]!]] : []));
    const mean = (k: 0 | 1) => rows.reduce((s, r) => s + r[k]!, 0) / rows.length;
    const [ma, mb] = [mean(0), mean(1)];
    let sab = 0;
    let saa = 0;
    let sbb = 0;
    for (const [x, y] of rows) {
      sab += (x! - ma) * (y! - mb);
      saa += (x! - ma) ** 2;
      sbb += (y! - mb) ** 2;
    }
    return sab / Math.sqrt(saa * sbb);
  }

  it('agrees with a two-pass computation on a sampled table: large means, weak and strong pairs, gaps', async () => {
    // More rows than the Spearman sample, so the deviations are taken from the sample's means,
    // not the exact ones; a level of a million against a spread of about one, a column with
    // gaps (DuckDB's corr on the rows both have) and one whose only gap is not in the sample.
    const random = seededRandom(5);
    const rows = 60_013;
    const level: number[] = [];
    const follower: number[] = [];
    const noise: number[] = [];
    const gappy: (number | null)[] = [];
    const rare: (number | null)[] = [];
    for (let i = 0; i < rows; i++) {
      level.push(1e6 + (i % 1000) / 500 + random());
      follower.push(level[i]! * 3 - 3e6 + 2 * random());
      noise.push(random() * 10 + i / rows);
      gappy.push(i % 7 === 3 ? null : level[i]! / 1000 + 5 * random());
      rare.push(i === 1 ? null : i < 10 ? 1e6 : noise[i]! + random());
    }
    const csv = ['level,follower,noise,gappy,rare']
      .concat(
        level.map((v, i) => `${v},${follower[i]},${noise[i]},${gappy[i] ?? ''},${rare[i] ?? ''}`),
      )
      .join('\n');
    const p = await engine.profile(await stored('pearson.csv', csv));
    const data: Record<string, (number | null)[]> = { level, follower, noise, gappy, rare };
    const corr = p.correlations;
    expect(corr.columns).toEqual(['level', 'follower', 'noise', 'gappy', 'rare']);
    expect(corr.spearmanSampleRows).toBeLessThan(rows);
    for (const [i, a] of corr.columns.entries()) {
      for (const [j, b] of corr.columns.entries()) {
        const expected = i === j ? 1 : reference(data[a]!, data[b]!);
        const actual = corr.pearson[i]![j]!;
        expect(Math.abs(actual - expected), `${a} ~ ${b}: ${actual} vs ${expected}`).toBeLessThan(
          1e-9,
        );
      }
    }
    // The pairs cover a strong and a weak correlation.
    expect(Math.abs(corr.pearson[0]![1]!)).toBeGreaterThan(0.5);
    expect(Math.abs(corr.pearson[0]![2]!)).toBeLessThan(0.2);
  });
});

describe('time index', () => {
  it('finds a monthly date column, its gaps and its autocorrelation', async () => {
    const values = [1, 2, 3, 6, 7, 12];
    const dates = [
      '2020-01-01',
      '2020-02-01',
      '2020-03-01',
      '2020-06-01',
      '2020-07-01',
      '2020-12-01',
    ];
    const p = await engine.profile(
      await stored(
        'ts.csv',
        ['date,value', ...dates.map((d, i) => `${d},${values[i]}`)].join('\n'),
      ),
    );
    expect(p.timeSeries).toMatchObject({
      columns: ['date'],
      source: 'date',
      frequency: 'monthly',
      periods: 6,
      start: '2020-01',
      end: '2020-12',
      gaps: {
        missingPeriods: 6,
        runs: [
          { from: '2020-04', to: '2020-05', periods: 2 },
          { from: '2020-08', to: '2020-11', periods: 4 },
        ],
      },
    });
    // statsmodels' acf by hand: lag-k products of deviations over the sum of squares.
    const mean = values.reduce((a, b) => a + b) / values.length;
    const d = values.map((v) => v - mean);
    const den = d.reduce((s, v) => s + v * v, 0);
    const acf = (k: number) => d.slice(0, -k).reduce((s, v, i) => s + v * d[i + k]!, 0) / den;
    const lags = p.timeSeries!.autocorrelation[0]!.lags;
    expect(lags).toHaveLength(4); // monthly asks for 12, capped at periods - 2
    lags.forEach((v, i) => expect(v).toBeCloseTo(acf(i + 1), 12));
    expect(col(p, 'date').datetime).toEqual({
      min: '2020-01-01 00:00:00',
      max: '2020-12-01 00:00:00',
    });
  });

  it('finds the autocorrelations of the series it shows when constant columns come first', async () => {
    // 15 constant columns, then 12 series: the profile shows the first 10 series, beyond the
    // ones whose autocorrelations were computed with the period table.
    const months = Array.from(
      { length: 24 },
      (_, i) => `20${20 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`,
    );
    const constant = Array.from({ length: 15 }, (_, j) => `c${j}`);
    const series = Array.from({ length: 12 }, (_, j) => `s${j}`);
    const value = (i: number, j: number) => ((i * (j + 3)) % 7) + i / 10;
    const lines = [
      ['date', ...constant, ...series].join(','),
      ...months.map((d, i) =>
        [d, ...constant.map(() => 1), ...series.map((_, j) => value(i, j))].join(','),
      ),
    ];
    const p = await engine.profile(await stored('wide-ts.csv', lines.join('\n')));
    const acf = p.timeSeries!.autocorrelation;
    expect(acf.map((a) => a.column)).toEqual(series.slice(0, 10));
    const values = months.map((_, i) => value(i, 9));
    const mean = values.reduce((a, b) => a + b) / values.length;
    const d = values.map((v) => v - mean);
    const den = d.reduce((s, v) => s + v * v, 0);
    const lag = (k: number) => d.slice(0, -k).reduce((s, v, i) => s + v * d[i + k]!, 0) / den;
    expect(acf[9]!.lags).toHaveLength(12);
    acf[9]!.lags.forEach((v, i) => expect(v).toBeCloseTo(lag(i + 1), 12));
  });

  it('gives the range of timestamp columns to the second', async () => {
    const p = await engine.profile(
      await stored(
        'stamps.csv',
        'at,v\n2021-03-04 05:06:07,1\n2019-12-31 23:59:59,2\n2021-03-04 05:06:08,3\n',
      ),
    );
    expect(col(p, 'at')).toMatchObject({
      storageType: 'TIMESTAMP',
      datetime: { min: '2019-12-31 23:59:59', max: '2021-03-04 05:06:08' },
    });
  });

  it('reads a series without its empty periods, beside a full one, and counts the date column once', async () => {
    // Monthly rows, two per month; `sparse` has no value at all in three of the months.
    const months = Array.from(
      { length: 12 },
      (_, i) => `2021-${String(i + 1).padStart(2, '0')}-01`,
    );
    const full = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8];
    const sparse = [2, null, 7, 1, null, 8, 2, 8, null, 4, 5, 9];
    const lines = months.flatMap((m, i) => [
      `${m},${full[i]},${sparse[i] ?? ''}`,
      `${m},${full[i]! + 1},${sparse[i] === null ? '' : sparse[i]! + 2}`,
    ]);
    const p = await engine.profile(
      await stored('gaps.csv', ['date,full,sparse', ...lines].join('\n')),
    );
    const date = col(p, 'date');
    expect(date).toMatchObject({ count: 24, distinct: 12, unique: 0 });
    expect(date.topValues.map((t) => [t.value, t.count])).toEqual(
      months.slice(0, 10).map((m) => [m, 2]),
    );
    // statsmodels' acf of each series on the periods where it has a value.
    const acf = (series: number[], k: number) => {
      const mean = series.reduce((a, b) => a + b) / series.length;
      const d = series.map((v) => v - mean);
      const den = d.reduce((s, v) => s + v * v, 0);
      return d.slice(0, -k).reduce((s, v, i) => s + v * d[i + k]!, 0) / den;
    };
    const perMonth = (xs: (number | null)[]) =>
      xs.filter((x): x is number => x !== null).map((x) => x + 1); // mean of x and x + 2
    const expected: Record<string, number[]> = {
      full: full.map((x) => x + 0.5),
      sparse: perMonth(sparse),
    };
    const ts = p.timeSeries!;
    expect(ts.autocorrelation.map((a) => a.column)).toEqual(['full', 'sparse']);
    for (const a of ts.autocorrelation) {
      expect(a.lags, a.column).toHaveLength(10); // monthly asks for 12, capped at periods - 2
      a.lags.forEach((v, i) =>
        expect(v, `${a.column} lag ${i + 1}`).toBeCloseTo(acf(expected[a.column]!, i + 1), 12),
      );
    }
  });

  it('reads quarters written as text (2019Q3) and counts the missing quarter', async () => {
    const p = await engine.profile(
      await stored('q.csv', 'period,value\n2019Q3,1\n2019Q4,2\n2020Q1,3\n2020Q3,5\n'),
    );
    expect(p.timeSeries).toMatchObject({
      columns: ['period'],
      source: 'period_text',
      frequency: 'quarterly',
      start: '2019Q3',
      end: '2020Q3',
      gaps: { missingPeriods: 1, runs: [{ from: '2020Q2', to: '2020Q2', periods: 1 }] },
    });
  });

  it('does not take text that only starts like a period for a time index', async () => {
    const p = await engine.profile(
      await stored('notq.csv', 'code,value\n2019Q3,1\n2019Q4,2\nother,3\n'),
    );
    expect(p.timeSeries).toBeNull();
  });
});

const PANEL = [
  'country,year,gdp,pop',
  'A,2000,100,10',
  'A,2001,110,10',
  'A,2002,121,11',
  'B,2000,50,5',
  'B,2001,40,5',
  'B,2002,,6',
].join('\n');

describe('the four analysis types', () => {
  const run = async (type: AnalysisResult['type']) =>
    engine.analyze(await stored(`panel-${type}.csv`, PANEL), type);

  it('profile: completeness per column', async () => {
    const { analysis } = await run('profile');
    expect(analysis.type).toBe('profile');
    if (analysis.type !== 'profile') return;
    expect(analysis.overview).toMatchObject({ rowCount: 6, columnCount: 4, missingCells: 1 });
    expect(analysis.overview.completeness).toBeCloseTo(23 / 24, 12);
    expect(analysis.columns.find((c) => c.column === 'gdp')).toMatchObject({
      missing: 1,
      count: 5,
    });
  });

  it('descriptive: summary and statistics by group', async () => {
    const { analysis } = await run('descriptive');
    if (analysis.type !== 'descriptive') throw new Error(analysis.type);
    const gdp = analysis.numeric.find((r) => r.column === 'gdp')!;
    expect(gdp).toMatchObject({ count: 5, mean: 84.2, min: 40, max: 121, median: 100 });
    expect(analysis.byGroup!.groupColumn).toBe('country');
    const a = analysis.byGroup!.groups.find((g) => g.group === 'A')!;
    expect(a.count).toBe(3);
    expect(a.stats.find((s) => s.column === 'gdp')).toMatchObject({
      count: 3,
      min: 100,
      median: 110,
      max: 121,
    });
    expect(a.stats.find((s) => s.column === 'gdp')!.mean).toBeCloseTo(331 / 3, 12);
    const b = analysis.byGroup!.groups.find((g) => g.group === 'B')!;
    expect(b.stats.find((s) => s.column === 'gdp')).toMatchObject({ count: 2, mean: 45 });
    expect(b.stats.find((s) => s.column === 'gdp')!.sd).toBeCloseTo(Math.sqrt(50), 12);
  });

  it('exploratory: trends of per-period means', async () => {
    const { analysis, profile } = await run('exploratory');
    if (analysis.type !== 'exploratory') throw new Error(analysis.type);
    expect(profile.timeSeries).toMatchObject({
      columns: ['year'],
      frequency: 'yearly',
      rowsPerPeriod: { min: 2, max: 2 },
    });
    const gdp = analysis.trends!.columns.find((t) => t.column === 'gdp')!;
    // Means per year: 2000 -> 75, 2001 -> 75, 2002 -> 121 (B's gap skipped).
    expect(gdp.first).toEqual({ period: '2000', value: 75 });
    expect(gdp.last).toEqual({ period: '2002', value: 121 });
    expect(gdp.change).toBe(46);
    expect(gdp.pctChange).toBeCloseTo(46 / 75, 12);
    // OLS slope of (0,75), (1,75), (2,121): 23 per year.
    expect(gdp.slopePerPeriod).toBeCloseTo(23, 9);
    expect(gdp.direction).toBe('rising');
  });

  it('quality: every alert with a suggested fix, and scores', async () => {
    const { analysis } = await run('quality');
    if (analysis.type !== 'quality') throw new Error(analysis.type);
    expect(analysis.score.completeness).toBeCloseTo(23 / 24, 12);
    expect(analysis.score.uniqueness).toBe(1);
    const missing = analysis.issues.find((i) => i.type === 'missing' && i.columns[0] === 'gdp');
    expect(missing?.fix).toMatch(/impute it \(mean or median/);
    expect(analysis.issues.every((i) => i.fix.length > 20)).toBe(true);
  });
});

describe('charts', () => {
  const byId = (charts: ChartSpec[], id: string) => charts.find((c) => c.id === id);

  it('draws missingness, a time series, histograms, a heatmap and the most correlated pair', async () => {
    const { charts } = await engine.analyze(await stored('charts.csv', PANEL), 'exploratory');
    const missing = byId(charts, 'missingness');
    expect(missing).toMatchObject({ kind: 'bar', categories: ['country', 'year', 'gdp', 'pop'] });
    if (missing?.kind === 'bar') expect(missing.series[0]!.values[2]).toBeCloseTo(100 / 6, 9);
    const line = byId(charts, 'time-series');
    expect(line).toMatchObject({ kind: 'line', x: ['2000', '2001', '2002'] });
    if (line?.kind === 'line')
      expect(line.series.find((s) => s.name === 'gdp')!.values).toEqual([75, 75, 121]);
    expect(byId(charts, 'histogram-gdp')?.kind).toBe('histogram');
    expect(byId(charts, 'correlation-heatmap')?.kind).toBe('heatmap');
    const scatter = byId(charts, 'scatter-most-correlated');
    expect(scatter).toMatchObject({ kind: 'scatter', total: 5, sampled: 5 });
    for (const c of charts) {
      expect(c.title.length).toBeGreaterThan(3);
      expect(c.description.length).toBeGreaterThan(10);
    }
  });

  it('draws the charts the explorer asks for', async () => {
    const file = await stored('explorer.csv', PANEL);
    const bar = await engine.chart(file, {
      type: 'bar',
      x: 'country',
      y: ['gdp'],
      aggregate: 'sum',
    });
    expect(bar).toMatchObject({
      kind: 'bar',
      categories: ['A', 'B'],
      series: [{ values: [331, 90] }],
    });
    const pie = await engine.chart(file, { type: 'pie', x: 'year' });
    expect(pie).toMatchObject({
      kind: 'pie',
      slices: [
        { label: '2000', value: 2 },
        { label: '2001', value: 2 },
        { label: '2002', value: 2 },
      ],
    });
    const line = await engine.chart(file, {
      type: 'line',
      x: 'year',
      y: ['gdp', 'pop'],
      aggregate: 'max',
    });
    expect(line).toMatchObject({
      kind: 'line',
      x: [2000, 2001, 2002],
      series: [
        { name: 'gdp', values: [100, 110, 121] },
        { name: 'pop', values: [10, 10, 11] },
      ],
    });
    const hist = await engine.chart(file, { type: 'histogram', x: 'pop' });
    if (hist.kind !== 'histogram') throw new Error(hist.kind);
    // pop = 10, 10, 11, 5, 5, 6: four bins of 1.5 from 5 to 11.
    expect(hist.bins.map((b) => b.count)).toEqual([3, 0, 0, 3]);
    const scatter = await engine.chart(file, { type: 'scatter', x: 'pop', y: ['gdp'] });
    expect(scatter).toMatchObject({ kind: 'scatter', total: 5 });
    const network = await engine.chart(file, { type: 'network', y: ['gdp', 'pop', 'year'] });
    if (network.kind !== 'network') throw new Error(network.kind);
    expect(network.nodes).toHaveLength(3);
    expect(
      network.edges.find((e) => e.source === 'gdp' && e.target === 'pop')!.weight,
    ).toBeGreaterThan(0.9);
  });

  it('sums the categories beyond the ninth into one Other slice', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => `c${String(i).padStart(2, '0')},${i + 1}`);
    const pie = await engine.chart(await stored('pie.csv', `k,v\n${rows.join('\n')}\n`), {
      type: 'pie',
      x: 'k',
      y: ['v'],
      aggregate: 'sum',
    });
    if (pie.kind !== 'pie') throw new Error(pie.kind);
    expect(pie.slices).toHaveLength(10);
    expect(pie.slices.at(-1)).toEqual({ label: 'Other', value: 10 + 11 + 12 });
  });

  it('refuses unknown columns and columns of the wrong kind', async () => {
    const file = await stored('bad-chart.csv', PANEL);
    await expect(engine.chart(file, { type: 'histogram', x: 'nope' })).rejects.toThrow(
      'The dataset has no column "nope".',
    );
    await expect(engine.chart(file, { type: 'histogram', x: 'country' })).rejects.toThrow(
      'country is not numeric',
    );
    await expect(engine.chart(file, { type: 'scatter', x: 'gdp' })).rejects.toBeInstanceOf(
      DataError,
    );
    await expect(
      engine.chart(file, { type: 'pie', x: 'country', y: ['gdp'], aggregate: 'mean' }),
    ).rejects.toThrow(/parts of a whole/);
  });
});

describe('row preview', () => {
  it('pages through the rows in file order', async () => {
    const file = await stored('preview.csv', PANEL);
    const page = await engine.preview(file, 2, 3);
    expect(page.total).toBe(6);
    expect(page.columns.map((c) => c.name)).toEqual(['country', 'year', 'gdp', 'pop']);
    expect(page.rows).toEqual([
      ['B', 2000, 50, 5],
      ['B', 2001, 40, 5],
    ]);
    const last = await engine.preview(file, 10, 5);
    expect(last.rows).toEqual([['B', 2002, null, 6]]);
  });
});

describe('loading a file: the header check, then the Parquet copy', () => {
  // Well over the check's first 1 MB read, so the copy has started before the bad line is met.
  const rows = Array.from({ length: 150_000 }, (_, i) => `${i},${(i * 0.37).toFixed(2)},r${i % 7}`);
  const big = ['id,value,region', ...rows].join('\n');
  const exists = (file: string) => {
    try {
      readFileSync(file);
      return true;
    } catch {
      return false;
    }
  };

  it('returns the check and the table of a good file', async () => {
    const file = path.join(dir, 'load-good.csv');
    writeFileSync(file, big);
    const { check, table } = await engine.load(file, 'good.csv', undefined, `${file}.parquet`);
    expect(check).toMatchObject({ format: 'csv', delimiter: ',', records: 150_000 });
    expect(table.rows).toBe(150_000);
    expect(table.columns.map((c) => c.name)).toEqual(['id', 'value', 'region']);
    expect(exists(`${file}.parquet`)).toBe(true);
  });

  it('reports a ragged row deep in the file as the check does, and leaves no Parquet copy', async () => {
    const file = path.join(dir, 'load-ragged.csv');
    writeFileSync(file, `${big}\n150000,1.5\n`);
    const refused = engine.load(file, 'ragged.csv', undefined, `${file}.parquet`);
    await expect(refused).rejects.toBeInstanceOf(DataError);
    await expect(refused).rejects.toThrow(/Row 150001 \(line 150002\) has 2 fields/);
    expect(exists(`${file}.parquet`)).toBe(false);
  });

  it('reports bad UTF-8 deep in the file, and leaves no Parquet copy', async () => {
    const file = path.join(dir, 'load-latin1.csv');
    writeFileSync(
      file,
      Buffer.concat([Buffer.from(`${big}\n150000,1.5,`), Buffer.from([0xe9]), Buffer.from('\n')]),
    );
    const refused = engine.load(file, 'latin1.csv', undefined, `${file}.parquet`);
    await expect(refused).rejects.toThrow(/not valid UTF-8 \(first bad byte 0xe9 on line 150002\)/);
    expect(exists(`${file}.parquet`)).toBe(false);
  });

  it('refuses the sequences UTF-8 forbids that look like it (a surrogate, an overlong form) deep in a text column', async () => {
    for (const [name, bytes] of [
      ['surrogate', [0xed, 0xa0, 0x80]],
      ['overlong', [0xc0, 0xaf]],
    ] as const) {
      const file = path.join(dir, `load-${name}.csv`);
      writeFileSync(
        file,
        Buffer.concat([
          Buffer.from(`${big}\n150000,1.5,a`),
          Buffer.from(bytes),
          Buffer.from('b\n'),
        ]),
      );
      const refused = engine.load(file, `${name}.csv`, undefined, `${file}.parquet`);
      await expect(refused).rejects.toThrow(
        new RegExp(
          `not valid UTF-8 \\(first bad byte 0x${bytes[0].toString(16)} on line 150002\\)`,
        ),
      );
      expect(exists(`${file}.parquet`)).toBe(false);
    }
  });

  it('removes the copy of a file DuckDB reads but the check refuses (one nested JSON object)', async () => {
    const file = path.join(dir, 'load-nested.json');
    writeFileSync(file, '{"country": "A", "series": {"2000": 1, "2001": 2}}\n');
    await expect(engine.load(file, 'nested.json', undefined, `${file}.parquet`)).rejects.toThrow(
      /one object with nested data/,
    );
    expect(exists(`${file}.parquet`)).toBe(false);
  });

  it('counts the records of a CSV from the copy (blank lines skipped, as the check skips them)', async () => {
    const file = path.join(dir, 'load-blank-lines.csv');
    writeFileSync(file, 'a,b\n1,2\n\n3,4\n\n');
    const { check, table } = await engine.load(file, 'blank.csv', undefined, `${file}.parquet`);
    expect(check.records).toBe(2);
    expect(table.rows).toBe(2);
    expect((await engine.check(file, 'blank.csv')).records).toBe(2);
  });

  it('says a CSV with a header and no rows has no data rows, and leaves no copy', async () => {
    const file = path.join(dir, 'load-header-only.csv');
    writeFileSync(file, 'a,b,c\n');
    await expect(engine.load(file, 'header.csv', undefined, `${file}.parquet`)).rejects.toThrow(
      'The file has a header but no data rows.',
    );
    expect(exists(`${file}.parquet`)).toBe(false);
  });

  it("gives DuckDB's reason when DuckDB refuses a file the check accepts (a lone CR)", async () => {
    const file = path.join(dir, 'load-lone-cr.csv');
    writeFileSync(file, `${big}\n1,2,3\r4,5,6\n`);
    const refused = engine.load(file, 'cr.csv', undefined, `${file}.parquet`);
    await expect(refused).rejects.toBeInstanceOf(DataError);
    await expect(refused).rejects.toThrow(/^The CSV file could not be read: /);
    expect(exists(`${file}.parquet`)).toBe(false);
    // The whole check alone accepts it: a lone CR ends a record there.
    expect((await engine.check(file, 'cr.csv')).records).toBe(150_002);
  });

  it('refuses by name or content before any copy starts', async () => {
    const file = path.join(dir, 'load-json.csv');
    writeFileSync(file, '[{"a": 1}]');
    await expect(engine.load(file, 'data.csv', undefined, `${file}.parquet`)).rejects.toThrow(
      /named \.csv but holds JSON/,
    );
    expect(exists(`${file}.parquet`)).toBe(false);
  });
});

describe('a column that counts rows', () => {
  // The same values twice: as a row counter (worked out in closed form) and shuffled (through
  // the table of distinct values), with a far outlier elsewhere so the fences are not trivial.
  const n = 1_237;
  const first = -40;
  const shuffled = Array.from({ length: n }, (_, i) => first + ((i * 389) % n));
  const csv = [
    'counter,shuffled,other',
    ...Array.from({ length: n }, (_, i) => `${first + i},${shuffled[i]},${i % 3}`),
  ].join('\n');

  it('has exactly the statistics of the same values in another order', async () => {
    const p = await engine.profile(await stored('counter.csv', csv));
    const counter = col(p, 'counter');
    const general = col(p, 'shuffled');
    expect(new Set(shuffled).size).toBe(n); // a permutation: the same multiset
    expect(counter).toMatchObject({ count: n, distinct: n, unique: n, missing: 0 });
    expect(counter.topValues).toEqual(general.topValues);
    expect(counter.topValues[0]).toEqual({ value: -40, count: 1, share: 1 / n });
    const a = counter.numeric!;
    const b = general.numeric!;
    expect(a.histogram).toEqual(b.histogram);
    expect(a.quantiles).toEqual(b.quantiles);
    expect(a.outliers).toEqual(b.outliers);
    expect([a.min, a.max, a.sum, a.zeros, a.negatives]).toEqual([
      b.min,
      b.max,
      b.sum,
      b.zeros,
      b.negatives,
    ]);
    expect([a.min, a.max, a.zeros, a.negatives]).toEqual([-40, 1196, 1, 40]);
    for (const k of ['mean', 'sd', 'variance', 'skewness', 'kurtosis', 'cv'] as const) {
      expect(a[k]!, k).toBeCloseTo(b[k]!, 9);
    }
    // The closed forms: variance n(n+1)/12, skewness 0.
    expect(a.variance).toBeCloseTo((n * (n + 1)) / 12, 6);
    expect(a.skewness).toBe(0);
    // A key column: no duplicate rows without hashing whole rows.
    expect(p.duplicateRows).toBe(0);
  });

  it('bins short counters as numpy does (fewer values than bins, and just over)', async () => {
    for (const size of [2, 7, 50, 51, 101]) {
      const reversed = Array.from({ length: size }, (_, i) => size - i);
      const lines = ['k,r', ...reversed.map((r, i) => `${i + 1},${r}`)];
      const p = await engine.profile(await stored(`counter-${size}.csv`, lines.join('\n')));
      expect(col(p, 'k').numeric!.histogram, `${size} rows`).toEqual(
        col(p, 'r').numeric!.histogram,
      );
      expect(col(p, 'k').numeric!.quantiles).toEqual(col(p, 'r').numeric!.quantiles);
    }
  });

  it('is not taken for a counter with a gap, a repeat or a missing value', async () => {
    const lines = [
      'a,b,c,d',
      ...Array.from({ length: 50 }, (_, i) => {
        const gap = i < 25 ? i : i + 1;
        const repeat = i === 49 ? 48 : i;
        const missing = i === 10 ? '' : String(i);
        return `${gap},${repeat},${missing},${49 - i}`;
      }),
    ];
    const p = await engine.profile(await stored('not-counters.csv', lines.join('\n')));
    expect(col(p, 'a').numeric!.max).toBe(50);
    expect(col(p, 'b')).toMatchObject({ distinct: 49, unique: 48 });
    expect(col(p, 'b').topValues[0]).toEqual({ value: 48, count: 2, share: 2 / 50 });
    expect(col(p, 'c')).toMatchObject({ count: 49, missing: 1, distinct: 49 });
    // Counting down is not counting rows, but the numbers are the same as counting up.
    expect(col(p, 'd')).toMatchObject({ distinct: 50, unique: 50 });
    expect(col(p, 'd').numeric!.quantiles.p50).toBe(24.5);
  });
});
