import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Cell } from './duckdb';
import { createProfilingEngine } from './index';

/** Data Integration, Feature Engineering and checkpoint cleaning against hand-computed tables. */

const engine = createProfilingEngine({ threads: 1 });
const dir = mkdtempSync(path.join(os.tmpdir(), 'transforms-'));
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
const out = () => path.join(dir, `${n++}-out.parquet`);

/** The whole (small) output table as { columns, rows }. */
async function table(file: string): Promise<{ columns: string[]; rows: Cell[][] }> {
  const page = await engine.preview(file, 500, 0);
  return { columns: page.columns.map((c) => c.name), rows: page.rows };
}

const GDP = 'iso,year,gdp\nAAA,2000,10\nAAA,2001,12\nBBB,2000,5\nCCC,2000,7\n';
const POP = 'code,yr,pop\nAAA,2000,1\nAAA,2001,2\nBBB,2000,3\nDDD,2000,4\n';

describe('data integration', () => {
  it('joins on two keys with different names (inner, left, full)', async () => {
    const [l, r] = [await stored('gdp.csv', GDP), await stored('pop.csv', POP)];
    const keys = [
      { left: 'iso', right: 'code' },
      { left: 'year', right: 'yr' },
    ];
    const inner = out();
    const report = await engine.integrate(l, r, { method: 'join', keys }, inner);
    expect(report.rows).toBe(3);
    expect(report.notes[0]).toBe('join of 4 and 4 rows on iso = code, year = yr: 3 rows.');
    expect(await table(inner)).toEqual({
      columns: ['iso', 'year', 'gdp', 'pop'],
      rows: [
        ['AAA', 2000, 10, 1],
        ['AAA', 2001, 12, 2],
        ['BBB', 2000, 5, 3],
      ],
    });
    const left = out();
    await engine.integrate(l, r, { method: 'join', keys, joinType: 'left' }, left);
    expect((await table(left)).rows.at(-1)).toEqual(['CCC', 2000, 7, null]);
    const full = out();
    await engine.integrate(l, r, { method: 'join', keys, joinType: 'full' }, full);
    expect((await table(full)).rows).toContainEqual(['DDD', 2000, null, 4]);
    expect((await table(full)).rows).toHaveLength(5);
  });

  it('suffixes clashing column names from the right side', async () => {
    const a = await stored('a.csv', 'id,value\n1,10\n2,20\n');
    const b = await stored('b.csv', 'id,value\n1,100\n');
    const o = out();
    await engine.integrate(a, b, { method: 'join', keys: [{ left: 'id', right: 'id' }] }, o);
    expect(await table(o)).toEqual({
      columns: ['id', 'value', 'value_right'],
      rows: [[1, 10, 100]],
    });
  });

  it('unions: every left row plus right rows with new keys, aligned by name', async () => {
    const a = await stored('ua.csv', 'id,x\n1,a\n2,b\n');
    const b = await stored('ub.csv', 'id,x,extra\n2,B,9\n3,c,8\n');
    const o = out();
    const report = await engine.integrate(
      a,
      b,
      { method: 'union', keys: [{ left: 'id', right: 'id' }] },
      o,
    );
    expect(report.rows).toBe(3);
    expect(await table(o)).toEqual({
      columns: ['id', 'x', 'extra'],
      rows: [
        [1, 'a', null],
        [2, 'b', null],
        [3, 'c', 8],
      ],
    });
  });

  it('intersects: the left rows whose keys the right has', async () => {
    const [l, r] = [await stored('ig.csv', GDP), await stored('ip.csv', POP)];
    const o = out();
    await engine.integrate(
      l,
      r,
      { method: 'intersect', keys: [{ left: 'iso', right: 'code' }] },
      o,
    );
    expect((await table(o)).rows.map((row) => row[0])).toEqual(['AAA', 'AAA', 'BBB']);
  });

  it('compares keys of different types as text and says so', async () => {
    const a = await stored('ta.csv', 'year,v\n2000,1\n2001,2\n');
    const b = await stored('tb.json', '[{"year":"2000","w":5}]');
    const o = out();
    const report = await engine.integrate(
      a,
      b,
      { method: 'join', keys: [{ left: 'year', right: 'year' }] },
      o,
    );
    expect(report.rows).toBe(1);
    expect(report.notes).toContain(
      'Keys year and year have different types and were compared as text.',
    );
  });

  it('refuses unknown key columns with the columns it has', async () => {
    const [l, r] = [await stored('kg.csv', GDP), await stored('kp.csv', POP)];
    await expect(
      engine.integrate(l, r, { method: 'join', keys: [{ left: 'iso', right: 'iso' }] }, out()),
    ).rejects.toThrow('The second dataset has no column "iso" (it has: code, yr, pop).');
    await expect(engine.integrate(l, r, { method: 'join', keys: [] }, out())).rejects.toThrow(
      /at least one key/,
    );
  });
});

