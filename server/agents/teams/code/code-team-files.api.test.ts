import { existsSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentSession } from '../../../../common/agents';
import { provenanceReplySchema } from '../../../../common/provenance';
import {
  codeRuntimesReplySchema,
  codeStatusReplySchema,
  executeCodeReplySchema,
  exportReplySchema,
  workingFilesReplySchema,
  type CodeStatusReply,
} from '../../../../common/teams/code';
import { createTestApp, createUser, type TestApp } from '../../../../test/app';
import { client } from '../../../../test/client';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../../test/llm-server';
import { sessionClient } from '../../../../test/teams/helpers';
import { hasSandbox, sandboxSkipReason } from '../../../../test/requirements';

/**
 * The Code team with a project's files, truthful signals and the researcher's own work in the
 * package: datasets and a .mod file placed read-only in data/ (named in the prompt, recorded as
 * the session's inputs, refused with 404 when the caller cannot read them), the runtimes the
 * screen marks before Run, "reproducible" only when the tests passed and the program ran, the
 * test runner's outcome in words, the package of an edited program with its run's figure, and a
 * weak model (renamed criteria, empty code and tests, invented references) that loses nothing
 * computed and leaves no invented reference in what the researcher reads.
 */

const why = sandboxSkipReason;

const FABRICATED = 'Fabricated, A. (2031)';
const FABRICATED_DOI = '10.9999/fabricated.2031';

let llm: ScriptedLlmServer;
let t: TestApp;

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  t = await createTestApp({
    LLM_PROVIDER: 'openai-compatible',
    OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'scripted-model',
    CODE_SANDBOX_MAX_SECONDS: '20',
  });
});

afterAll(async () => {
  await t?.close();
  await llm?.close();
});

async function uploadDataset(token: string, name: string, csv: string): Promise<string> {
  const boundary = '----code-team-test';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="data.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    Buffer.from(csv),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/agents/data-team/datasets/upload',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { data: { dataset: { id: string } } }).data.dataset.id;
}

async function createDocument(
  token: string,
  body: { name: string; category: string; format: string; content: string; projectId?: string },
): Promise<string> {
  const res = await client(t.app, token).post('/api/documents', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { data: { document: { id: string } } }).data.document.id;
}

async function develop(token: string, body: Record<string, unknown>) {
  const res = await client(t.app, token).post('/api/agents/code-team/develop', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = (res.body as { sessionId: string }).sessionId;
  const done = await sessionClient(t.app, token).waitFor(
    id,
    (s: AgentSession) => s.status === 'completed' || s.status === 'error',
    90_000,
  );
  const status = await client(t.app, token).get(`/api/agents/code-team/status/${id}`);
  expect(status.status).toBe(200);
  return { id, done, status: codeStatusReplySchema.parse(status.body) };
}

/** The files of a zip (central directory, stored or deflated entries). */
function unzip(buf: Buffer): Record<string, Buffer> {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buf.readUInt16LE(eocd + 10);
  let pos = buf.readUInt32LE(eocd + 16);
  const files: Record<string, Buffer> = {};
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(pos + 10);
    const size = buf.readUInt32LE(pos + 20);
    const nameLen = buf.readUInt16LE(pos + 28);
    const skip = nameLen + buf.readUInt16LE(pos + 30) + buf.readUInt16LE(pos + 32);
    const name = buf.subarray(pos + 46, pos + 46 + nameLen).toString();
    const local = buf.readUInt32LE(pos + 42);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    files[name] = method === 8 ? inflateRawSync(data) : data;
    pos += 46 + skip;
  }
  return files;
}

const WAGES_CSV = 'year,wage\n2000,10\n2001,20\n2002,30\n2003,40\n2004,50\n';
const MOD_FILE = '// RBC model written by the Model team\nvar y c k;\n';

const READS_FILES = `import csv

rows = list(csv.DictReader(open("data/wages.csv")))
print("rows:", len(rows))
print("mean wage:", sum(float(r["wage"]) for r in rows) / len(rows))
print("model file:", open("data/econagents_rbc.mod").read().splitlines()[0])
`;

