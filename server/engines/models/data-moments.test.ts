import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MomentTarget } from '../../../common/teams/model';
import {
  dataMoments,
  logDiff,
  logHpCycle,
  mergeTargets,
  referenceVariable,
  sampleAutocorr,
  sampleCorr,
  sampleStd,
  type MappedSeries,
} from './data-moments';
import { ModelError } from './errors';

/**
 * The data side of the targets against values computed independently by statsmodels (hpfilter,
 * acf) and numpy on a real quarterly series, US macro data 1959Q1-2009Q3
 * (testdata/data_moments_reference.py wrote testdata/data_moments_reference.json).
 */

interface RefColumn {
  hp1600?: number[];
  hp100?: number[];
  logdiff?: number[];
  hp1600_std?: number;
  hp1600_acf1?: number;
  logdiff_std?: number;
  logdiff_mean?: number;
  logdiff_acf1?: number;
  level_std?: number;
  level_mean?: number;
  level_acf1?: number;
}
const reference = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'testdata/data_moments_reference.json'), 'utf8'),
) as {
  rows: number;
  columns: Record<string, RefColumn>;
  cross: Record<string, { hp1600_relstd_gdp: number; hp1600_corr_gdp: number }>;
};

const csv = readFileSync(
  path.join(
    import.meta.dirname,
    '../../../test/fixtures/data-sources/samples/datasets/us_macro_quarterly_1959q1_2009q3.csv',
  ),
  'utf8',
)
  .trim()
  .split('\n');
