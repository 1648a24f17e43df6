import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorReplySchema } from '../../../../common/api';
import { datasetReplySchema } from '../../../../common/datasets';
import {
  cleaningFeedback,
  datasetChartReplySchema,
  datasetRowsReplySchema,
  dataStatusReplySchema,
  derivedDatasetReplySchema,
  profilingCheckpointSchema,
  type DataStatusReply,
} from '../../../../common/teams/data';
import { teamLogsReplySchema, teamStartReplySchema } from '../../../../common/teams/shared';
import { createTestApp, createUser, bearer, type TestApp } from '../../../../test/app';
import { client } from '../../../../test/client';
import {
  FRED_TEST_KEY,
  KAGGLE_TEST_KEY,
  KAGGLE_TEST_USER,
  startDataFixtures,
  type DataFixtures,
} from '../../../../test/fixtures/data-sources/server';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../../test/llm-server';
import { createDatasetFiles } from '../../../engines/profiling/files';
import { createDatasetsStore } from '../../../modules/datasets/store';
import { storageUsed } from '../../../platform/storage-quota';
import { removeOrphanedFiles } from './stored-files';

/**
 * The Data team through its routes (/api/agents/data-team) on a whole server, with the World
 * Bank, FRED, IMF and URL sources answered by the fixture server: uploads good and bad, the
 * checkpoint with and without cleaning, every dataset registered in the catalog, and the Data
 * Explorer's routes.
 */

const samples = path.join(import.meta.dirname, '../../../../test/fixtures/data-sources/samples');
const sample = (p: string) => readFileSync(path.join(samples, p));
const BASE = '/api/agents/data-team';
const UPLOAD_LIMIT = 600_000;

let fixtures: DataFixtures;
let t: TestApp;

