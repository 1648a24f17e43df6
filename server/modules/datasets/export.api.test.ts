import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedDatasetReplySchema } from '../../../common/teams/data';
import { createDuckDb } from '../../engines/profiling/duckdb';
import { literal } from '../../engines/profiling/sql';
import { ADMIN, bearer, createTestApp, createUser, login, type TestApp } from '../../../test/app';
import { client, type Client } from '../../../test/client';
import { MULTIPART_HEADERS, multipartBody } from '../../../test/multipart';
import { attachmentDisposition, downloadFileName } from './export';

/**
 * Downloads of a dataset's stored data: the CSV and Parquet DuckDB writes hold the values that
 * were uploaded (read back with DuckDB), for uploaded and engineered datasets alike; the
 * catalog's visibility rules (404 for others' datasets), and a clear 400 for a format not offered.
 */

let t: TestApp;
let alice: Client;
let bob: Client;
let admin: Client;
let aliceToken: string;
let uploadedId: string;
let engineeredId: string;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'ea-export-test-'));
const duck = createDuckDb({ threads: 1 });

// A value with a comma, one with a quote, a non-ASCII name, a missing value, a negative double.
const CSV = [
  'country,year,gdp,note',
  'Côte d’Ivoire,2019,61.5,"big, growing"',
  'Chad,2020,-0.25,"say ""hi"""',
  'Peru,2021,,plain',
].join('\n');
const EXPECTED = [
  { country: 'Côte d’Ivoire', year: 2019, gdp: 61.5, note: 'big, growing' },
  { country: 'Chad', year: 2020, gdp: -0.25, note: 'say "hi"' },
  { country: 'Peru', year: 2021, gdp: null, note: 'plain' },
];

async function explorerUpload(token: string, name: string, content: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/agents/data-team/datasets/upload',
    headers: { ...bearer(token), ...MULTIPART_HEADERS },
    payload: multipartBody({ name }, [{ name: 'gdp.csv', content, type: 'text/csv' }]),
  });
  expect(res.statusCode, res.body).toBe(201);
  return derivedDatasetReplySchema.parse(res.json()).data.dataset.id;
}

/** Rows of a file as DuckDB reads it, ordered by year, numbers as JavaScript numbers. */
async function readBack(file: string, reader: 'read_parquet' | 'read_csv') {
  return duck.withConnection(async (conn) => {
    const result = await conn.runAndReadAll(
      `SELECT country, CAST(year AS INTEGER) AS year, CAST(gdp AS DOUBLE) AS gdp, note FROM ${reader}(${literal(file)}) ORDER BY year`,
    );
    return result.getRowObjectsJson();
  });
}

const tokens = new Map<Client, string>();

/** The raw reply (a file, or the JSON error envelope as `body`). */
async function download(c: Client, id: string, format: string | null) {
  const raw = await t.app.inject({
    method: 'GET',
    url: `/api/datasets/${id}/download${format === null ? '' : `?format=${format}`}`,
    headers: bearer(tokens.get(c)!),
  });
  const json = raw.headers['content-type']?.toString().startsWith('application/json');
  return {
    status: raw.statusCode,
    raw,
    body: (json ? raw.json() : {}) as { success?: boolean; message?: string },
  };
}

beforeAll(async () => {
  t = await createTestApp();
  const a = await createUser(t.app);
  const b = await createUser(t.app);
  aliceToken = a.accessToken;
  alice = client(t.app, a.accessToken);
  bob = client(t.app, b.accessToken);
  const adminToken = (await login(t.app, ADMIN.email, ADMIN.password)).accessToken;
  admin = client(t.app, adminToken);
  tokens.set(alice, a.accessToken).set(bob, b.accessToken).set(admin, adminToken);
  uploadedId = await explorerUpload(aliceToken, 'GDP / growth: "2019"', CSV);
  const features = await alice.post(`/api/agents/data-team/datasets/${uploadedId}/features`, {
    name: 'GDP squared',
    spec: { transformations: [{ column: 'gdp', op: 'square' }] },
  });
  expect(features.status, JSON.stringify(features.body)).toBe(201);
  engineeredId = derivedDatasetReplySchema.parse(features.body).data.dataset.id;
}, 120_000);

afterAll(async () => {
  duck.close();
  rmSync(scratch, { recursive: true, force: true });
  await t.close();
});

