import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDuckDb } from './duckdb';
import { DataError } from './errors';
import { ingestFile } from './ingest';
import { JSON_LIMITS, checkDataFile, detectDelimiter } from './inspect';

const dir = mkdtempSync(path.join(os.tmpdir(), 'inspect-'));
const db = createDuckDb({ threads: 1 });
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
function file(name: string, content: string | Buffer): string {
  const p = path.join(dir, `${n++}-${name}`);
  writeFileSync(p, content);
  return p;
}

async function refusal(name: string, content: string | Buffer): Promise<DataError> {
  const p = file(name, content);
  try {
    await checkDataFile(p, name);
  } catch (e) {
    expect(e).toBeInstanceOf(DataError);
    return e as DataError;
  }
  throw new Error(`${name} was accepted`);
}

describe('upload content checks refuse bad files with a clear reason', () => {
  it('refuses names other than .csv and .json', async () => {
    const e = await refusal('data.txt', 'a,b\n1,2\n');
    expect(e.code).toBe('unsupported_type');
    expect(e.message).toBe('Only .csv and .json files are accepted (got "data.txt").');
    expect((await refusal('book.xlsx', 'x')).code).toBe('unsupported_type');
  });

  it('refuses binary content whatever the name says', async () => {
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]);
    const e = await refusal('data.csv', zip);
    expect(e.code).toBe('unsupported_type');
    expect(e.message).toMatch(/ZIP archive \(or an Excel \.xlsx workbook\), not CSV or JSON/);
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    expect((await refusal('data.json', png)).message).toMatch(/PNG image/);
    expect((await refusal('data.csv', '%PDF-1.7\n...')).message).toMatch(/PDF document/);
    const nul = Buffer.concat([Buffer.from('a,b\n1,'), Buffer.from([0]), Buffer.from('\n')]);
    expect((await refusal('data.csv', nul)).message).toMatch(/binary data \(NUL bytes\)/);
  });

  it('refuses content that contradicts the name', async () => {
    const e = await refusal('data.csv', '[{"a": 1}]');
    expect(e.code).toBe('type_mismatch');
    expect(e.message).toMatch(/named \.csv but holds JSON/);
    const f = await refusal('data.json', 'a,b\n1,2\n');
    expect(f.code).toBe('type_mismatch');
    expect(f.message).toMatch(/named \.json but does not hold JSON/);
  });

  it('refuses empty files, whitespace and a header without rows', async () => {
    for (const [name, content] of [
      ['e.csv', ''],
      ['w.csv', '  \n\r\n '],
      ['b.csv', '\uFEFF'],
      ['e.json', ''],
    ] as const) {
      const e = await refusal(name, content);
      expect(e.code, name).toBe('empty');
      expect(e.message).toBe('The file is empty.');
    }
    const h = await refusal('h.csv', 'year,gdp\n\n');
    expect(h.code).toBe('empty');
    expect(h.message).toBe('The file has a header but no data rows.');
    const j = await refusal('j.json', '  [ ]  ');
    expect(j.message).toBe('The JSON file holds no records.');
  });

  it('refuses text that is not UTF-8 and names the line of the first bad byte', async () => {
    const latin1 = Buffer.concat([
      Buffer.from('country,capital\nGermany,Berlin\n'),
      Buffer.from([0x43, 0x75, 0x72, 0x61, 0xe7, 0x61, 0x6f]), // "Curaçao" in Latin-1
      Buffer.from(',Willemstad\n'),
    ]);
    const e = await refusal('latin1.csv', latin1);
    expect(e.code).toBe('encoding');
    expect(e.message).toBe(
      'The file is not valid UTF-8 (first bad byte 0xe7 on line 3). Save it as UTF-8 and upload it again.',
    );
    const utf16 = Buffer.from('\uFEFFa,b\n1,2\n', 'utf16le');
    expect((await refusal('u16.csv', utf16)).message).toMatch(/encoded as UTF-16/);
    // A multi-byte character cut off at the very end of the file.
    const cut = Buffer.concat([Buffer.from('a\nx'), Buffer.from([0xc3])]);
    expect((await refusal('cut.csv', cut)).code).toBe('encoding');
  });

  it('names the row, line and field counts of a ragged CSV row', async () => {
    const short = await refusal('short.csv', 'year,gdp,cpi\n2019,1.2,3\n2020,1.4\n2021,1,2\n');
    expect(short.code).toBe('ragged_rows');
    expect(short.message).toMatch(/^Row 2 \(line 3\) has 2 fields but the header has 3\./);
    const long = await refusal('long.csv', 'a;b\n1;2\n3;4;5\n');
    expect(long.message).toMatch(/^Row 2 \(line 3\) has 3 fields but the header has 2\..*";"/);
    // A quoted value spanning lines moves the reported line, not the row.
    const quoted = await refusal('q.csv', 'a,b\n1,"two\nlines"\n3\n');
    expect(quoted.message).toMatch(/^Row 2 \(line 4\) has 1 field but the header has 2\./);
  });

  it('refuses a quote that never closes', async () => {
    const e = await refusal('open.csv', 'a,b\n1,"never closed\n2,3\n');
    expect(e.code).toBe('malformed');
    expect(e.message).toBe('A quoted value opened on line 2 is never closed.');
  });

  it('refuses JSON that is not a list of records', async () => {
    expect((await refusal('nums.json', '[1, 2, 3]')).message).toMatch(
      /^Element 1 of the JSON array \(line 1\) is not an object/,
    );
    expect((await refusal('mixed.json', '[{"a":1},\n"x"]')).message).toMatch(
      /^Element 2 of the JSON array \(line 2\) is not an object/,
    );
    const nested = await refusal('api.json', '{"count": 2, "observations": [{"v": 1}, {"v": 2}]}');
    expect(nested.message).toMatch(/one object with nested data, not a list of records/);
    expect((await refusal('nd.json', '{"a":1}\n42\n')).message).toMatch(
      /^Line 2 is not a JSON object/,
    );
    expect((await refusal('cut.json', '[{"a": 1}, {"a": ')).message).toBe(
      'The JSON file ends before its structure is closed.',
    );
    expect((await refusal('after.json', '[{"a": 1}] [{"a": 2}]')).message).toMatch(
      /after the end of the JSON array/,
    );
  });
});

