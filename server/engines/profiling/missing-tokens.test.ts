import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ColumnProfile, DatasetProfile } from '../../../common/teams/data';
import { createDatasetFiles } from './files';
import { createProfilingEngine, missingTokensFile } from './index';

/** Missing-value tokens read on load, counted per column and listed in the profile. */

const engine = createProfilingEngine({ threads: 1 });
const dir = mkdtempSync(path.join(os.tmpdir(), 'tokens-'));
afterAll(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
async function loaded(name: string, content: string, missingTokens?: string[]) {
  const file = path.join(dir, `${n++}-${name}`);
  writeFileSync(file, content);
  const parquet = `${file}.parquet`;
  const { table } = await engine.load(file, name, undefined, parquet, { missingTokens });
  return { table, parquet, profile: await engine.profile(parquet) };
}

const col = (p: DatasetProfile, name: string): ColumnProfile =>
  p.columns.find((c) => c.name === name)!;

/** An R export (write.csv): NA unquoted for a missing value, strings quoted. */
const R_EXPORT = [
  '"country","year","gdp","note"',
  '"A",2000,1.5,"ok"',
  '"A",2001,NA,"NA"',
  '"B",2000,2.5,""',
  '"B",2001,.,"x"',
  '"C",2000,,-',
  '"C",2001,4,"y"',
].join('\n');

describe('missing-value tokens in a CSV file', () => {
  it('keeps a numeric column with NA, "." and empty cells numeric, and counts each token', async () => {
    const { profile, table } = await loaded('r.csv', R_EXPORT);
    const gdp = col(profile, 'gdp');
    expect(gdp.kind).toBe('numeric');
    expect(gdp.storageType).toBe('DOUBLE');
    expect(gdp).toMatchObject({ count: 3, missing: 3 });
    // The statistics of 1.5, 2.5 and 4 alone.
    expect(gdp.numeric!.mean).toBeCloseTo(8 / 3, 14);
    // Most frequent first; ties in the order of the recognised list.
    expect(gdp.missingTokens).toEqual([
      { token: '', count: 1 },
      { token: 'NA', count: 1 },
      { token: '.', count: 1 },
    ]);
    // A text column: the quoted "NA", the quoted empty string and the dash are missing too.
    expect(col(profile, 'note')).toMatchObject({ count: 3, missing: 3 });
    expect(col(profile, 'note').missingTokens).toEqual([
      { token: '', count: 1 },
      { token: 'NA', count: 1 },
      { token: '-', count: 1 },
    ]);
    expect(col(profile, 'year').missingTokens).toEqual([]);
    expect(profile.missingTokens).toEqual({
      recognised: ['', 'NA', 'N/A', 'NaN', 'null', '.', '-'],
    });
    expect(table.missingTokens?.columns.gdp).toEqual(gdp.missingTokens);
  });

  it('reads only the tokens chosen for the upload', async () => {
    const { profile } = await loaded('r2.csv', R_EXPORT, ['NA', '']);
    // "." is a value now, so gdp is text, with two tokens found.
    const gdp = col(profile, 'gdp');
    expect(gdp.kind).not.toBe('numeric');
    expect(gdp.missing).toBe(2);
    expect(gdp.missingTokens).toEqual([
      { token: 'NA', count: 1 },
      { token: '', count: 1 },
    ]);
    expect(col(profile, 'note').missingTokens).toEqual([
      { token: 'NA', count: 1 },
      { token: '', count: 1 },
    ]);
    expect(profile.missingTokens?.recognised).toEqual(['NA', '']);
  });

  it('reads an empty cell as text when the empty cell is not chosen', async () => {
    const { profile } = await loaded('r3.csv', 'a,b\n1,x\n,y\nNA,z\n', ['NA']);
    expect(col(profile, 'a').missing).toBe(1);
    expect(col(profile, 'a').missingTokens).toEqual([{ token: 'NA', count: 1 }]);
  });

  it('finds no tokens in a file without any, and writes the record beside the copy', async () => {
    const { profile, parquet } = await loaded('clean.csv', 'a,b\n1,2\n3,4\n');
    expect(profile.columns.every((c) => c.missingTokens?.length === 0)).toBe(true);
    expect(existsSync(missingTokensFile(parquet))).toBe(true);
  });

  it('moves the record with the copy into the dataset store', async () => {
    const { parquet } = await loaded('moved.csv', 'a\n1\nNA\n');
    const files = createDatasetFiles(path.join(dir, 'store'));
    const id = '00000000-0000-4000-8000-000000000001';
    await files.adopt(id, { parquet });
    const profile = await engine.profile(files.parquet(id));
    expect(col(profile, 'a').missingTokens).toEqual([{ token: 'NA', count: 1 }]);
    expect(existsSync(missingTokensFile(parquet))).toBe(false);
  });

  it('reads a record with only its known fields, and one of another shape as none', async () => {
    const { parquet } = await loaded('record.csv', 'a\n1\nNA\n');
    const record = missingTokensFile(parquet);
    writeFileSync(
      record,
      JSON.stringify({
        recognised: ['NA'],
        columns: { a: [{ token: 'NA', count: 1, extra: true }] },
        extra: 1,
      }),
    );
    const profile = await engine.profile(parquet);
    expect(profile.missingTokens).toEqual({ recognised: ['NA'] });
    expect(col(profile, 'a').missingTokens).toEqual([{ token: 'NA', count: 1 }]);
    for (const other of [
      '[]',
      'not json',
      JSON.stringify({ recognised: ['NA'], columns: [] }),
      JSON.stringify({ recognised: [1], columns: {} }),
      JSON.stringify({ recognised: ['NA'], columns: { a: [{ token: 'NA', count: '1' }] } }),
      JSON.stringify({ recognised: ['NA'], columns: { a: { token: 'NA', count: 1 } } }),
    ]) {
      writeFileSync(record, other);
      expect((await engine.profile(parquet)).missingTokens, other).toBeNull();
    }
  });

  it('says the tokens are unknown for Parquet data made in the app', async () => {
    const { parquet } = await loaded('src.csv', 'a,b\n1,x\nNA,y\n3,z\n');
    const out = path.join(dir, 'derived.parquet');
    await engine.features(parquet, { transformations: [{ column: 'a', op: 'square' }] }, out);
    const profile = await engine.profile(out);
    expect(profile.missingTokens).toBeNull();
    expect(col(profile, 'a').missingTokens).toBeUndefined();
  });
});

describe('missing-value tokens in a JSON file', () => {
  it('turns a column of numbers and "NA" strings into a numeric column, counting the tokens', async () => {
    const json = JSON.stringify([
      { id: 1, gdp: 1.5, label: 'a' },
      { id: 2, gdp: 'NA', label: '' },
      { id: 3, gdp: 2, label: 'NA' },
      { id: 4, gdp: null, label: 'b' },
      { id: 5, gdp: '-', label: 'c' },
      { id: 6, gdp: 'NA', label: 'd' },
    ]);
    const { profile } = await loaded('data.json', json);
    const gdp = col(profile, 'gdp');
    expect(gdp.kind).toBe('numeric');
    expect(gdp).toMatchObject({ count: 2, missing: 4 });
    expect(gdp.numeric!.mean).toBe(1.75);
    // JSON's own null is missing but not a token.
    expect(gdp.missingTokens).toEqual([
      { token: 'NA', count: 2 },
      { token: '-', count: 1 },
    ]);
    expect(col(profile, 'label')).toMatchObject({ count: 4, missing: 2 });
    expect(col(profile, 'label').missingTokens).toEqual([
      { token: '', count: 1 },
      { token: 'NA', count: 1 },
    ]);
  });

  it('keeps a text column text when its other values are words', async () => {
    const json = JSON.stringify([{ s: 'x' }, { s: 'NA' }, { s: 'y' }]);
    const { profile } = await loaded('words.json', json);
    expect(col(profile, 's')).toMatchObject({ kind: 'categorical', count: 2, missing: 1 });
  });
});