beforeAll(async () => {
  fixtures = await startDataFixtures();
  t = await createTestApp({
    WORLDBANK_BASE_URL: fixtures.urls.worldbank,
    FRED_BASE_URL: fixtures.urls.fred,
    IMF_BASE_URL: fixtures.urls.imf,
    KAGGLE_BASE_URL: fixtures.urls.kaggle,
    DATA_URL_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    DATA_UPLOAD_LIMIT_BYTES: String(UPLOAD_LIMIT),
    PROFILING_THREADS: '1',
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fixtures?.close();
});

/** A multipart/form-data body with text fields and one file part. */
function multipart(
  fields: Record<string, string>,
  file?: { name: string; content: Buffer | string },
) {
  const boundary = '----data-team-test-boundary';
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function upload(
  token: string,
  url: string,
  fields: Record<string, string>,
  file?: { name: string; content: Buffer | string },
) {
  const body = multipart(fields, file);
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload,
  });
  const reply: unknown = res.json();
  return { status: res.statusCode, body: reply };
}

async function status(token: string, id: string): Promise<DataStatusReply> {
  const res = await client(t.app, token).get(`${BASE}/status/${id}`);
  expect(res.status).toBe(200);
  return dataStatusReplySchema.parse(res.body);
}

async function waitFor(
  token: string,
  id: string,
  done: (s: DataStatusReply) => boolean,
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  let last: DataStatusReply | undefined;
  while (Date.now() < deadline) {
    last = await status(token, id);
    if (done(last)) return last;
    if (last.status === 'error' || last.status === 'completed') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`session ${id} is ${last?.status} at ${last?.phase}: ${last?.error ?? ''}`);
}
const atCheckpoint = (s: DataStatusReply) => s.status === 'waiting_for_input';
const completed = (s: DataStatusReply) => s.status === 'completed';
const failed = (s: DataStatusReply) => s.status === 'error';

describe('an uploaded CSV from start to completed', () => {
  let token: string;
  let sessionId: string;
  beforeAll(async () => {
    token = (await createUser(t.app)).accessToken;
  });

  it('starts from a multipart upload with the config JSON, and stops at the profile checkpoint', async () => {
    const res = await upload(
      token,
      `${BASE}/upload`,
      { config: JSON.stringify({ analysisType: 'descriptive' }) },
      {
        name: 'mroz.csv',
        content: sample('datasets/wooldridge_mroz.csv'),
      },
    );
    expect(res.status).toBe(201);
    sessionId = teamStartReplySchema.parse(res.body).sessionId;
    const s = await waitFor(token, sessionId, atCheckpoint);
    expect(s).toMatchObject({
      phase: 2,
      checkpoint: 1,
      dataSource: 'upload',
      analysisType: 'descriptive',
    });
    expect(s.source).toMatchObject({
      origin: 'upload',
      fileName: 'mroz.csv',
      format: 'csv',
      records: 753,
    });
    expect(s.dataset).toMatchObject({ name: 'mroz', rows: 753 });
    expect(s.dataset!.columns).toHaveLength(23);
    expect(s.profile).toMatchObject({ rowCount: 753, columnCount: 23, missingCells: 650 });
    expect(s.checkpointData).toMatchObject({
      rows: 753,
      cleaned: false,
      // The Settings defaults: mean imputation, z-score outliers.
      cleaningDefaults: { imputation: 'mean', outliers: 'z-score' },
    });
    expect(s.logs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Received mroz\.csv \(100074 bytes\)$/),
        'Loaded 753 rows and 23 columns into DuckDB; wrote the Parquet copy',
        'Registered "mroz" in the datasets catalog',
      ]),
    );
  });

  it('registered the dataset in the catalog with the fields the profile found', async () => {
    const s = await status(token, sessionId);
    const res = await client(t.app, token).get(`/api/datasets/${s.dataset!.datasetId}`);
    expect(res.status).toBe(200);
    const dataset = datasetReplySchema.parse(res.body).data.dataset;
    expect(dataset).toMatchObject({
      name: 'mroz',
      source: 'custom',
      dataType: 'cross_sectional',
      recordCount: 753,
      format: 'csv',
      integrationLevel: 'full',
    });
    expect(dataset.fields.find((f) => f.name === 'wage')).toMatchObject({ type: 'numeric' });
    expect(dataset.fields.find((f) => f.name === 'inlf')).toMatchObject({ type: 'boolean' });
  });

  it('continues on Approved to the descriptive analysis, with charts and no interpretation without a model', async () => {
    const fb = await client(t.app, token).post(`${BASE}/feedback`, {
      sessionId,
      feedback: 'Approved',
    });
    expect(fb.status).toBe(200);
    const s = await waitFor(token, sessionId, completed);
    expect(s.phase).toBe(4);
    expect(s.results).toMatchObject({ analysisType: 'descriptive', interpretation: null });
    expect(s.results!.interpretationNote).toMatch(/No language model is configured/);
    expect(s.results!.datasetId).toBe(s.dataset!.datasetId);
    const analysis = s.results!.analysis;
    if (analysis.type !== 'descriptive') throw new Error(analysis.type);
    expect(analysis.numeric.find((r) => r.column === 'wage')).toMatchObject({ count: 428 });
    expect(s.results!.visualizations.map((v) => v.kind)).toEqual(
      expect.arrayContaining(['bar', 'histogram', 'heatmap', 'scatter']),
    );
    const logs = await client(t.app, token).get(`${BASE}/logs/${sessionId}`);
    expect(teamLogsReplySchema.parse(logs.body).logs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Computed the descriptive analysis and \d+ charts from the data$/),
        expect.stringMatching(/^No language model is configured/),
      ]),
    );
  });

  it('previews the stored rows page by page', async () => {
    const s = await status(token, sessionId);
    const res = await client(t.app, token).get(
      `${BASE}/datasets/${s.dataset!.datasetId}/rows?limit=2&offset=1`,
    );
    expect(res.status).toBe(200);
    const page = datasetRowsReplySchema.parse(res.body).data;
    expect(page.total).toBe(753);
    expect(page.rows).toHaveLength(2);
    expect(page.rows[0]!.slice(0, 3)).toEqual([2, 1, 1656]);
  });

  it('keeps other users out of the session and the dataset (404)', async () => {
    const other = (await createUser(t.app)).accessToken;
    const s = await status(token, sessionId);
    expect((await client(t.app, other).get(`${BASE}/status/${sessionId}`)).status).toBe(404);
    expect(
      (await client(t.app, other).get(`${BASE}/datasets/${s.dataset!.datasetId}/rows`)).status,
    ).toBe(404);
    expect(
      (await client(t.app, other).post(`${BASE}/feedback`, { sessionId, feedback: 'Approved' }))
        .status,
    ).toBe(404);
  });
});