describe('dataset downloads', () => {
  it('writes CSV that reads back to the uploaded values, with a safe file name', async () => {
    const res = await download(alice, uploadedId, 'csv');
    expect(res.status).toBe(200);
    expect(res.raw.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.raw.headers['content-disposition']).toBe(
      `attachment; filename="GDP growth 2019.csv"; filename*=UTF-8''GDP%20growth%202019.csv`,
    );
    expect(res.raw.headers['cache-control']).toBe('no-store');
    const text = res.raw.body;
    expect(text.split('\n')[0]).toBe('country,year,gdp,note');
    const file = path.join(scratch, 'back.csv');
    writeFileSync(file, text);
    expect(await readBack(file, 'read_csv')).toEqual(EXPECTED);
  });

  it('writes Parquet that DuckDB reads back to the same values and types', async () => {
    const res = await download(alice, uploadedId, 'parquet');
    expect(res.status).toBe(200);
    expect(res.raw.headers['content-type']).toBe('application/vnd.apache.parquet');
    expect(res.raw.headers['content-disposition']).toContain('filename="GDP growth 2019.parquet"');
    const bytes = res.raw.rawPayload;
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');
    expect(Number(res.raw.headers['content-length'])).toBe(bytes.length);
    const file = path.join(scratch, 'back.parquet');
    writeFileSync(file, bytes);
    expect(await readBack(file, 'read_parquet')).toEqual(EXPECTED);
    const types = await duck.withConnection(async (conn) =>
      (
        await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${literal(file)})`)
      ).getRowObjectsJson(),
    );
    expect(types.map((r) => [r.column_name, r.column_type])).toEqual([
      ['country', 'VARCHAR'],
      ['year', 'BIGINT'],
      ['gdp', 'DOUBLE'],
      ['note', 'VARCHAR'],
    ]);
  });

  it('downloads an engineered dataset with its new column', async () => {
    const res = await download(alice, engineeredId, 'csv');
    expect(res.status).toBe(200);
    const [header, first] = res.raw.body.split('\n');
    expect(header).toContain('gdp_squared');
    expect(first).toContain('3782.25');
    expect(res.raw.headers['content-disposition']).toContain('filename="GDP squared.csv"');
  });

  it('defaults to CSV without a format', async () => {
    const res = await download(alice, uploadedId, null);
    expect(res.status).toBe(200);
    expect(res.raw.headers['content-type']).toBe('text/csv; charset=utf-8');
  });

  it('refuses a format it does not offer with 400, naming the ones it does', async () => {
    for (const format of ['dta', 'xlsx', 'CSV', '']) {
      const res = await download(alice, uploadedId, format);
      expect(res.status, format).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toContain('format must be csv or parquet');
    }
  });

  it("answers 404 for another user's dataset, an unknown id and an entry without data", async () => {
    expect((await download(bob, uploadedId, 'csv')).status).toBe(404);
    expect((await download(bob, uploadedId, 'parquet')).status).toBe(404);
    const unknown = await download(alice, '00000000-0000-4000-8000-000000000000', 'csv');
    expect(unknown.status).toBe(404);
    const manual = await alice.post('/api/datasets', {
      name: 'Described by hand',
      source: 'custom',
      dataType: 'cross_sectional',
    });
    expect(manual.status).toBe(201);
    const res = await download(alice, manual.body.data.dataset.id, 'csv');
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('no stored data');
    expect((await download(alice, 'not-a-uuid', 'csv')).status).toBe(400);
  });

  it('lets an administrator download any dataset and nobody without a token', async () => {
    expect((await download(admin, uploadedId, 'parquet')).status).toBe(200);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/datasets/${uploadedId}/download?format=csv`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('download file names', () => {
  it('keeps readable names and drops path separators, quotes and control characters', () => {
    expect(downloadFileName('GDP (2020)', 'csv')).toBe('GDP (2020).csv');
    expect(downloadFileName('../../etc/passwd', 'parquet')).toBe('etc passwd.parquet');
    expect(downloadFileName('a\u0000b\r\nc"d', 'csv')).toBe('a b c d.csv');
    expect(downloadFileName('  ', 'csv')).toBe('dataset.csv');
    expect(downloadFileName('x'.repeat(300), 'csv')).toBe(`${'x'.repeat(120)}.csv`);
    expect(attachmentDisposition('Côte d’Ivoire.csv')).toBe(
      `attachment; filename="C_te d_Ivoire.csv"; filename*=UTF-8''C%C3%B4te%20d%E2%80%99Ivoire.csv`,
    );
  });
});