const header = (csv[0] as string).split(',').map((h) => h.replace(/"/g, ''));
const column = (name: string): number[] =>
  csv.slice(1).map((line) => Number(line.split(',')[header.indexOf(name)]));

const maxDiff = (a: ArrayLike<number>, b: readonly number[]): number => {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < b.length; i++) m = Math.max(m, Math.abs((a[i] as number) - (b[i] as number)));
  return m;
};

describe('transforms against statsmodels', () => {
  it('reads the 203 quarters', () => {
    expect(column('realgdp')).toHaveLength(reference.rows);
  });

  for (const name of ['realgdp', 'realcons', 'realinv']) {
    it(`HP cycle of log ${name} equals statsmodels' hpfilter to 1e-8 (lambda 1600 and 100)`, () => {
      const ref = reference.columns[name]!;
      expect(maxDiff(logHpCycle(column(name), 1600), ref.hp1600!)).toBeLessThan(1e-8);
      expect(maxDiff(logHpCycle(column(name), 100), ref.hp100!)).toBeLessThan(1e-8);
    });

    it(`log difference of ${name} and its moments equal numpy's`, () => {
      const ref = reference.columns[name]!;
      const d = logDiff(column(name));
      expect(maxDiff(d, ref.logdiff!)).toBeLessThan(1e-12);
      expect(sampleStd(d)).toBeCloseTo(ref.logdiff_std!, 12);
      expect(sampleAutocorr(d)!).toBeCloseTo(ref.logdiff_acf1!, 12);
    });

    it(`std and autocorrelation of the ${name} cycle equal numpy's and statsmodels' acf`, () => {
      const ref = reference.columns[name]!;
      const c = logHpCycle(column(name), 1600);
      expect(Math.abs(sampleStd(c) - ref.hp1600_std!)).toBeLessThan(1e-10);
      expect(Math.abs(sampleAutocorr(c)! - ref.hp1600_acf1!)).toBeLessThan(1e-8);
    });
  }

  it('relative std and correlation with output equal numpy', () => {
    const gdp = logHpCycle(column('realgdp'), 1600);
    for (const name of ['realcons', 'realinv']) {
      const c = logHpCycle(column(name), 1600);
      expect(
        Math.abs(sampleStd(c) / sampleStd(gdp) - reference.cross[name]!.hp1600_relstd_gdp),
      ).toBeLessThan(1e-8);
      expect(Math.abs(sampleCorr(c, gdp)! - reference.cross[name]!.hp1600_corr_gdp)).toBeLessThan(
        1e-8,
      );
    }
  });

  it('refuses the log of a value <= 0, naming the column', () => {
    expect(() => logDiff([1, 2, 0, 3], 'unemp')).toThrow(ModelError);
    expect(() => logHpCycle([1, -2, 3], 1600, 'gap')).toThrow(/Column 'gap' has a value <= 0/);
  });

  it('gives null for the autocorrelation and correlation of a constant series', () => {
    expect(sampleAutocorr([2, 2, 2])).toBeNull();
    expect(sampleCorr([1, 2, 3], [5, 5, 5])).toBeNull();
  });
});

describe('data moments for the model targets', () => {
  const rbcTargets: MomentTarget[] = [
    { variable: 'y', statistic: 'std', value: 0.0181, filter: 'hp', source: 'KR' },
    { variable: 'c', statistic: 'relstd', other: 'y', value: 0.74, filter: 'hp', source: 'KR' },
    { variable: 'n', statistic: 'relstd', other: 'y', value: 0.99, filter: 'hp', source: 'KR' },
    { variable: 'y', statistic: 'autocorr', value: 0.84, filter: 'hp', source: 'KR' },
  ];
  const series: MappedSeries[] = [
    { column: 'realgdp', variable: 'y', transform: 'hp', values: column('realgdp') },
    { column: 'realcons', variable: 'c', transform: 'hp', values: column('realcons') },
    { column: 'unemp', variable: 'u', transform: 'level', values: column('unemp') },
  ];

  it('computes std, relative std to output, autocorrelation and correlation, matching numpy', () => {
    const out = dataMoments({
      series,
      frequency: 'quarterly',
      documented: rbcTargets,
      reference: referenceVariable(rbcTargets, ['y', 'c', 'u']),
      describe: (cols) => `test ${cols.map((c) => c.column).join('/')}`,
    });
    const get = (statistic: string, variable: string) =>
      out.find((t) => t.statistic === statistic && t.variable === variable);
    expect(get('std', 'y')).toMatchObject({ filter: 'hp', lambda: 1600, source: 'test realgdp' });
    expect(get('std', 'y')!.value).toBeCloseTo(reference.columns.realgdp!.hp1600_std!, 10);
    expect(get('autocorr', 'y')!.value).toBeCloseTo(reference.columns.realgdp!.hp1600_acf1!, 8);
    expect(get('relstd', 'c')).toMatchObject({ other: 'y', source: 'test realcons/realgdp' });
    expect(get('relstd', 'c')!.value).toBeCloseTo(reference.cross.realcons!.hp1600_relstd_gdp, 8);
    expect(get('corr', 'c')!.value).toBeCloseTo(reference.cross.realcons!.hp1600_corr_gdp, 8);
    expect(get('std', 'c')).toBeUndefined(); // the model targets relative volatilities
    // unemployment in levels: no cross moment with the HP-filtered output, no filter
    expect(get('std', 'u')).toMatchObject({ filter: 'none' });
    expect(get('std', 'u')!.value).toBeCloseTo(reference.columns.unemp!.level_std!, 10);
    expect(get('autocorr', 'u')!.value).toBeCloseTo(reference.columns.unemp!.level_acf1!, 10);
    expect(out.some((t) => t.variable === 'u' && t.other)).toBe(false);

    // documented facts about mapped variables are replaced, the others kept
    const merged = mergeTargets(rbcTargets, out, new Set(['y', 'c', 'u']));
    expect(merged.filter((t) => t.source === 'KR').map((t) => t.variable)).toEqual(['n']);
  });

  it('takes the mean of growth rates where the model targets one', () => {
    const documented: MomentTarget[] = [
      { variable: 'g', statistic: 'mean', value: 0.0183, filter: 'none', source: 'MP' },
      { variable: 'g', statistic: 'std', value: 0.0357, filter: 'none', source: 'MP' },
    ];
    const out = dataMoments({
      series: [
        { column: 'realcons', variable: 'g', transform: 'logdiff', values: column('realcons') },
      ],
      frequency: 'quarterly',
      documented,
      reference: null,
      describe: () => 'test',
    });
    const ref = reference.columns.realcons!;
    expect(out.find((t) => t.statistic === 'mean')!.value).toBeCloseTo(ref.logdiff_mean!, 12);
    expect(out.find((t) => t.statistic === 'std')!.value).toBeCloseTo(ref.logdiff_std!, 12);
    expect(out.every((t) => t.filter === 'none')).toBe(true);
  });

  it('refuses too few observations after the transform', () => {
    expect(() =>
      dataMoments({
        series: [
          {
            column: 'x',
            variable: 'y',
            transform: 'logdiff',
            values: column('realgdp').slice(0, 20),
          },
        ],
        frequency: 'quarterly',
        documented: [],
        reference: null,
        describe: () => '',
      }),
    ).toThrow(/Column 'x' leaves 19 observations after the transform 'logdiff'; at least 20/);
  });
});