describe('cleaning at the checkpoint', () => {
  it('cleans as asked, registers the cleaned copy, profiles it again and analyses it', async () => {
    const token = (await createUser(t.app)).accessToken;
    const res = await upload(
      token,
      `${BASE}/upload`,
      { config: JSON.stringify({ analysisType: 'quality' }) },
      {
        name: 'mroz.csv',
        content: sample('datasets/wooldridge_mroz.csv'),
      },
    );
    const id = teamStartReplySchema.parse(res.body).sessionId;
    const first = await waitFor(token, id, atCheckpoint);
    const fb = await client(t.app, token).post(`${BASE}/feedback`, {
      sessionId: id,
      feedback: cleaningFeedback({ imputation: 'median', outliers: 'iqr', outlierAction: 'cap' }),
    });
    expect(fb.status).toBe(200);
    const again = await waitFor(token, id, (s) => atCheckpoint(s) && s.cleaning !== null);
    expect(again.cleaning).toMatchObject({
      spec: { imputation: 'median', outliers: 'iqr', outlierAction: 'cap', dropDuplicates: true },
      rowsBefore: 753,
      rowsAfter: 753,
      sourceDatasetId: first.dataset!.datasetId,
    });
    // Median imputation leaves no gaps in wage and lwage.
    expect(again.profile!.missingCells).toBe(0);
    expect(again.checkpointData).toMatchObject({ cleaned: true, datasetName: 'mroz (cleaned)' });
    await client(t.app, token).post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved' });
    const done = await waitFor(token, id, completed);
    const cleanedId = profilingCheckpointSchema.parse(again.checkpointData).datasetId;
    expect(done.results!.datasetId).toBe(cleanedId);
    expect(done.results!.analysis.type).toBe('quality');
    const catalog = await client(t.app, token).get(`/api/datasets/${cleanedId}`);
    const description = datasetReplySchema.parse(catalog.body).data.dataset.description;
    expect(description).toMatch(/^mroz, cleaned at the Data Profiling checkpoint: /);
    expect(description).toMatch(/wage: 325 missing values imputed with the median \(/);
    expect(description).toMatch(/Outliers not judged in kidslt6: an IQR of 0/);
  });
});

describe('bad uploads get a clear 4xx, never a crash', () => {
  let token: string;
  beforeAll(async () => {
    token = (await createUser(t.app)).accessToken;
  });
  const config = { config: JSON.stringify({ analysisType: 'profile' }) };
  const cases: [string, string | Buffer, number, RegExp][] = [
    ['data.txt', 'a,b\n1,2\n', 400, /^file: Only \.csv and \.json files are accepted/],
    ['data.csv', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]), 400, /ZIP archive/],
    ['data.csv', '', 400, /^file: The file is empty\.$/],
    ['data.csv', 'a,b\n', 400, /header but no data rows/],
    [
      'data.csv',
      Buffer.from([0x61, 0x0a, 0xe9, 0x0a]),
      400,
      /not valid UTF-8 \(first bad byte 0xe9 on line 2\)/,
    ],
    ['data.csv', 'a,b,c\n1,2,3\n4,5\n', 400, /Row 2 \(line 3\) has 2 fields but the header has 3/],
    ['data.json', 'a,b\n1,2\n', 400, /named \.json but does not hold JSON/],
    ['data.json', '[1,2]', 400, /is not an object/],
    [
      'big.csv',
      `a\n${'1\n'.repeat(UPLOAD_LIMIT)}`,
      413,
      /^file: larger than the \d+ bytes upload limit$/,
    ],
  ];
  it.each(cases)('%s (%#)', async (name, content, code, message) => {
    const res = await upload(token, `${BASE}/upload`, config, { name, content });
    expect(res.status).toBe(code);
    expect(res.body).toMatchObject({ success: false });
    expect(errorReplySchema.parse(res.body).error).toMatch(message);
  });

  it('refuses a request without a file, a bad config, and JSON instead of a form', async () => {
    const none = await upload(token, `${BASE}/upload`, config);
    expect(none).toMatchObject({ status: 400, body: { error: 'Please upload a data file first' } });
    const bad = await upload(
      token,
      `${BASE}/upload`,
      { config: '{"analysisType":"magic"}' },
      { name: 'a.csv', content: 'a\n1\n' },
    );
    expect(bad.status).toBe(400);
    expect(errorReplySchema.parse(bad.body).error).toMatch(/^config: analysisType must be one of/);
    const json = await client(t.app, token).post(`${BASE}/upload`, { file: 'x' });
    expect(json.status).toBe(400);
  });
});