describe('the project files a program may be given', () => {
  let owner: { accessToken: string };
  let projectId: string;
  let datasetId: string;
  let modId: string;
  let calibrationId: string;
  let othersDocument: string;

  beforeAll(async () => {
    owner = await createUser(t.app);
    const project = await client(t.app, owner.accessToken).post('/api/projects', {
      title: 'Wages and cycles',
      researchArea: 'Macroeconomics',
    });
    expect(project.status, JSON.stringify(project.body)).toBe(201);
    projectId = (project.body as { data: { project: { id: string } } }).data.project.id;
    datasetId = await uploadDataset(owner.accessToken, 'Wages', WAGES_CSV);
    const linked = await client(t.app, owner.accessToken).put(`/api/projects/${projectId}`, {
      datasets: [datasetId],
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    modId = await createDocument(owner.accessToken, {
      name: 'econagents_rbc.mod',
      category: 'model_documentation',
      format: 'txt',
      content: MOD_FILE,
      projectId,
    });
    calibrationId = await createDocument(owner.accessToken, {
      name: 'RBC: calibration results',
      category: 'model_documentation',
      format: 'md',
      content: '| parameter | value |\n|---|---|\n| beta | 0.99 |\n',
      projectId,
    });
    const other = await createUser(t.app);
    othersDocument = await createDocument(other.accessToken, {
      name: 'secret.csv',
      category: 'data_dictionary',
      format: 'csv',
      content: 'a,b\n1,2\n',
    });
  });

  it('GET /working-files lists the project datasets and its model files; others get 404', async () => {
    const res = await client(t.app, owner.accessToken).get(
      `/api/agents/code-team/working-files?projectId=${projectId}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const files = workingFilesReplySchema.parse(res.body).files;
    expect(files).toContainEqual(
      expect.objectContaining({ kind: 'dataset', id: datasetId, name: 'Wages', modelFile: false }),
    );
    expect(files).toContainEqual(
      expect.objectContaining({ id: modId, detail: 'Dynare model file', modelFile: true }),
    );
    expect(files).toContainEqual(
      expect.objectContaining({ id: calibrationId, detail: 'Parameter table', modelFile: true }),
    );
    const stranger = await createUser(t.app);
    const refused = await client(t.app, stranger.accessToken).get(
      `/api/agents/code-team/working-files?projectId=${projectId}`,
    );
    expect(refused.status).toBe(404);
    const bad = await client(t.app, owner.accessToken).get(
      '/api/agents/code-team/working-files?projectId=nope',
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false });
  });

  it('refuses a file the caller cannot read with 404, and a bad reference with 400', async () => {
    const api = client(t.app, owner.accessToken);
    const theirs = await api.post('/api/agents/code-team/develop', {
      requirements: 'x',
      workingFiles: [{ kind: 'document', id: othersDocument }],
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ success: false, error: 'Document not found' });
    const missing = await api.post('/api/agents/code-team/develop', {
      requirements: 'x',
      workingFiles: [{ kind: 'dataset', id: '00000000-0000-4000-8000-000000000000' }],
    });
    expect(missing.status).toBe(404);
    const bad = await api.post('/api/agents/code-team/develop', {
      requirements: 'x',
      workingFiles: [{ kind: 'table', id: datasetId }],
    });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: string }).error).toMatch(/workingFiles kind must be/);
    const execute = await api.post('/api/agents/code-team/execute', {
      code: 'print(1)',
      language: 'python',
      workingFiles: [{ kind: 'document', id: othersDocument }],
    });
    expect(execute.status).toBe(404);
  });

  it.skipIf(!hasSandbox)(
    `places them read-only in data/, names them in the prompt and records them as inputs${why}`,
    async () => {
      llm.reset();
      llm.scriptPhase('code', 'generation', {
        json: { code: READS_FILES, explanation: 'Reads the wages.' },
      });
      llm.scriptPhase('code', 'tests', {
        json: {
          test_code:
            'import csv\n\n\ndef test_rows():\n    assert len(list(csv.DictReader(open("data/wages.csv")))) == 5\n',
        },
      });
      const { id, status } = await develop(owner.accessToken, {
        requirements: 'The mean wage of the project dataset.',
        language: 'python',
        workflowMode: 'quick',
        projectId,
        workingFiles: [
          { kind: 'dataset', id: datasetId },
          { kind: 'document', id: modId },
        ],
      });
      expect(status.status, status.error ?? '').toBe('completed');
      const generation = status.results[1]!;
      expect(generation.execution?.output).toBe(
        'rows: 5\nmean wage: 30.0\nmodel file: // RBC model written by the Model team\n',
      );
      expect(generation.working_files.map((f) => f.path)).toEqual([
        'data/wages.csv',
        'data/econagents_rbc.mod',
      ]);
      expect(generation.working_files[0]).toMatchObject({
        columns: ['year', 'wage'],
        rows: 5,
        name: 'Wages',
      });
      const prompt = llm.requestsFor('code', 'generation')[0]!.prompt;
      expect(prompt).toContain('- data/wages.csv: the project dataset "Wages"');
      expect(prompt).toContain('columns: year, wage');
      expect(prompt).toContain('- data/econagents_rbc.mod');
      expect(status.logs).toContain(
        'Placed data/wages.csv (the project dataset "Wages", 5 rows) read-only in the working directory',
      );
      const tests = status.results[4]!;
      expect(tests.run.status).toBe('passed');

      // The saved package names its inputs, with the hash of what the program read.
      const provenance = provenanceReplySchema.parse(
        (
          await client(t.app, owner.accessToken).get(
            `/api/documents/${tests.documentId}/provenance`,
          )
        ).body,
      ).provenance;
      expect(provenance.inputs).toEqual([
        { kind: 'dataset', id: datasetId, sha256: generation.working_files[0]!.sha256 },
        { kind: 'document', id: modId, sha256: generation.working_files[1]!.sha256 },
      ]);
      expect(provenance.items).toContainEqual({
        key: 'table:test-results',
        origin: 'computed',
        ref: 'sandbox test run',
      });
      expect(provenance.items).toContainEqual({ key: 'passage:explanation', origin: 'model' });

      // The editor's Run gets the session's files without naming them.
      const run = await client(t.app, owner.accessToken).post('/api/agents/code-team/execute', {
        code: 'print(open("data/wages.csv").read().splitlines()[1])',
        language: 'python',
        sessionId: id,
      });
      expect(run.status).toBe(200);
      const reply = executeCodeReplySchema.parse(run.body);
      expect(reply.output).toBe('2000,10\n');
      expect(reply.workingFiles.map((f) => f.path)).toEqual([
        'data/wages.csv',
        'data/econagents_rbc.mod',
      ]);
    },
    120_000,
  );
});

describe('GET /api/agents/code-team/runtimes', () => {
  it('lists each language and whether it can run here', async () => {
    const user = await createUser(t.app);
    const res = await client(t.app, user.accessToken).get('/api/agents/code-team/runtimes');
    expect(res.status).toBe(200);
    const body = codeRuntimesReplySchema.parse(res.body);
    expect(body.runtimes.map((r) => r.language)).toEqual([
      'python',
      'julia',
      'r',
      'dynare',
      'matlab',
    ]);
    const julia = body.runtimes.find((r) => r.language === 'julia')!;
    const juliaInstalled = existsSync('/usr/bin/julia') || existsSync('/usr/local/bin/julia');
    expect(julia.available).toBe(juliaInstalled && body.sandbox.available);
    if (!julia.available) expect(julia.message).toBeTruthy();
    if (!juliaInstalled) expect(julia.message).toMatch(/Julia is not installed/);
    expect(body.runtimes.find((r) => r.language === 'python')!.available).toBe(hasSandbox);
    const anon = await t.app.inject({ method: 'GET', url: '/api/agents/code-team/runtimes' });
    expect(anon.statusCode).toBe(401);
  });
});

describe.skipIf(!hasSandbox)(`signals computed from what happened${why}`, () => {
  it('a failed test run is not reproducible, and says in words what pytest reported', async () => {
    llm.reset();
    llm.scriptPhase('code', 'generation', {
      json: { code: 'def f():\n    return 1\n\n\nprint(f())\n', explanation: 'One.' },
    });
    llm.scriptPhase('code', 'tests', {
      json: { test_code: 'def test_f():\n    from main import f\n    assert f() == 2\n' },
    });
    llm.script({
      agent: 'code',
      phase: 'tests',
      match: /tests failed when run/,
      replies: [{ json: { code: null, test_code: null, explanation: 'no idea' } }],
    });
    const user = await createUser(t.app);
    const { status } = await develop(user.accessToken, {
      requirements: 'Return two.',
      workflowMode: 'quick',
    });
    const tests = status.results[4]!;
    expect(tests.run).toMatchObject({ status: 'failed', outcome: 'failures' });
    expect(tests.run.error).toBe("1 test of 1 failed or raised an error (pytest's exit status 1)");
    expect(tests.repairs.map((r) => r.changed)).toEqual(['none', 'none']);
    const doc = await client(t.app, user.accessToken).get(`/api/documents/${tests.documentId}`);
    const document = (
      doc.body as {
        data: { document: { reproducible: boolean; validated: boolean; content: string } };
      }
    ).data.document;
    expect(document.reproducible).toBe(false);
    expect(document.validated).toBe(false);
    expect(document.content).toContain('Not shown as reproducible:');
    expect(document.content).toContain('Attempt 1: the model changed nothing, still failing');
    expect(document.content).not.toMatch(/the none/);
    expect(status.logs.some((l) => /The package is not marked reproducible/.test(l))).toBe(true);
    expect(status.logs.join('\n')).not.toMatch(/Team team/);
  }, 120_000);

  it("says pytest collected no tests instead of 'status 5'", async () => {
    llm.reset();
    llm.scriptPhase('code', 'generation', { json: { code: 'print(1)\n', explanation: 'x' } });
    llm.scriptPhase('code', 'tests', { json: { test_code: 'X = 1\n' } });
    llm.script({
      agent: 'code',
      phase: 'tests',
      match: /tests failed when run/,
      replies: [{ json: { code: null, test_code: null, explanation: 'none' } }],
    });
    const user = await createUser(t.app);
    const { status } = await develop(user.accessToken, {
      requirements: 'x',
      workflowMode: 'quick',
    });
    const run = status.results[4]!.run;
    expect(run).toMatchObject({ status: 'failed', outcome: 'no_tests', exitCode: 5 });
    expect(run.error).toMatch(/^pytest collected no tests/);
  }, 120_000);
});

describe.skipIf(!hasSandbox)(`Download Package holds the researcher's work${why}`, () => {
  it("packages the editor's code, its last run's output and figure, and says which code produced them", async () => {
    llm.reset();
    llm.scriptPhase('code', 'generation', {
      json: { code: 'print("generated")\n', explanation: 'x' },
    });
    llm.scriptPhase('code', 'tests', { json: { test_code: 'def test_x():\n    assert True\n' } });
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const { id } = await develop(user.accessToken, { requirements: 'x', workflowMode: 'quick' });
    const edited =
      'import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.savefig("edited.png")\nprint("edited run")\n';
    const ran = await api.post('/api/agents/code-team/execute', {
      code: edited,
      language: 'python',
      sessionId: id,
    });
    expect(ran.status).toBe(200);
    const link = exportReplySchema.parse(
      (await api.post(`/api/agents/code-team/export/${id}?format=zip`, { code: edited })).body,
    );
    expect(link.downloadUrl).toMatch(/\/download\/editor\?token=/);
    const zip = await t.app.inject({ method: 'GET', url: link.downloadUrl });
    expect(zip.statusCode).toBe(200);
    const files = unzip(zip.rawPayload);
    expect(files['main.py']!.toString()).toBe(edited);
    expect(files['session/main.py']!.toString()).toBe('print("generated")\n');
    expect(files['results/output.txt']!.toString()).toContain('edited run');
    expect(files['results/edited.png']!.subarray(1, 4).toString()).toBe('PNG');
    expect(files['results/main.py']).toBeUndefined();
    const readme = files['README.md']!.toString();
    expect(readme).toContain("come from the editor's last run");
    expect(readme).toContain('`main.py` exactly as it is in this package');

    // Edited again after the run: the run's code travels with its output.
    const later = exportReplySchema.parse(
      (await api.post(`/api/agents/code-team/export/${id}`, { code: 'print("later")\n' })).body,
    );
    const laterFiles = unzip(
      (await t.app.inject({ method: 'GET', url: later.downloadUrl })).rawPayload,
    );
    expect(laterFiles['main.py']!.toString()).toBe('print("later")\n');
    expect(laterFiles['results/main.py']!.toString()).toBe(edited);
    expect(laterFiles['README.md']!.toString()).toContain('an earlier version of the code');

    // Another user cannot package it.
    const other = await createUser(t.app);
    expect(
      (
        await client(t.app, other.accessToken).post(`/api/agents/code-team/export/${id}`, {
          code: 'x',
        })
      ).status,
    ).toBe(404);
  }, 120_000);
});

describe.skipIf(!hasSandbox)(`a weak model${why}`, () => {
  it('renamed criteria, empty code and tests and invented references lose nothing computed', async () => {
    llm.reset();
    llm.scriptPhase('code', 'generation', {
      json: {
        code: 'def mean(xs):\n    return sum(xs) / len(xs)\n\n\nprint(mean([1, 2, 3]))\n',
        explanation: `Computes a mean, as in ${FABRICATED}. A paper. doi ${FABRICATED_DOI}.`,
      },
    });
    llm.scriptPhase('code', 'review', {
      json: {
        summary: `Fine, see ${FABRICATED}.`,
        findings: [
          {
            criterion: 'Performance',
            severity: 'critical',
            lines: [2, 99],
            comment: `As shown by ${FABRICATED}, doi:${FABRICATED_DOI}, sums are slow.`,
          },
          { criterion: '', severity: '', lines: [], comment: '' },
        ],
      },
    });
    llm.scriptPhase('code', 'optimization', { json: { optimized_code: '', changes: [] } });
    llm.scriptPhase('code', 'tests', { json: { test_code: '' } });
    const user = await createUser(t.app);
    const { status } = await develop(user.accessToken, {
      requirements: 'The mean of a list.',
      workflowMode: 'comprehensive',
    });
    expect(status.status, status.error ?? '').toBe('completed');
    const [generation, review, optimization, tests] = [1, 2, 3, 4].map((n) =>
      JSON.parse(JSON.stringify(status.results[n as 1 | 2 | 3 | 4])),
    ) as [
      CodeStatusReply['results'][1],
      CodeStatusReply['results'][2],
      CodeStatusReply['results'][3],
      CodeStatusReply['results'][4],
    ];
    expect(generation!.execution).toMatchObject({ ok: true, output: '2.0\n' });
    expect(review!.findings.map((f) => [f.criterion, f.severity])).toEqual([
      ['efficiency', 'high'],
      ['correctness', 'medium'],
    ]);
    expect(review!.overall_score).not.toBeNull();
    expect(optimization).toMatchObject({ skipped: false, optimized_code: null });
    expect(optimization!.note).toMatch(/The model gave no optimized code/);
    expect(tests!.run).toMatchObject({ status: 'not_run', outcome: 'not_written' });
    expect(tests!.code_run).toMatchObject({ ok: true });
    expect(tests!.documentId).not.toBeNull();

    const shown = JSON.stringify(status.results);
    const doc = await client(t.app, user.accessToken).get(`/api/documents/${tests!.documentId}`);
    const content = (doc.body as { data: { document: { content: string } } }).data.document.content;
    for (const text of [shown, content]) {
      expect(text).not.toContain('Fabricated');
      expect(text).not.toContain(FABRICATED_DOI);
    }
    expect(content).toContain('Not shown as reproducible:');
    expect(
      status.logs.filter((l) => l.startsWith('Removed a reference to a work not retrieved')).length,
    ).toBeGreaterThanOrEqual(4);
    expect(status.logs.some((l) => /criterion 'Performance' read as efficiency/.test(l))).toBe(
      true,
    );
  }, 120_000);
});

describe('words', () => {
  it('the team is named once: never "Code Team team"', async () => {
    const user = await createUser(t.app);
    const res = await client(t.app, user.accessToken).get('/api/agents/teams');
    const teams = (res.body as { teams: Array<{ id: string; name: string }> }).teams;
    const code = teams.find((x) => x.id === 'code')!;
    expect(`${code.name} team`).toBe('Code team');
  });
});