describe('upload content checks accept and describe good files', () => {
  it('reads a UTF-8 BOM, CRLF line ends, quoted delimiters, quotes and line breaks', async () => {
    const p = file(
      'ok.csv',
      '\uFEFFcountry,note\r\n"Korea, Rep.","said ""hi"""\r\nPeru,"two\r\nlines"\r\n\r\n',
    );
    const check = await checkDataFile(p, 'ok.csv');
    expect(check).toMatchObject({ format: 'csv', delimiter: ',', header: ['country', 'note'] });
    expect(check.records).toBe(2);
  });

  it('detects semicolon, tab and pipe delimiters from the header', () => {
    expect(detectDelimiter(Buffer.from('a;b;c\n1,5;2;3\n'))).toBe(';');
    expect(detectDelimiter(Buffer.from('a\tb\n1\t2\n'))).toBe('\t');
    expect(detectDelimiter(Buffer.from('"x,y"|b\n1|2\n'))).toBe('|');
  });

  it('accepts JSON arrays of records and NDJSON, and counts records', async () => {
    const arr = await checkDataFile(file('a.json', '[{"a":1,"b":"x"},{"a":2,"b":"}"}]'), 'a.json');
    expect(arr).toMatchObject({ format: 'json', jsonLayout: 'array', records: 2 });
    const nd = await checkDataFile(file('n.json', '{"a":1}\n{"a":2,"n":{"x":[1]}}\n'), 'n.json');
    expect(nd).toMatchObject({ format: 'json', jsonLayout: 'ndjson', records: 2 });
    const one = await checkDataFile(file('o.json', '{"a":1,"b":"flat"}'), 'o.json');
    expect(one).toMatchObject({ jsonLayout: 'ndjson', records: 1 });
  });

  it('streams a file larger than its read chunks, with characters split across chunks', async () => {
    // 3 MB of rows with two-byte characters: the 1 MB chunk ends fall inside characters.
    const row = 'Curaçao,Ålesund,é\n';
    const body = 'a,b,c\n' + row.repeat(Math.ceil((3 << 20) / row.length));
    const p = file('big.csv', body);
    const check = await checkDataFile(p, 'big.csv');
    expect(check.records).toBe(Math.ceil((3 << 20) / row.length));
    // A bad byte deep in the file is still found and placed on its line.
    const line = body.split('\n').length; // body ends with a line break: the next line's number
    writeFileSync(
      p,
      Buffer.concat([Buffer.from(body), Buffer.from([0x78, 0x2c, 0x79, 0x2c, 0xff, 0x0a])]),
    );
    await expect(checkDataFile(p, 'big.csv')).rejects.toThrow(`on line ${line})`);
  });
});