describe('public APIs and URLs', () => {
  let token: string;
  beforeAll(async () => {
    token = (await createUser(t.app)).accessToken;
  });

  it('fetches a World Bank indicator to a completed exploratory analysis with trends', async () => {
    const res = await client(t.app, token).post(`${BASE}/fetch-dataset`, {
      source: 'world_bank',
      datasetId: 'JPN/NY.GDP.MKTP.CD',
      analysisType: 'exploratory',
    });
    expect(res.status).toBe(201);
    const id = teamStartReplySchema.parse(res.body).sessionId;
    await waitFor(token, id, atCheckpoint);
    await client(t.app, token).post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved' });
    const s = await waitFor(token, id, completed);
    expect(s.source).toMatchObject({
      origin: 'world_bank',
      originId: 'JPN/NY.GDP.MKTP.CD',
      license: 'CC BY 4.0',
    });
    expect(s.profile!.timeSeries).toMatchObject({ frequency: 'yearly', periods: 50 });
    const analysis = s.results!.analysis;
    if (analysis.type !== 'exploratory') throw new Error(analysis.type);
    expect(analysis.trends!.columns.find((c) => c.column === 'value')).toMatchObject({
      first: { period: '1971' },
      last: { period: '2019' },
      direction: 'rising',
    });
    const catalog = await client(t.app, token).get(`/api/datasets/${s.dataset!.datasetId}`);
    expect(datasetReplySchema.parse(catalog.body).data.dataset).toMatchObject({
      source: 'world_bank',
      dataType: 'time_series',
      dateRange: { start: '1971', end: '2020' },
      metadata: { apiAvailable: true },
    });
  });

  it('ends in an error that says what is wrong for an unknown id', async () => {
    const res = await client(t.app, token).post(`${BASE}/fetch-dataset`, {
      source: 'world_bank',
      datasetId: 'NO.SUCH.INDICATOR',
    });
    const s = await waitFor(token, teamStartReplySchema.parse(res.body).sessionId, failed);
    expect(s.error).toMatch(/World Bank: no data for "NO.SUCH.INDICATOR"/);
  });

  it('refuses before starting: malformed ids, a blank id, FRED without a key, Kaggle without credentials', async () => {
    const api = client(t.app, token);
    const bad = await api.post(`${BASE}/fetch-dataset`, {
      source: 'world_bank',
      datasetId: 'gdp per capita',
    });
    expect(bad.status).toBe(400);
    expect(errorReplySchema.parse(bad.body).error).toMatch(/is not a World Bank indicator id/);
    const blank = await api.post(`${BASE}/fetch-dataset`, { source: 'imf', datasetId: '  ' });
    expect(errorReplySchema.parse(blank.body).error).toMatch(/Please enter a dataset ID/);
    const analyzeBlank = await api.post(`${BASE}/analyze`, {
      dataSource: 'api',
      analysisType: 'profile',
      config: { datasetSource: 'fred', datasetId: '' },
    });
    expect(errorReplySchema.parse(analyzeBlank.body).error).toMatch(/Please enter a dataset ID/);
    const noFile = await api.post(`${BASE}/analyze`, {
      dataSource: 'upload',
      analysisType: 'profile',
    });
    expect(errorReplySchema.parse(noFile.body).error).toMatch(/Please upload a data file first/);
    const fred = await api.post(`${BASE}/fetch-dataset`, { source: 'fred', datasetId: 'GDP' });
    expect(fred.status).toBe(400);
    expect(errorReplySchema.parse(fred.body).error).toMatch(/^FRED: an API key is needed/);
    const kaggle = await api.post(`${BASE}/fetch-dataset`, {
      source: 'kaggle',
      datasetId: 'econ/mroz',
    });
    expect(errorReplySchema.parse(kaggle.body).error).toMatch(
      /^Kaggle: a username and API key are needed\. Add both under Settings > API keys/,
    );
    const notUrl = await api.post(`${BASE}/analyze`, {
      dataSource: 'url',
      analysisType: 'profile',
      config: { datasetId: 'ftp://x/y.csv' },
    });
    expect(errorReplySchema.parse(notUrl.body).error).toMatch(/Only http\(s\) addresses/);
  });

  it("uses the researcher's own FRED key from Settings", async () => {
    const api = client(t.app, token);
    expect(
      (await api.put('/api/settings', { apiKeys: { fredApiKey: FRED_TEST_KEY } })).status,
    ).toBe(200);
    const res = await api.post(`${BASE}/fetch-dataset`, {
      source: 'fred',
      datasetId: 'GDP',
      analysisType: 'profile',
    });
    expect(res.status).toBe(201);
    const s = await waitFor(token, teamStartReplySchema.parse(res.body).sessionId, atCheckpoint);
    expect(s.profile!.timeSeries).toMatchObject({ frequency: 'quarterly', periods: 315 });
    expect(fixtures.requests.some((r) => r.query.api_key === FRED_TEST_KEY)).toBe(true);
  });

  it("uses the researcher's own Kaggle username and key from Settings, and only both together", async () => {
    const kaggleToken = (await createUser(t.app)).accessToken;
    const api = client(t.app, kaggleToken);
    // A key without the username is not a pair: still refused before starting.
    await api.put('/api/settings', { apiKeys: { kaggleApiKey: KAGGLE_TEST_KEY } });
    const half = await api.post(`${BASE}/fetch-dataset`, {
      source: 'kaggle',
      datasetId: 'econ/mroz',
    });
    expect(half.status).toBe(400);
    expect(errorReplySchema.parse(half.body).error).toMatch(/^Kaggle: a username and API key/);

    await api.put('/api/settings', { apiKeys: { kaggleUsername: KAGGLE_TEST_USER } });
    const res = await api.post(`${BASE}/fetch-dataset`, {
      source: 'kaggle',
      datasetId: 'econ/mroz',
      analysisType: 'profile',
    });
    expect(res.status).toBe(201);
    const sessionId = teamStartReplySchema.parse(res.body).sessionId;
    const s = await waitFor(kaggleToken, sessionId, atCheckpoint);
    expect(s.profile).toMatchObject({ rowCount: 753, columnCount: 23 });
    const basic = `Basic ${Buffer.from(`${KAGGLE_TEST_USER}:${KAGGLE_TEST_KEY}`).toString('base64')}`;
    expect(fixtures.requests.some((r) => r.headers.authorization === basic)).toBe(true);

    // The Data Explorer adds a Kaggle dataset with the same credentials.
    const added = await api.post(`${BASE}/datasets/fetch`, {
      source: 'kaggle',
      datasetId: 'econ/mroz',
    });
    expect(added.status).toBe(201);
    expect(derivedDatasetReplySchema.parse(added.body).data.dataset).toMatchObject({
      recordCount: 753,
    });

    // A wrong key is the user's problem to fix, named as such.
    await api.put('/api/settings', { apiKeys: { kaggleApiKey: 'wrong0123456789' } });
    const wrong = await api.post(`${BASE}/datasets/fetch`, {
      source: 'kaggle',
      datasetId: 'econ/mroz',
    });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    expect(wrong.status).toBeLessThan(500);
    expect(errorReplySchema.parse(wrong.body).error).toMatch(/^Kaggle: /);
  });

  it('analyses an IMF panel and a URL file', async () => {
    const api = client(t.app, token);
    const imf = await api.post(`${BASE}/analyze`, {
      dataSource: 'api',
      analysisType: 'profile',
      config: { datasetSource: 'imf', datasetId: 'GFS_SOO/*.S13.G2M.G23_T.POGDP_PT.A' },
    });
    const si = await waitFor(token, teamStartReplySchema.parse(imf.body).sessionId, atCheckpoint);
    expect(si.profile!.timeSeries).toMatchObject({
      frequency: 'yearly',
      start: '1972',
      end: '1976',
    });
    const url = await api.post(`${BASE}/analyze`, {
      dataSource: 'url',
      analysisType: 'profile',
      config: { datasetId: `${fixtures.urls.files}/pwt.csv` },
    });
    const su = await waitFor(token, teamStartReplySchema.parse(url.body).sessionId, atCheckpoint);
    expect(su.source).toMatchObject({ origin: 'url', fileName: 'pwt.csv' });
    expect(su.profile!.rowCount).toBe(1540);
  });

  it('refuses a URL on a private address in the session, by the SSRF guard', async () => {
    const res = await client(t.app, token).post(`${BASE}/analyze`, {
      dataSource: 'url',
      analysisType: 'profile',
      config: { datasetId: `${fixtures.urls.files}/redirect-metadata` },
    });
    const s = await waitFor(token, teamStartReplySchema.parse(res.body).sessionId, failed);
    expect(s.error).toMatch(/Refused to connect to 169\.254\.169\.254: it is a link-local address/);
  });
});

