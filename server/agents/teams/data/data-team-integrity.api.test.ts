import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorReplySchema } from '../../../../common/api';
import { datasetListReplySchema, datasetReplySchema } from '../../../../common/datasets';
import { documentReplySchema } from '../../../../common/documents';
import { projectReplySchema } from '../../../../common/projects';
import { MODEL_PASSAGE_START, provenanceReplySchema } from '../../../../common/provenance';
import {
  catalogDatasetsReplySchema,
  dataStatusReplySchema,
  derivedDatasetReplySchema,
  type DataStatusReply,
} from '../../../../common/teams/data';
import { teamStartReplySchema } from '../../../../common/teams/shared';
import { bearer, createTestApp, createUser, type TestApp } from '../../../../test/app';
import { client } from '../../../../test/client';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../../test/llm-server';

/**
 * The Data team's integrity on a whole server: a dataset already in the project or catalog as
 * a source (read rights, the input recorded with its hash), missing-value tokens chosen per
 * upload, the profile saved as a document with its data dictionary and provenance, and a weak
 * model (empty text, invented references, renamed columns, a failing call) that never costs the
 * computed profile.
 */

const BASE = '/api/agents/data-team';

let llm: ScriptedLlmServer;
let t: TestApp;

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  t = await createTestApp({
    LLM_PROVIDER: 'openai-compatible',
    OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'scripted-model',
    PROFILING_THREADS: '1',
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await llm?.close();
});

/** An R export: NA for a missing number, "." and "-" as other tools write them. */
const R_EXPORT = [
  '"country","year","gdp_usd","inflation (percent)","note"',
  '"A",2000,1.5,2.1,"ok"',
  '"A",2001,NA,2.4,NA',
  '"A",2002,2.5,.,"x"',
  '"B",2000,,1.9,"y"',
  '"B",2001,4,-,"z"',
  '"B",2002,5.5,2.2,"w"',
].join('\n');