const SERIES = 'date,value\n2020-01-01,1\n2020-02-01,\n2020-03-01,4\n2020-04-01,0\n2020-05-01,8\n';

describe('feature engineering', () => {
  it('log, sqrt, square and standardize, with undefined values left empty and counted', async () => {
    const file = await stored('f.csv', 'x\n1\n4\n0\n-1\n16\n');
    const o = out();
    const report = await engine.features(
      file,
      {
        transformations: [
          { column: 'x', op: 'log' },
          { column: 'x', op: 'sqrt' },
          { column: 'x', op: 'square' },
          { column: 'x', op: 'standardize' },
        ],
      },
      o,
    );
    expect(report.notes).toContain('log_x: 2 values <= 0 have no logarithm and were left empty.');
    expect(report.notes).toContain(
      'sqrt_x: 1 negative values have no square root and were left empty.',
    );
    const t = await table(o);
    expect(t.columns).toEqual(['x', 'log_x', 'sqrt_x', 'x_squared', 'std_x']);
    expect(t.rows.map((r) => r[1])).toEqual([0, Math.log(4), null, null, Math.log(16)]);
    expect(t.rows.map((r) => r[2])).toEqual([1, 2, 0, null, 4]);
    expect(t.rows.map((r) => r[3])).toEqual([1, 16, 0, 1, 256]);
    // mean 4, sample sd sqrt(((-3)^2 + 0 + 16 + 25 + 144) / 4) = sqrt(48.5)
    const sd = Math.sqrt(48.5);
    t.rows.forEach((r, i) => expect(r[4]).toBeCloseTo(([1, 4, 0, -1, 16][i]! - 4) / sd, 12));
  });

  it('lag and pct_change follow the date order, with a zero giving an empty change', async () => {
    // Rows out of order in the file: the date decides.
    const file = await stored(
      'lag.csv',
      'date,value\n2020-03-01,4\n2020-01-01,2\n2020-02-01,0\n2020-04-01,6\n',
    );
    const o = out();
    await engine.features(
      file,
      {
        transformations: [
          { column: 'value', op: 'lag' },
          { column: 'value', op: 'pct_change' },
          { column: 'value', op: 'lag', periods: 2 },
        ],
      },
      o,
    );
    const t = await table(o);
    expect(t.columns).toEqual(['date', 'value', 'lag1_value', 'pct_change_value', 'lag2_value']);
    // File order is kept; values by date: Jan 2, Feb 0, Mar 4, Apr 6.
    expect(t.rows.map((r) => r.slice(1))).toEqual([
      [4, 0, null, 2],
      [2, null, null, null],
      [0, 2, -1, null],
      [6, 4, 0.5, 0],
    ]);
  });

  it('lags within each series of a panel, and refuses a panel without the series column', async () => {
    const file = await stored(
      'plag.csv',
      'country,year,gdp\nA,2000,100\nB,2000,50\nA,2001,110\nB,2001,40\n',
    );
    const o = out();
    await engine.features(
      file,
      { transformations: [{ column: 'gdp', op: 'pct_change' }], partitionBy: ['country'] },
      o,
    );
    const change = (await table(o)).rows.map((r) => r[3] as number | null);
    expect(change.slice(0, 2)).toEqual([null, null]);
    expect(change[2]).toBeCloseTo(0.1, 12);
    expect(change[3]).toBeCloseTo(-0.2, 12);
    await expect(
      engine.features(file, { transformations: [{ column: 'gdp', op: 'lag' }] }, out()),
    ).rejects.toThrow(
      /Several rows share a period of year: choose the column\(s\) that identify each series/,
    );
  });

  it('missing values: drop, impute (mean, median, mode) and fill (constant, forward)', async () => {
    const file = await stored('miss.csv', SERIES);
    const drop = out();
    const r1 = await engine.features(file, { missing: { method: 'drop' } }, drop);
    expect(r1.rows).toBe(4);
    expect(r1.notes[0]).toBe('Dropped 1 of 5 rows with a missing value in any column.');
    const mean = out();
    const r2 = await engine.features(file, { missing: { method: 'impute', impute: 'mean' } }, mean);
    expect((await table(mean)).rows.map((r) => r[1])).toEqual([1, 3.25, 4, 0, 8]);
    expect(r2.notes[0]).toBe('value: 1 missing values imputed with the mean (3.25).');
    const median = out();
    await engine.features(file, { missing: { method: 'impute', impute: 'median' } }, median);
    expect((await table(median)).rows[1]![1]).toBe(2.5);
    const constant = out();
    await engine.features(file, { missing: { method: 'fill', value: -9 } }, constant);
    expect((await table(constant)).rows[1]![1]).toBe(-9);
    const forward = out();
    await engine.features(file, { missing: { method: 'fill', columns: ['value'] } }, forward);
    expect((await table(forward)).rows.map((r) => r[1])).toEqual([1, 1, 4, 0, 8]);
    await expect(
      engine.features(
        file,
        { missing: { method: 'fill', value: 'n/a', columns: ['value'] } },
        out(),
      ),
    ).rejects.toThrow('value is numeric; fill it with a number, not "n/a".');
  });

  it('converts monthly data to quarterly (mean and sum) per series', async () => {
    const rows = ['s,date,v'];
    for (const s of ['A', 'B']) {
      for (let m = 1; m <= 6; m++)
        rows.push(`${s},2020-${String(m).padStart(2, '0')}-15,${m * (s === 'A' ? 1 : 10)}`);
    }
    const file = await stored('months.csv', rows.join('\n'));
    const mean = out();
    const report = await engine.features(
      file,
      { frequency: { target: 'quarterly', groupBy: ['s'] } },
      mean,
    );
    expect(await table(mean)).toEqual({
      columns: ['period', 's', 'n_obs', 'v'],
      rows: [
        ['2020-01-01', 'A', 3, 2],
        ['2020-04-01', 'A', 3, 5],
        ['2020-01-01', 'B', 3, 20],
        ['2020-04-01', 'B', 3, 50],
      ],
    });
    expect(report.notes[0]).toMatch(
      /^Converted 12 rows to 4 quarterly rows \(mean of 1 numeric columns per period and s\)/,
    );
    const sum = out();
    await engine.features(
      file,
      { frequency: { target: 'yearly', aggregation: 'sum', groupBy: ['s'] } },
      sum,
    );
    expect((await table(sum)).rows).toEqual([
      ['2020-01-01', 'A', 6, 21],
      ['2020-01-01', 'B', 6, 210],
    ]);
    const auto = out();
    await engine.features(file, { frequency: { target: 'auto', groupBy: ['s'] } }, auto);
    expect((await table(auto)).rows).toHaveLength(12);
  });

  it('refuses a frequency change without a time index, and empty requests', async () => {
    const file = await stored('notime.csv', 'a,b\n1,2\n');
    await expect(engine.features(file, { frequency: { target: 'yearly' } }, out())).rejects.toThrow(
      /needs a date column/,
    );
    await expect(engine.features(file, {}, out())).rejects.toThrow(
      'Choose at least one operation.',
    );
    await expect(
      engine.features(file, { transformations: [{ column: 'zz', op: 'log' }] }, out()),
    ).rejects.toThrow('The dataset has no column "zz" (it has: a, b).');
  });
});