describe('the Data Explorer', () => {
  let token: string;

  const created: Record<string, string> = {};
  beforeAll(async () => {
    token = (await createUser(t.app)).accessToken;
  });

  it('adds datasets by upload and from an API', async () => {
    const up = await upload(
      token,
      `${BASE}/datasets/upload`,
      { name: 'Penn World Table sample' },
      {
        name: 'pwt.csv',
        content: sample('datasets/pwt10_sample_21_countries.csv'),
      },
    );
    expect(up.status).toBe(201);
    const d = derivedDatasetReplySchema.parse(up.body).data;
    expect(d.dataset).toMatchObject({
      name: 'Penn World Table sample',
      recordCount: 1540,
      dataType: 'panel',
    });
    created.pwt = d.dataset.id;
    const fetched = await client(t.app, token).post(`${BASE}/datasets/fetch`, {
      source: 'world_bank',
      datasetId: 'JPN/NY.GDP.MKTP.CD',
    });
    expect(fetched.status).toBe(201);
    created.wb = derivedDatasetReplySchema.parse(fetched.body).data.dataset.id;
    const bad = await upload(
      token,
      `${BASE}/datasets/upload`,
      {},
      { name: 'x.csv', content: 'a,b\n1\n' },
    );
    expect(bad.status).toBe(400);
  });

  it('charts a dataset and refuses columns it does not have', async () => {
    const api = client(t.app, token);
    const chart = await api.post(`${BASE}/datasets/${created.pwt}/chart`, {
      type: 'line',
      x: 'year',
      y: ['pop'],
      aggregate: 'sum',
    });
    expect(chart.status).toBe(200);
    const spec = datasetChartReplySchema.parse(chart.body).data.chart;
    expect(spec.kind).toBe('line');
    expect(spec.kind === 'line' && spec.x).toHaveLength(70);
    const bad = await api.post(`${BASE}/datasets/${created.pwt}/chart`, {
      type: 'histogram',
      x: 'nope',
    });
    expect(bad.status).toBe(400);
    expect(errorReplySchema.parse(bad.body).error).toBe('The dataset has no column "nope".');
  });

  it('saves feature engineering and integration results as new datasets', async () => {
    const api = client(t.app, token);
    const features = await api.post(`${BASE}/datasets/${created.pwt}/features`, {
      name: 'PWT with growth',
      spec: {
        transformations: [
          { column: 'rgdpna', op: 'pct_change' },
          { column: 'pop', op: 'log' },
        ],
        partitionBy: ['country'],
      },
    });
    expect(features.status).toBe(201);
    const f = derivedDatasetReplySchema.parse(features.body).data;
    expect(f.dataset.fields.map((x) => x.name)).toEqual(
      expect.arrayContaining(['pct_change_rgdpna', 'log_pop']),
    );
    expect(f.notes.join(' ')).toMatch(/within each country/);
    const rows = await api.get(`${BASE}/datasets/${f.dataset.id}/rows?limit=2`);
    const page = datasetRowsReplySchema.parse(rows.body).data;
    const col = page.columns.findIndex((c) => c.name === 'pct_change_rgdpna');
    expect(page.rows[0]![col]).toBeNull();
    expect(page.rows[1]![col]).toBeCloseTo(130703.0859375 / 127461.1953125 - 1, 12);

    const joined = await api.post(`${BASE}/datasets/integrate`, {
      leftId: created.pwt,
      rightId: created.wb,
      name: 'PWT and World Bank GDP',
      spec: {
        method: 'join',
        keys: [
          { left: 'isocode', right: 'iso3' },
          { left: 'year', right: 'date' },
        ],
      },
    });
    expect(joined.status).toBe(201);
    const j = derivedDatasetReplySchema.parse(joined.body).data;
    // Japan 1971-2019 in both: year (number) and date (text) are compared as text.
    expect(j.dataset.recordCount).toBe(49);
    expect(j.notes).toContain('Keys year and date have different types and were compared as text.');
  });

  it('deletes the stored files with the catalog entry and releases the storage they took', async () => {
    const owner = await createUser(t.app);
    const api = client(t.app, owner.accessToken);
    const up = await upload(
      owner.accessToken,
      `${BASE}/datasets/upload`,
      { name: 'To be deleted' },
      { name: 'mroz.csv', content: sample('datasets/wooldridge_mroz.csv') },
    );
    expect(up.status).toBe(201);
    const id = derivedDatasetReplySchema.parse(up.body).data.dataset.id;
    const folder = path.join(t.dataDir, 'services/profiling/datasets', id);
    expect(readdirSync(folder).sort()).toEqual([
      'data.parquet',
      'data.parquet.missing-tokens.json',
      'original.csv',
    ]);
    const used = await storageUsed(t.ctx.db, owner.id);
    expect(used).toBeGreaterThan(100_000);

    // Someone else cannot delete it, and its files stay.
    const other = client(t.app, (await createUser(t.app)).accessToken);
    expect((await other.del(`/api/datasets/${id}`)).status).toBe(404);
    expect(existsSync(folder)).toBe(true);

    expect((await api.del(`/api/datasets/${id}`)).status).toBe(200);
    expect(existsSync(folder)).toBe(false);
    expect(await storageUsed(t.ctx.db, owner.id)).toBe(0);
    expect((await api.get(`${BASE}/datasets/${id}/rows`)).status).toBe(404);
  });

  it('clears at start the files of entries deleted earlier, and keeps every other', async () => {
    const files = createDatasetFiles(path.join(t.dataDir, 'services/profiling'));
    const orphan = randomUUID();
    mkdirSync(path.join(files.root, 'datasets', orphan), { recursive: true });
    writeFileSync(path.join(files.root, 'datasets', orphan, 'data.parquet'), 'x');
    const before = (await files.storedDatasetIds()).length;
    const store = createDatasetsStore(t.ctx.db);
    const catalog = { existingDatasetIds: (ids: string[]) => store.existingIds(ids) };
    expect(await removeOrphanedFiles(files, catalog)).toBe(1);
    expect(existsSync(path.join(files.root, 'datasets', orphan))).toBe(false);
    expect((await files.storedDatasetIds()).length).toBe(before - 1);
    expect(before - 1).toBeGreaterThan(0);
  });

  it('says when a catalog entry has no stored data', async () => {
    const api = client(t.app, token);
    const manual = await api.post('/api/datasets', {
      name: 'Described only',
      source: 'custom',
      dataType: 'other',
    });
    const id = datasetReplySchema.parse(manual.body).data.dataset.id;
    const rows = await api.get(`${BASE}/datasets/${id}/rows`);
    expect(rows.status).toBe(404);
    expect(errorReplySchema.parse(rows.body).error).toMatch(
      /has no stored data: it was described by hand/,
    );
  });
});