describe('the line-at-a-time fast path agrees with the full CSV state machine', () => {
  it('counts rows across chunks with quoted line breaks, CRLF and blank lines in between', async () => {
    const plain = 'a,b,c\r\n'.repeat(150_000); // about 1 MB: chunk ends fall inside lines
    const body =
      'x,y,z\n' + plain + '1,"two\nlines, with a comma",3\n\n' + plain + '  \n' + '4,5,6';
    const check = await checkDataFile(file('mixed.csv', body), 'mixed.csv');
    expect(check.records).toBe(300_002);
    // A ragged row far into the file: row and line numbers still right.
    const ragged = 'x,y,z\n' + '1,2,3\n'.repeat(200_000) + '1,2\n';
    const e = await refusal('far.csv', ragged);
    expect(e.message).toMatch(/^Row 200001 \(line 200002\) has 2 fields but the header has 3\./);
    // The same after a quoted line break (the line number moves, the row does not).
    const after = 'x,y\n"a\nb",1\n' + '1,2\n'.repeat(1000) + '1\n';
    expect((await refusal('after.csv', after)).message).toMatch(/^Row 1002 \(line 1004\)/);
  });

  it('checks whole chunks of plain lines at once, and still names blank, short and long lines', async () => {
    // LF only, no quotes: each 1 MB chunk's whole lines go through one pattern pass.
    const rows = (d: string, n: number) => `1${d}2${d}3\n`.repeat(n);
    for (const d of [',', ';', '\t', '|']) {
      const body = `x${d}y${d}z\n` + rows(d, 200_000) + '\n  \n' + rows(d, 200_000);
      const check = await checkDataFile(file(`plain-${d.charCodeAt(0)}.csv`, body), 'p.csv');
      expect(check, `delimiter ${JSON.stringify(d)}`).toMatchObject({
        delimiter: d,
        records: 400_000,
      });
    }
    // A row with one field too many deep in a chunk: the pattern could match its tail, so the
    // leftover must still send the chunk back line by line.
    const long = 'x,y,z\n' + rows(',', 300_000) + '1,2,3,4\n' + rows(',', 10);
    expect((await refusal('long.csv', long)).message).toMatch(
      /^Row 300001 \(line 300002\) has 4 fields but the header has 3\./,
    );
    const short = 'x,y,z\n' + rows(',', 250_000) + '1,2\n' + rows(',', 10);
    expect((await refusal('short.csv', short)).message).toMatch(
      /^Row 250001 \(line 250002\) has 2 fields/,
    );
    // One column: blank lines are not rows, so the pattern is not used at all.
    const single = 'x\n' + '7\n'.repeat(300_000) + '\n' + '8\n';
    expect((await checkDataFile(file('single.csv', single), 'single.csv')).records).toBe(300_001);
  });

  it('places a bad byte after a byte-order mark on its line', async () => {
    const p = file(
      'bom-bad.csv',
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from('a,b\n1,2\n'),
        Buffer.from([0x33, 0x2c, 0xe9, 0x0a]),
      ]),
    );
    await expect(checkDataFile(p, 'bom-bad.csv')).rejects.toThrow('first bad byte 0xe9 on line 3)');
  });
});