describe('checkpoint cleaning', () => {
  const DATA = [
    'x,y,c',
    '1,10,a',
    '2,20,a',
    '3,30,b',
    '4,,b',
    '5,50,',
    '6,60,a',
    '7,70,b',
    '8,80,a',
    '9,90,b',
    '10,100,a',
    '11,110,a',
    '1000,120,b',
    '1,10,a',
  ].join('\n');

  it('drops duplicates, removes IQR outliers and imputes the mean and the mode', async () => {
    const file = await stored('clean.csv', DATA);
    const o = out();
    const report = await engine.clean(file, { imputation: 'mean', outliers: 'iqr' }, o);
    expect(report.notes).toContain('Dropped 1 duplicate rows (the first of each is kept).');
    expect(report.notes).toContain(
      'Removed 1 row with an outlier by the 1.5 IQR rule in 2 numeric columns.',
    );
    const t = await table(o);
    expect(t.rows).toHaveLength(11);
    // y without the outlier row and the gap: 10, 20, 30, 50, ..., 110 -> mean 620 / 10 = 62.
    expect(t.rows[3]).toEqual([4, 62, 'b']);
    // c's gap takes the most frequent value among the kept rows ('a': 6 of 10).
    expect(t.rows[4]).toEqual([5, 50, 'a']);
    expect(report.notes.at(-1)).toBe('13 rows in, 11 rows out.');
  });

  it('caps z-score outliers instead of removing them', async () => {
    const values = [...Array.from({ length: 30 }, (_, i) => 10 + (i % 5)), 1000];
    const file = await stored('cap.csv', `v\n${values.join('\n')}\n`);
    const o = out();
    const report = await engine.clean(
      file,
      { imputation: 'none', outliers: 'z-score', outlierAction: 'cap', dropDuplicates: false },
      o,
    );
    const mean = values.reduce((a, b) => a + b) / values.length;
    const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1));
    const t = await table(o);
    expect(t.rows).toHaveLength(31);
    expect(t.rows.at(-1)![0]).toBeCloseTo(mean + 3 * sd, 9);
    expect(report.notes[0]).toMatch(/^v: 1 values capped to/);
  });

  it('leaves missing values missing when capping, and skips columns without spread', async () => {
    const values = [...Array.from({ length: 30 }, (_, i) => String(10 + (i % 5))), '', '1000'];
    const file = await stored(
      'capnull.csv',
      `v,k\n${values.map((v, i) => `${v},${i === 3 ? 1 : i === 4 ? 2 : 0}`).join('\n')}\n`,
    );
    const o = out();
    const report = await engine.clean(
      file,
      { imputation: 'none', outliers: 'iqr', outlierAction: 'cap', dropDuplicates: false },
      o,
    );
    const rows = (await table(o)).rows;
    expect(rows[30]![0]).toBeNull();
    expect(rows[31]![0]).toBeLessThan(1000);
    // k is 0 in all rows but two: its IQR is 0, so the rule is not applied to it.
    expect(rows[3]![1]).toBe(1);
    expect(rows[4]![1]).toBe(2);
    expect(report.notes).toContain(
      'Outliers not judged in k: an IQR of 0 makes the rule flag every value but the typical one.',
    );
  });

  it('imputes by the mean of the nearest rows (KNN)', async () => {
    // y = 10 x; the gap at x = 5 has neighbours x = 3, 4, 6, 7 and 2 or 8 (tie: first row wins).
    const rows = ['x,y', ...[1, 2, 3, 4, 6, 7, 8, 9].map((x) => `${x},${x * 10}`), '5,'];
    const file = await stored('knn.csv', rows.join('\n'));
    const o = out();
    const report = await engine.clean(file, { imputation: 'knn', outliers: 'none' }, o);
    const t = await table(o);
    expect(t.rows.at(-1)).toEqual([5, (40 + 60 + 30 + 70 + 20) / 5]);
    expect(report.notes).toContain(
      'y: 1 of 1 missing values imputed with the mean of the 5 nearest rows (KNN over 1 numeric columns).',
    );
  });

  it('removes a far point with the isolation forest, the same way every time', async () => {
    const rows = ['a,b'];
    for (let i = 0; i < 200; i++) rows.push(`${(i % 20) / 2},${Math.floor(i / 20)}`);
    rows.push('500,500');
    const file = await stored('iforest.csv', rows.join('\n'));
    const first = out();
    const r1 = await engine.clean(
      file,
      { imputation: 'none', outliers: 'isolation-forest' },
      first,
    );
    const second = out();
    const r2 = await engine.clean(
      file,
      { imputation: 'none', outliers: 'isolation-forest' },
      second,
    );
    expect((await table(first)).rows).not.toContainEqual([500, 500]);
    expect(r1.rows).toBe(r2.rows);
    expect(r1.rows).toBeGreaterThan(190);
    expect(r1.notes.find((x) => x.startsWith('Removed'))).toMatch(
      /isolation forest scored above 0.6/,
    );
  });
});