function multipart(fields: Record<string, string>, file?: { name: string; content: string }) {
  const boundary = '----data-integrity-boundary';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  }
  if (file) {
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n${file.content}\r\n`,
    );
  }
  parts.push(`--${boundary}--\r\n`);
  return {
    payload: Buffer.from(parts.join('')),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function upload(
  token: string,
  url: string,
  fields: Record<string, string>,
  file?: { name: string; content: string },
) {
  const body = multipart(fields, file);
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json<unknown>() };
}

async function status(token: string, id: string): Promise<DataStatusReply> {
  const res = await client(t.app, token).get(`${BASE}/status/${id}`);
  expect(res.status).toBe(200);
  return dataStatusReplySchema.parse(res.body);
}

async function waitFor(token: string, id: string, done: (s: DataStatusReply) => boolean) {
  const deadline = Date.now() + 60_000;
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

/** Runs a started session through its checkpoint to completion. */
async function approveAndFinish(token: string, id: string): Promise<DataStatusReply> {
  await waitFor(token, id, atCheckpoint);
  const fb = await client(t.app, token).post(`${BASE}/feedback`, {
    sessionId: id,
    feedback: 'Approved',
  });
  expect(fb.status).toBe(200);
  return waitFor(token, id, completed);
}

/** A dataset added through the Data Explorer's upload; its id. */
async function explorerUpload(token: string, name: string, content: string, fields = {}) {
  const res = await upload(
    token,
    `${BASE}/datasets/upload`,
    { name, ...fields },
    {
      name: `${name}.csv`,
      content,
    },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return derivedDatasetReplySchema.parse(res.body).data.dataset.id;
}

const col = (s: DataStatusReply, name: string) => s.profile!.columns.find((c) => c.name === name)!;

describe('a dataset from the project or the catalog as the source', () => {
  let owner: string;
  let other: string;
  let datasetId: string;
  let projectId: string;

  beforeAll(async () => {
    llm.scriptPhase('data', 'analysis', { text: 'Output grows over the two years shown.' });
    owner = (await createUser(t.app)).accessToken;
    other = (await createUser(t.app)).accessToken;
    datasetId = await explorerUpload(owner, 'r-export', R_EXPORT);
    const project = await client(t.app, owner).post('/api/projects', {
      title: 'Growth',
      researchArea: 'Macroeconomics',
    });
    expect(project.status).toBe(201);
    projectId = projectReplySchema.parse(project.body).data.project.id;
  });

  it('lists the stored datasets the user can read, the project ones first', async () => {
    const api = client(t.app, owner);
    const second = await explorerUpload(owner, 'second', 'a,b\n1,2\n3,4\n');
    // A catalog entry described by hand has no data to analyse: not listed.
    await api.post('/api/datasets', {
      name: 'Described only',
      source: 'custom',
      dataType: 'other',
    });
    const put = await api.put(`/api/projects/${projectId}`, { datasets: [second] });
    expect(put.status).toBe(200);
    const listed = catalogDatasetsReplySchema.parse(
      (await api.get(`${BASE}/catalog-datasets?projectId=${projectId}`)).body,
    ).datasets;
    expect(listed.map((d) => [d.name, d.inProject])).toEqual([
      ['second', true],
      ['r-export', false],
    ]);
    // Without a project, nothing is marked as the project's.
    const all = catalogDatasetsReplySchema.parse((await api.get(`${BASE}/catalog-datasets`)).body);
    expect(all.datasets.every((d) => !d.inProject)).toBe(true);
    expect(all.datasets.map((d) => d.name).sort()).toEqual(['r-export', 'second']);
    // Another user sees none of them, and not the project (404).
    const theirs = await client(t.app, other).get(`${BASE}/catalog-datasets`);
    expect(catalogDatasetsReplySchema.parse(theirs.body).datasets).toEqual([]);
    const notTheirs = await client(t.app, other).get(
      `${BASE}/catalog-datasets?projectId=${projectId}`,
    );
    expect(notTheirs.status).toBe(404);
  });

  it('analyses it in place, records it as the input with its hash, and saves the profile in the project', async () => {
    const api = client(t.app, owner);
    const before = datasetListReplySchema.parse((await api.get('/api/datasets?limit=100')).body)
      .data.total;
    const started = await api.post(`${BASE}/analyze`, {
      dataSource: 'catalog',
      analysisType: 'descriptive',
      config: { datasetId },
      projectId,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const id = teamStartReplySchema.parse(started.body).sessionId;
    const s = await approveAndFinish(owner, id);
    expect(s.dataSource).toBe('catalog');
    expect(s.source).toMatchObject({ origin: 'catalog', originId: datasetId, format: 'parquet' });
    expect(s.dataset).toMatchObject({ datasetId, rows: 6 });
    expect(col(s, 'gdp_usd').kind).toBe('numeric');
    // Nothing was copied into a new catalog entry.
    const after = datasetListReplySchema.parse((await api.get('/api/datasets?limit=100')).body).data
      .total;
    expect(after).toBe(before);

    const documentId = s.results!.documentId!;
    const doc = documentReplySchema.parse((await api.get(`/api/documents/${documentId}`)).body).data
      .document;
    expect(doc.projectId).toBe(projectId);
    const provenance = provenanceReplySchema.parse(
      (await api.get(`/api/documents/${documentId}/provenance`)).body,
    ).provenance;
    const stored = path.join(t.dataDir, 'services/profiling/datasets', datasetId, 'data.parquet');
    const sha256 = createHash('sha256').update(readFileSync(stored)).digest('hex');
    expect(provenance.inputs).toContainEqual({ kind: 'dataset', id: datasetId, sha256 });
    expect(provenance).toMatchObject({ sessionId: id, team: 'data', projectId });
  });

  it("answers 404 for another user's dataset and 400 for bad or empty choices", async () => {
    const theirs = await client(t.app, other).post(`${BASE}/analyze`, {
      dataSource: 'catalog',
      config: { datasetId },
    });
    expect(theirs.status).toBe(404);
    expect(errorReplySchema.parse(theirs.body).error).toMatch(/not found/i);

    const api = client(t.app, owner);
    const manual = await api.post('/api/datasets', {
      name: 'Hand-made',
      source: 'custom',
      dataType: 'other',
    });
    const handMade = datasetReplySchema.parse(manual.body).data.dataset.id;
    const empty = await api.post(`${BASE}/analyze`, {
      dataSource: 'catalog',
      config: { datasetId: handMade },
    });
    expect(empty.status).toBe(400);
    expect(errorReplySchema.parse(empty.body).error).toMatch(/no stored data/);

    const noId = await api.post(`${BASE}/analyze`, { dataSource: 'catalog', config: {} });
    expect(noId.status).toBe(400);
    expect(JSON.stringify(noId.body)).toMatch(/choose a dataset from the project or the catalog/);
    const notAnId = await api.post(`${BASE}/analyze`, {
      dataSource: 'catalog',
      config: { datasetId: '../etc/passwd' },
    });
    expect(notAnId.status).toBe(400);
    const unknown = await api.post(`${BASE}/analyze`, {
      dataSource: 'catalog',
      config: { datasetId: '00000000-0000-4000-8000-00000000dead' },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('missing-value tokens per upload', () => {
  let token: string;
  beforeAll(async () => {
    llm.scriptPhase('data', 'analysis', { text: 'Output grows over the two years shown.' });
    token = (await createUser(t.app)).accessToken;
  });

  it('reads NA, "." and "-" as missing by default and lists them in the profile', async () => {
    const res = await upload(
      token,
      `${BASE}/upload`,
      { config: JSON.stringify({ analysisType: 'profile' }) },
      { name: 'r.csv', content: R_EXPORT },
    );
    expect(res.status).toBe(201);
    const id = teamStartReplySchema.parse(res.body).sessionId;
    const s = await waitFor(token, id, atCheckpoint);
    expect(col(s, 'gdp_usd')).toMatchObject({ kind: 'numeric', count: 4, missing: 2 });
    expect(col(s, 'gdp_usd').missingTokens).toEqual([
      { token: '', count: 1 },
      { token: 'NA', count: 1 },
    ]);
    expect(col(s, 'inflation (percent)').missingTokens).toEqual([
      { token: '.', count: 1 },
      { token: '-', count: 1 },
    ]);
    expect(s.profile!.missingTokens?.recognised).toContain('NA');
    expect(s.logs.join('\n')).toMatch(/Read missing-value tokens as missing in 3 columns:/);
  });

  it('reads only the tokens chosen (upload, Explorer upload)', async () => {
    const res = await upload(
      token,
      `${BASE}/upload`,
      { config: JSON.stringify({ analysisType: 'profile', missingTokens: ['NA', ''] }) },
      { name: 'r.csv', content: R_EXPORT },
    );
    expect(res.status).toBe(201);
    const s = await waitFor(token, teamStartReplySchema.parse(res.body).sessionId, atCheckpoint);
    expect(col(s, 'gdp_usd').kind).toBe('numeric');
    // "." and "-" are values now: the inflation column is text.
    expect(col(s, 'inflation (percent)').kind).not.toBe('numeric');
    expect(s.profile!.missingTokens?.recognised).toEqual(['NA', '']);

    const id = await explorerUpload(token, 'only-na', R_EXPORT, {
      missingTokens: JSON.stringify(['NA']),
    });
    const profile = await client(t.app, token).get(`${BASE}/datasets/${id}/profile`);
    expect(JSON.stringify(profile.body)).toContain('"recognised":["NA"]');
  });

  it('refuses a token it does not know, wherever it is given (400)', async () => {
    const bad = ['NA', 'missing'];
    const viaUpload = await upload(
      token,
      `${BASE}/upload`,
      { config: JSON.stringify({ analysisType: 'profile', missingTokens: bad }) },
      { name: 'r.csv', content: R_EXPORT },
    );
    expect(viaUpload.status).toBe(400);
    expect(errorReplySchema.parse(viaUpload.body).error).toMatch(
      /"missing" is not a missing-value token this app reads/,
    );
    const api = client(t.app, token);
    const viaAnalyze = await api.post(`${BASE}/analyze`, {
      dataSource: 'url',
      config: { datasetId: 'https://example.org/data.csv', missingTokens: bad },
    });
    expect(viaAnalyze.status).toBe(400);
    const viaFetch = await api.post(`${BASE}/fetch-dataset`, {
      source: 'world_bank',
      datasetId: 'NY.GDP.MKTP.CD',
      missingTokens: ['NA', 42],
    });
    expect(viaFetch.status).toBe(400);
    const none = await api.post(`${BASE}/fetch-dataset`, {
      source: 'world_bank',
      datasetId: 'NY.GDP.MKTP.CD',
      missingTokens: [],
    });
    expect(none.status).toBe(400);
    const viaExplorer = await upload(
      token,
      `${BASE}/datasets/upload`,
      { missingTokens: JSON.stringify(['n.a.']) },
      { name: 'x.csv', content: R_EXPORT },
    );
    expect(viaExplorer.status).toBe(400);
  });
});

describe('the profile saved as a document, and a weak model', () => {
  let token: string;
  beforeAll(async () => {
    token = (await createUser(t.app)).accessToken;
  });

  /** Uploads the R export and runs it to completion with the model answering `reply`. */
  async function runWith(reply: Parameters<ScriptedLlmServer['scriptPhase']>[2]) {
    llm.reset();
    llm.scriptPhase('data', 'analysis', reply);
    const res = await upload(
      token,
      `${BASE}/upload`,
      { config: JSON.stringify({ analysisType: 'descriptive' }) },
      { name: 'r.csv', content: R_EXPORT },
    );
    expect(res.status).toBe(201);
    return approveAndFinish(token, teamStartReplySchema.parse(res.body).sessionId);
  }

  async function documentOf(s: DataStatusReply) {
    const api = client(t.app, token);
    const id = s.results!.documentId!;
    expect(id).toBeTruthy();
    const doc = documentReplySchema.parse((await api.get(`/api/documents/${id}`)).body).data
      .document;
    const provenance = provenanceReplySchema.parse(
      (await api.get(`/api/documents/${id}/provenance`)).body,
    ).provenance;
    return { doc, provenance };
  }

  it('saves the profile with its data dictionary; the interpretation marked as the model\u2019s', async () => {
    const s = await runWith({ text: 'Output rose from 1.5 to 5.5 while inflation stayed near 2.' });
    expect(s.results!.interpretation).toBe(
      'Output rose from 1.5 to 5.5 while inflation stayed near 2.',
    );
    const { doc, provenance } = await documentOf(s);
    expect(doc).toMatchObject({ category: 'data_dictionary', format: 'md' });
    expect(doc.name).toBe('Data profile: r');
    expect(doc.content).toContain('| Column | Type | Unit | Missing | Description |');
    // Units where the file says them: a suffix, a header in parentheses, a year.
    expect(doc.content).toMatch(/\| gdp_usd \| numeric \(DOUBLE\) \| US\$ \| 33\.3% \|/);
    expect(doc.content).toMatch(
      /\| inflation \(percent\) \| numeric \(DOUBLE\) \| percent \| 33\.3% \|/,
    );
    expect(doc.content).toMatch(/\| year \| numeric \(BIGINT\) \| year \| 0\.0% \|/);
    expect(doc.content).toMatch(/- gdp_usd: \(empty cell\) x1, "NA" x1/);
    expect(doc.content).toContain(MODEL_PASSAGE_START);
    expect(doc.content).toContain('Written by the model, not checked');
    expect(provenance.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'table:profile', origin: 'computed' }),
        expect.objectContaining({ key: 'table:data-dictionary', origin: 'computed' }),
        expect.objectContaining({ key: 'table:descriptive-analysis', origin: 'computed' }),
        { key: 'passage:interpretation', origin: 'model' },
      ]),
    );
    expect(provenance.computations.map((c) => c.engine)).toContain('duckdb-profiler');
    expect(provenance.model).toMatchObject({ id: 'scripted-model' });
  });

  it('removes invented references and keeps the rest; renamed columns do not matter', async () => {
    const s = await runWith({
      text:
        'Hourly output (the GDP series) rose steadily (Fabricated, 2031). ' +
        'See doi 10.9999/fabricated.2031 for the mechanism.',
    });
    expect(s.results!.interpretation).toContain('Hourly output (the GDP series) rose steadily');
    expect(s.results!.interpretation).not.toMatch(/Fabricated|10\.9999/);
    expect(s.logs.join('\n')).toMatch(
      /Removed a reference to a work not retrieved in this session: .*Fabricated/,
    );
    const { doc } = await documentOf(s);
    expect(doc.content).not.toMatch(/Fabricated|10\.9999/);
  });

  it('completes with the profile and a note when the model writes nothing, only references, or fails', async () => {
    for (const [reply, note] of [
      [{ text: '   ' }, /returned an empty reply|returned no text/],
      [{ text: '(Fabricated, 2031); doi:10.9999/x.1' }, /nothing was left of the model's text/],
      [
        { error: { status: 400, message: 'bad request from a weak model' } },
        /the model call failed/,
      ],
    ] as const) {
      const s = await runWith(reply);
      expect(s.status).toBe('completed');
      expect(s.profile!.columns.map((c) => c.name)).toContain('gdp_usd');
      expect(s.results!.analysis.type).toBe('descriptive');
      expect(s.results!.interpretation).toBeNull();
      expect(s.results!.interpretationNote, s.results!.interpretationNote ?? '').toMatch(note);
      expect(s.results!.interpretationNote).toMatch(/The interpretation is missing/);
      const { doc, provenance } = await documentOf(s);
      expect(doc.content).toContain('## Data dictionary');
      expect(doc.content).not.toContain(MODEL_PASSAGE_START);
      expect(provenance.items.map((i) => i.key)).not.toContain('passage:interpretation');
    }
  });
});