describe('ingest into Parquet', () => {
  async function ingest(name: string, content: string) {
    const p = file(name, content);
    const check = await checkDataFile(p, name);
    return ingestFile(db, p, check, `${p}.parquet`);
  }

  it('drops the empty column a trailing delimiter makes, and keeps a blank-named column with data', async () => {
    const t = await ingest('trail.csv', 'a,b,\n1,2,\n3,4,\n');
    expect(t.columns.map((c) => c.name)).toEqual(['a', 'b']);
    expect(t.dropped).toHaveLength(1);
    const kept = await ingest('kept.csv', 'a,\n1,x\n2,\n');
    expect(kept.columns).toHaveLength(2);
    expect(kept.dropped).toEqual([]);
  });

  it('re-reads with every row when a late value does not fit the sampled type', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => `${i},${i * 2}`);
    rows.push('30000,n/a');
    const t = await ingest('late.csv', `id,value\n${rows.join('\n')}\n`);
    expect(t.rows).toBe(30_001);
    expect(t.columns.find((c) => c.name === 'value')?.type).toBe('VARCHAR');
  });

  it('keeps nested JSON values as JSON text', async () => {
    const t = await ingest('nested.json', '[{"id":1,"tags":["a","b"],"m":{"x":1}},{"id":2}]');
    expect(t.columns).toEqual([
      { name: 'id', type: 'BIGINT' },
      { name: 'tags', type: 'VARCHAR' },
      { name: 'm', type: 'VARCHAR' },
    ]);
  });

  it('turns JSON the reader cannot parse into a clear error without the server path', async () => {
    const p = file('broken.json', '[{"a": 1}, {"a": tru}]');
    const check = await checkDataFile(p, 'broken.json');
    const err = await ingestFile(db, p, check, `${p}.parquet`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).message).toMatch(/^The JSON file could not be read: /);
    expect((err as DataError).message).not.toContain(dir);
  });

  it('writes the Parquet copy once and reuses it', async () => {
    const p = file('once.csv', 'a\n1\n2\n');
    const check = await checkDataFile(p, 'once.csv');
    const first = await ingestFile(db, p, check, `${p}.parquet`);
    writeFileSync(p, 'a\n1\n2\n3\n');
    const again = await ingestFile(db, p, check, `${p}.parquet`);
    expect(first.rows).toBe(2);
    expect(again.rows).toBe(2);
  });
});

describe('JSON files past the shape limits are refused before DuckDB reads them', () => {
  const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

  it('refuses nesting deeper than the limit, naming it and the line', async () => {
    const e = await refusal('deep.json', `[\n{"a": ${deep(5000)}}]`);
    expect(e.code).toBe('too_complex');
    expect(e.message).toBe(
      `The JSON file nests objects and arrays deeper than the limit of ${JSON_LIMITS.depth} ` +
        'levels (line 2). Records of data need only a few levels.',
    );
    // Exactly at the limit is accepted: the outer array, the record and 30 more levels.
    const atLimit = file('ok.json', `[{"a": ${deep(JSON_LIMITS.depth - 2)}}]`);
    expect((await checkDataFile(atLimit, 'ok.json')).records).toBe(1);
    const ndjson = await refusal('deep.json', `{"a": 1}\n{"b": ${deep(40)}}\n`);
    expect(ndjson.code).toBe('too_complex');
  });

  it('refuses more distinct field names than the limit, counted at any depth', async () => {
    const names = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => `"k${from + i}": 1`).join(', ');
    const wide = await refusal('wide.json', `[{${names(0, JSON_LIMITS.fieldNames + 1)}}]`);
    expect(wide.code).toBe('too_complex');
    expect(wide.message).toMatch(/more than the limit of 10000 distinct field names/);
    // Spread over records and nested objects, the names still count once each.
    const records = Array.from({ length: 101 }, (_, r) => `{"n": {${names(r * 100, 100)}}}`);
    expect((await refusal('spread.json', `[${records.join(',\n')}]`)).code).toBe('too_complex');
    // The same names repeated in every record are a few columns, whatever the file's length.
    const many = Array.from({ length: 20_000 }, (_, r) => `{"year": ${r}, "gdp": {"v": 1}}`);
    const fine = file('many.json', `[${many.join(',')}]`);
    expect((await checkDataFile(fine, 'many.json')).records).toBe(20_000);
    // Strings that are values, not names, are not counted.
    const values = Array.from({ length: 12_000 }, (_, r) => `{"name": "v${r}"}`);
    expect((await checkDataFile(file('v.json', `[${values.join(',')}]`), 'v.json')).records).toBe(
      12_000,
    );
  });

  it('refuses a field name longer than the limit, also across read chunks', async () => {
    const long = 'x'.repeat(JSON_LIMITS.fieldNameBytes + 1);
    expect((await refusal('long.json', `[{"${long}": 1}]`)).message).toMatch(
      /longer than the limit of 1024 bytes/,
    );
    // A name that starts just before the scanner's 1 MiB read boundary and ends after it.
    const pad = 'p'.repeat((1 << 20) - 20);
    const split = file('split.json', `[{"pad": "${pad}", "name_across_chunks": 1}]`);
    expect((await checkDataFile(split, 'split.json')).records).toBe(1);
    const splitLong = `[{"pad": "${pad}", "${'y'.repeat(JSON_LIMITS.fieldNameBytes + 5)}": 1}]`;
    expect((await refusal('split-long.json', splitLong)).code).toBe('too_complex');
  });
});