describe('with a language model', () => {
  let llm: ScriptedLlmServer;
  let withModel: TestApp;
  beforeAll(async () => {
    llm = await startScriptedLlmServer();
    withModel = await createTestApp({
      LLM_PROVIDER: 'openai-compatible',
      OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'scripted-model',
      PROFILING_THREADS: '1',
    });
  }, 60_000);
  afterAll(async () => {
    await withModel?.close();
    await llm?.close();
  });

  it('adds the interpretation paragraph, built on the computed numbers', async () => {
    llm.scriptPhase('data', 'analysis', { text: 'Wages are right-skewed.' });
    const token = (await createUser(withModel.app)).accessToken;
    const body = multipart(
      { config: JSON.stringify({ analysisType: 'descriptive' }) },
      {
        name: 'mroz.csv',
        content: sample('datasets/wooldridge_mroz.csv'),
      },
    );
    const res = await withModel.app.inject({
      method: 'POST',
      url: `${BASE}/upload`,
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
    const id = teamStartReplySchema.parse(res.json()).sessionId;
    const api = client(withModel.app, token);
    const wait = async (done: (s: DataStatusReply) => boolean) => {
      for (let i = 0; i < 1200; i++) {
        const s = dataStatusReplySchema.parse((await api.get(`${BASE}/status/${id}`)).body);
        if (done(s)) return s;
        if (s.status === 'error') throw new Error(s.error ?? 'error');
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('timeout');
    };
    await wait(atCheckpoint);
    await api.post(`${BASE}/feedback`, { sessionId: id, feedback: 'Approved' });
    const s = await wait(completed);
    expect(s.results).toMatchObject({
      interpretation: 'Wages are right-skewed.',
      interpretationNote: null,
    });
    const request = llm.requestsFor('data', 'analysis').at(-1);
    expect(request?.prompt).toContain('"column":"wage"');
    expect(request?.system).toMatch(/Use only the numbers given/);
  });
});
