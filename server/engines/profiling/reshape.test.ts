import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReshapeSpec } from '../../../common/teams/data';
import { createDuckDb, type Cell } from './duckdb';
import { isDataError } from './errors';
import { createProfilingEngine } from './index';
import { reshape, yearOf } from './reshape';

/** Reshaping wide <-> long against hand-written tables and the World Bank's real WDI file. */

const WDI = path.resolve(
  import.meta.dirname,
  '../../../test/fixtures/data-sources/samples/datasets/wdi_gdp_per_capita_current_usd_1960_2021.csv',
);

const engine = createProfilingEngine({ threads: 1 });
const db = createDuckDb({ threads: 1 });
const dir = mkdtempSync(path.join(os.tmpdir(), 'reshape-'));
afterAll(() => {
  engine.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
async function stored(name: string, content: string | null, from?: string): Promise<string> {
  const file = from ?? path.join(dir, `${n++}-${name}`);
  if (content !== null) writeFileSync(file, content);
  const parquet = path.join(dir, `${n++}-${name}.parquet`);
  await engine.load(file, name, undefined, parquet);
  return parquet;
}
const out = () => path.join(dir, `${n++}-out.parquet`);

async function table(file: string, limit = 500, offset = 0) {
  const page = await engine.preview(file, limit, offset);
  return {
    columns: page.columns.map((c) => `${c.name}:${c.type}`),
    rows: page.rows as Cell[][],
    total: page.total,
  };
}

async function refusal(file: string, spec: ReshapeSpec, limits = {}) {
  try {
    await reshape(db, file, spec, out(), limits);
  } catch (e) {
    if (isDataError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('the reshape was not refused');
}

const WIDE = 'iso,name,2000,2001,2002\nAAA,Aland,1.5,,3\nBBB,Bria,4,5,6\n';
const LONG = 'iso,year,gdp,pop\nAAA,2000,1.5,10\nAAA,2001,,11\nBBB,2000,4,20\nBBB,2002,6,21\n';

describe('year column names', () => {
  it('reads 1960, WDI DataBank\'s "1960 [YR1960]" and "YR1960" as years, nothing else', () => {
    expect(yearOf('1960')).toBe(1960);
    expect(yearOf('1960 [YR1960]')).toBe(1960);
    expect(yearOf('YR2023')).toBe(2023);
    expect(yearOf('Country Code')).toBeNull();
    expect(yearOf('19601')).toBeNull();
    expect(yearOf('column66')).toBeNull();
  });
});

describe('wide to long', () => {
  it('turns the year columns into rows: year as an integer, empty cells missing', async () => {
    const file = await stored('wide.csv', WIDE);
    const o = out();
    const report = await reshape(
      db,
      file,
      { direction: 'wide_to_long', idColumns: ['iso', 'name'] },
      o,
    );
    expect(report.rows).toBe(6);
    expect(await table(o)).toEqual({
      columns: ['iso:VARCHAR', 'name:VARCHAR', 'year:INTEGER', 'value:DOUBLE'],
      rows: [
        ['AAA', 'Aland', 2000, 1.5],
        ['AAA', 'Aland', 2001, null],
        ['AAA', 'Aland', 2002, 3],
        ['BBB', 'Bria', 2000, 4],
        ['BBB', 'Bria', 2001, 5],
        ['BBB', 'Bria', 2002, 6],
      ],
      total: 6,
    });
    expect(report.notes).toContain('1 empty cells are kept as missing values.');
  });

  it('drops empty cells when asked, names the new columns and takes chosen value columns', async () => {
    const file = await stored('wide.csv', WIDE);
    const o = out();
    const report = await reshape(
      db,
      file,
      {
        direction: 'wide_to_long',
        idColumns: ['iso'],
        valueColumns: ['2001', '2002'],
        timeName: 'yr',
        valueName: 'gdp',
        dropMissing: true,
      },
      o,
    );
    expect(await table(o)).toMatchObject({
      columns: ['iso:VARCHAR', 'yr:INTEGER', 'gdp:DOUBLE'],
      rows: [
        ['AAA', 2002, 3],
        ['BBB', 2001, 5],
        ['BBB', 2002, 6],
      ],
    });
    expect(report.notes.join(' ')).toContain(
      'Left out (neither id nor value columns): name, 2000.',
    );
  });

  it('keeps column names as text when they are not years', async () => {
    const file = await stored('m.csv', 'id,gdp,pop\na,1,2\n');
    const o = out();
    await reshape(
      db,
      file,
      {
        direction: 'wide_to_long',
        idColumns: ['id'],
        valueColumns: ['gdp', 'pop'],
        timeName: 'variable',
      },
      o,
    );
    expect(await table(o)).toMatchObject({
      columns: ['id:VARCHAR', 'variable:VARCHAR', 'value:DOUBLE'],
      rows: [
        ['a', 'gdp', 1],
        ['a', 'pop', 2],
      ],
    });
  });

  it("reshapes the World Bank's WDI file (BOM, trailing empty column, 3,609 empty cells)", async () => {
    const file = await stored('wdi.csv', null, WDI);
    const o = out();
    const report = await reshape(
      db,
      file,
      {
        direction: 'wide_to_long',
        idColumns: ['Country Name', 'Country Code', 'Indicator Name', 'Indicator Code'],
      },
      o,
    );
    // 266 countries and aggregates x 62 years (1960..2021); the trailing empty column is left out.
    expect(report.rows).toBe(266 * 62);
    expect(report.columns).toEqual([
      { name: 'Country Name', type: 'VARCHAR' },
      { name: 'Country Code', type: 'VARCHAR' },
      { name: 'Indicator Name', type: 'VARCHAR' },
      { name: 'Indicator Code', type: 'VARCHAR' },
      { name: 'year', type: 'INTEGER' },
      { name: 'value', type: 'DOUBLE' },
    ]);
    const first = await table(o, 62, 0);
    expect(first.rows[0]).toEqual([
      'Aruba',
      'ABW',
      'GDP per capita (current US$)',
      'NY.GDP.PCAP.CD',
      1960,
      null,
    ]);
    // Aruba's 1986 value, as the file has it.
    expect(first.rows[26]?.slice(4)).toEqual([1986, 6283.00144344602]);
    expect(first.rows.at(-1)?.[4]).toBe(2021);
    expect(report.notes[0]).toBe(
      'Wide to long: 266 rows × 62 value columns (1960 … 2021) became 16,492 rows of Country Name, Country Code, Indicator Name, Indicator Code, year and value.',
    );
    // 3,609 empty cells in all, 266 of them in the trailing column (python's csv module counts
    // 3,343 in the year columns).
    expect(report.notes).toContain('3,343 empty cells are kept as missing values.');

    // And back: the wide table again, one column per year.
    const back = out();
    const wide = await reshape(
      db,
      o,
      {
        direction: 'long_to_wide',
        idColumns: ['Country Name', 'Country Code', 'Indicator Name', 'Indicator Code'],
        timeColumn: 'year',
        valueColumn: 'value',
      },
      back,
    );
    expect(wide.rows).toBe(266);
    expect(wide.columns.map((c) => c.name).slice(3, 7)).toEqual([
      'Indicator Code',
      '1960',
      '1961',
      '1962',
    ]);
    expect(wide.columns).toHaveLength(4 + 62);
    const aruba = (await table(back, 1, 0)).rows[0]!;
    expect(aruba.slice(0, 2)).toEqual(['Aruba', 'ABW']);
    expect(aruba[4 + 26]).toBe(6283.00144344602);
  });

  it('refuses unknown columns, no value columns, clashing names and too many rows', async () => {
    const file = await stored('wide.csv', WIDE);
    expect(await refusal(file, { direction: 'wide_to_long', idColumns: ['country'] })).toEqual({
      code: 'unknown_column',
      message: 'The dataset has no column "country" (it has: iso, name, 2000, 2001, 2002).',
    });
    const noYears = await stored('m.csv', 'id,gdp,pop\na,1,2\n');
    expect(await refusal(noYears, { direction: 'wide_to_long', idColumns: ['id'] })).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('none of the other columns is named by a year') as string,
    });
    expect(
      await refusal(file, { direction: 'wide_to_long', idColumns: ['iso'], valueColumns: ['iso'] }),
    ).toMatchObject({ code: 'invalid_request' });
    expect(
      await refusal(file, { direction: 'wide_to_long', idColumns: ['iso'], timeName: 'iso' }),
    ).toMatchObject({
      message: '"iso" is already an id column: choose another name for the new column.',
    });
    expect(
      await refusal(file, { direction: 'wide_to_long', idColumns: ['iso'] }, { maxRows: 5 }),
    ).toEqual({
      code: 'too_complex',
      message:
        'The reshaped dataset would have 6 rows, more than the 5 a reshape may write. Choose fewer value columns or filter the rows first.',
    });
    expect(await refusal(file, { direction: 'wide_to_long', idColumns: [] })).toMatchObject({
      code: 'invalid_request',
      message: 'idColumns: choose at least one id column',
    });
  });
});

describe('long to wide', () => {
  it('makes one column per year, one row per id, in the order ids first appear', async () => {
    const file = await stored('long.csv', LONG);
    const o = out();
    const report = await reshape(
      db,
      file,
      {
        direction: 'long_to_wide',
        idColumns: ['iso'],
        timeColumn: 'year',
        valueColumn: 'gdp',
        prefix: 'gdp_',
      },
      o,
    );
    expect(await table(o)).toEqual({
      columns: ['iso:VARCHAR', 'gdp_2000:DOUBLE', 'gdp_2001:DOUBLE', 'gdp_2002:DOUBLE'],
      rows: [
        ['AAA', 1.5, null, null],
        ['BBB', 4, null, 6],
      ],
      total: 2,
    });
    expect(report.notes[0]).toBe(
      'Long to wide: 4 rows became 2 rows of iso, with one column of gdp for each of the 3 values of year (gdp_2000, gdp_2001, gdp_2002).',
    );
  });

  it('refuses a pair of id and time that appears twice, and too many columns', async () => {
    const file = await stored('long.csv', LONG);
    expect(
      await refusal(file, {
        direction: 'long_to_wide',
        idColumns: ['iso'],
        timeColumn: 'gdp',
        valueColumn: 'gdp',
      }),
    ).toMatchObject({ message: 'The time column and the value column must be different columns.' });
    const twice = await stored('d.csv', 'iso,year,v\nA,2000,1\nA,2000,2\n');
    expect(
      await refusal(twice, {
        direction: 'long_to_wide',
        idColumns: ['iso'],
        timeColumn: 'year',
        valueColumn: 'v',
      }),
    ).toEqual({
      code: 'invalid_request',
      message:
        'iso = A, year = 2000 appears in 2 rows: each combination of the id columns and year must appear once. Add the columns that tell those rows apart to the id columns, or aggregate first.',
    });
    expect(
      await refusal(
        file,
        { direction: 'long_to_wide', idColumns: ['iso'], timeColumn: 'year', valueColumn: 'pop' },
        { maxColumns: 2 },
      ),
    ).toMatchObject({ code: 'too_complex' });
  });
});
