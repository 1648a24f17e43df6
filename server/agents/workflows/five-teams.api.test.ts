import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentSession } from '../../../common/agents';
import { projectRecordReplySchema } from '../../../common/research-record';
import { codePhases } from '../../../common/teams/code';
import { readPhaseResults } from '../../../common/teams/shared';
import { workflowReplySchema, type Workflow } from '../../../common/workflows';
import { bearer, createTestApp, createUser, type TestApp } from '../../../test/app';
import { literatureScript } from '../../../test/fixtures/literature-sources/llm-script';
import {
  startLiteratureFixtures,
  type LiteratureFixtures,
} from '../../../test/fixtures/literature-sources/server';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../test/llm-server';
import { ruleFromJson } from '../../../test/llm-server/scripts';
import { sessionClient } from '../../../test/teams/helpers';
import { hasSandbox, sandboxSkipReason } from '../../../test/requirements';

/**
 * A Customized Workflow of all five teams on one project, on the scripted model server and the
 * fixture sources: Ideation -> Literature -> Data -> Model -> Code, every checkpoint answered on
 * the teams' own feedback route, each handoff asserted (the Literature question is the chosen
 * Ideation question, the Model's target data is the Data step's dataset and its theory's context
 * the review, the Code step's input holds the dataset and the .mod file, which its program reads in
 * the sandbox), and the project's
 * record complete at the end.
 */

const macroCsv = readFileSync(
  path.join(
    import.meta.dirname,
    '../../../test/fixtures/data-sources/samples/datasets/us_macro_quarterly_1959q1_2009q3.csv',
  ),
);

let llm: ScriptedLlmServer;
let fixtures: LiteratureFixtures;
let files: http.Server;
let filesUrl: string;
let t: TestApp;

/** What the program does with its working directory: lists it and reads the CSV files. */
const PROGRAM = `import os


def working_files():
    found = []
    for root, _dirs, names in os.walk("."):
        for name in names:
            found.append(os.path.join(root, name))
    return sorted(found)


def read_working_files():
    """Reads each working file: a dataset's rows, a .mod file's declared variables."""
    for f in working_files():
        if not f.startswith("./data/"):
            continue
        with open(f, encoding="utf-8") as handle:
            text = handle.read()
        if f.endswith(".csv"):
            print(f"{f}: {len(text.strip().splitlines()) - 1} rows")
        elif f.endswith(".mod"):
            lines = [line.strip() for line in text.splitlines()]
            first = lines[lines.index("var") + 1].split()[0] if "var" in lines else "none"
            print(f"{f}: var {first}")


if __name__ == "__main__":
    read_working_files()
`;

function scriptTeams() {
  llm.reset();
  for (const rule of literatureScript()) llm.script(ruleFromJson(rule));
  llm.scriptPhase('ideation', 'ideate', {
    json: {
      candidates: [
        'Payments for ecosystem services and conservation on farms',
        'Productivity shocks and business cycles',
        'Food price spikes and poverty',
      ],
    },
  });
  llm.scriptPhase('ideation', 'refine', {
    json: {
      questions: [
        {
          question: 'Do payments for ecosystem services raise biodiversity conservation on farms?',
          searchQuery: 'payments ecosystem services',
        },
        {
          question: 'How much of US output volatility do productivity shocks explain?',
          searchQuery: 'productivity shocks business cycles',
        },
        {
          question: 'Did higher global food prices raise poverty in low-income countries?',
          searchQuery: 'food prices poverty',
        },
      ],
    },
  });
  llm.scriptPhase('ideation', 'contextualize', {
    json: {
      questions: ['Q1', 'Q2', 'Q3'].map((id) => ({
        id,
        theory: 'a theory of it',
        context: 'Works were retrieved on it [W1].',
        citedWorks: ['W1'],
      })),
    },
  });
  llm.scriptPhase('ideation', 'finalize', {
    json: {
      ranking: [
        { id: 'Q1', justification: 'Open [W1].' },
        { id: 'Q2', justification: 'Data are rich.' },
        { id: 'Q3', justification: 'Prices keep moving.' },
      ],
    },
  });
  llm.scriptPhase('code', 'generation', {
    json: { code: PROGRAM, explanation: 'Lists and reads the working files.' },
  });
  llm.scriptPhase('code', 'tests', {
    json: {
      test_code:
        'from main import working_files\n\n\ndef test_lists():\n    assert isinstance(working_files(), list)\n',
    },
  });
}

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  fixtures = await startLiteratureFixtures();
  files = http.createServer((req, res) => {
    if (req.url === '/us_macro.csv') {
      res.writeHead(200, { 'content-type': 'text/csv' }).end(macroCsv);
    } else {
      res.writeHead(404).end('Not found');
    }
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  t = await createTestApp({
    LLM_PROVIDER: 'openai-compatible',
    OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'scripted-model',
    OPENALEX_BASE_URL: fixtures.urls.openalex,
    CROSSREF_BASE_URL: fixtures.urls.crossref,
    ARXIV_BASE_URL: fixtures.urls.arxiv,
    SEMANTIC_SCHOLAR_BASE_URL: fixtures.urls.semantic_scholar,
    OPENALEX_CACHE_SECONDS: '0',
    DATA_URL_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    PROFILING_THREADS: '1',
    CODE_SANDBOX_MAX_SECONDS: '20',
    AGENT_MAX_CONCURRENT_SESSIONS: '20',
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await fixtures?.close();
  await llm?.close();
  await new Promise<void>((resolve) => (files ? files.close(() => resolve()) : resolve()));
});

describe.skipIf(!hasSandbox)(`a workflow of the five teams${sandboxSkipReason}`, () => {
  it('runs to completion through every checkpoint, each step fed by the ones before', async () => {
    scriptTeams();
    fixtures.reset();
    const owner = await createUser(t.app, { displayName: 'Wanda Workflow' });
    const headers = bearer(owner.accessToken);
    const project = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers,
      payload: { title: 'Productivity and the cycle', researchArea: 'Macroeconomics' },
    });
    const projectId = (project.json() as { data: { project: { id: string } } }).data.project.id;

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/workflows',
      headers,
      payload: {
        projectId,
        name: 'Idea to code',
        steps: [
          {
            team: 'ideation',
            config: { mode: 'human', idea: 'Productivity, prices and poverty', questionIndex: 1 },
          },
          { team: 'literature', config: { topN: 20 } },
          {
            team: 'data',
            config: { dataSource: 'url', datasetId: `${filesUrl}/us_macro.csv` },
          },
          {
            team: 'model',
            config: {
              modelType: 'RBC',
              targetColumns: [{ column: 'realgdp', variable: 'y' }],
            },
          },
          { team: 'code', config: { workflowMode: 'quick', language: 'python' } },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = workflowReplySchema.parse(created.json()).workflow.id;
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/workflows/${id}/start`,
      headers,
    });
    expect(started.statusCode, started.body).toBe(200);

    const sessions = sessionClient(t.app, owner.accessToken);
    const read = async (): Promise<Workflow> => {
      const res = await t.app.inject({ method: 'GET', url: `/api/workflows/${id}`, headers });
      return workflowReplySchema.parse(res.json()).workflow;
    };

    // Follow the run; answer each checkpoint of each step as the researcher would.
    const answered = new Set<string>();
    const deadline = Date.now() + 240_000;
    let w = await read();
    while (w.status !== 'completed') {
      if (w.status === 'error' || w.status === 'cancelled') {
        throw new Error(`workflow ${w.status}: ${w.error}`);
      }
      if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(w)}`);
      const step = w.currentStep === null ? undefined : w.steps[w.currentStep];
      if (w.status === 'waiting_for_input' && step?.sessionId) {
        const s = await sessions.session(step.sessionId);
        const key = `${s.sessionId}:${s.phase}:${s.checkpoint}:${s.feedback.length}`;
        if (s.status === 'waiting_for_input' && !answered.has(key)) {
          answered.add(key);
          expect((await sessions.feedback(s.sessionId, 'Approved')).statusCode).toBe(200);
        }
      }
      await new Promise((r) => setTimeout(r, 50));
      w = await read();
    }

    expect(w.steps.map((s) => [s.team, s.status])).toEqual([
      ['ideation', 'completed'],
      ['literature', 'completed'],
      ['data', 'completed'],
      ['model', 'completed'],
      ['code', 'completed'],
    ]);
    // Literature (3), Data (1) and Model (3) stopped at their checkpoints.
    expect(answered.size).toBe(7);
    const session = async (index: number): Promise<AgentSession> => {
      const s = await sessions.session(w.steps[index]!.sessionId!);
      expect(s.projectId).toBe(projectId);
      expect(s.ownerId).toBe(owner.id);
      return s;
    };
    const [ideation, literature, data, model, code] = w.steps;

    // Ideation: its final questions are saved to the project; the second is the chosen one.
    const questions = ideation!.outputs.filter((o) => o.kind === 'question').map((o) => o.label);
    expect(questions.length).toBeGreaterThanOrEqual(3);
    const chosen = questions[1]!;

    // Literature: its question is the chosen Ideation question.
    expect((await session(1)).input.researchQuestion).toBe(chosen);
    expect(literature!.inputs).toContainEqual(
      expect.objectContaining({ kind: 'question', label: chosen, fromStep: 0 }),
    );
    const report = literature!.outputs.find((o) => o.label === 'Literature review report');
    expect(report?.id).toBeDefined();

    // Data: its dataset, in the catalog and the project.
    const dataset = data!.outputs.find((o) => o.kind === 'dataset')!;
    expect(dataset.id).toBeDefined();
    expect((await session(2)).status).toBe('completed');

    // Model: its focus is the question, its target data the Data step's dataset, its theory's
    // context the review and its verified references.
    const m = await session(3);
    expect(m.input.focus).toBe(chosen);
    expect(m.input.targetData).toMatchObject({
      datasetId: dataset.id,
      columns: [{ column: 'realgdp', variable: 'y' }],
    });
    const context = m.input.context as { reviewDocumentId?: string; references: unknown[] };
    expect(context.reviewDocumentId).toBe(report!.id);
    expect(context.references.length).toBeGreaterThan(0);
    expect(model!.inputs).toContainEqual(
      expect.objectContaining({ kind: 'dataset', id: dataset.id, fromStep: 2 }),
    );
    const modFile = model!.outputs.find((o) => o.kind === 'document' && o.label.endsWith('.mod'));
    expect(modFile?.id).toBeDefined();

    // Code: its input holds the dataset and the .mod file, and its requirements name them.
    const c = await session(4);
    const workingFiles = c.input.workingFiles as Array<{ kind: string; id: string }>;
    expect(workingFiles).toContainEqual(
      expect.objectContaining({ kind: 'dataset', id: dataset.id }),
    );
    expect(workingFiles).toContainEqual(
      expect.objectContaining({ kind: 'document', id: modFile!.id }),
    );
    expect(String(c.input.requirements)).toContain(modFile!.label);
    expect(code!.inputs).toContainEqual(
      expect.objectContaining({ kind: 'document', id: modFile!.id, fromStep: 3 }),
    );
    // The program ran in the sandbox and read both: the dataset's rows, the model's variables.
    const ran = readPhaseResults(codePhases, c.results).tests?.code_run;
    expect(ran?.ok, ran?.output).toBe(true);
    const rows = macroCsv.toString('utf8').trim().split('\n').length - 1;
    expect(ran!.output).toMatch(new RegExp(`^\\./data/[^\\n]*\\.csv: ${rows} rows$`, 'm'));
    expect(ran!.output).toMatch(/^\.\/data\/[^\n]*\.mod: var [A-Za-z_]\w*$/m);

    // The research record: every session, the workflow, the documents and the dataset; every
    // stage the teams cover reached.
    const rec = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${projectId}/record`,
      headers,
    });
    const record = projectRecordReplySchema.parse(rec.json()).record;
    expect(record.progress).toBe(100);
    expect(record.workflowStage).toBe('coding');
    expect(record.sessions).toHaveLength(5);
    expect(record.sessions.every((s) => s.workflowId === id && s.status === 'completed')).toBe(
      true,
    );
    expect(record.workflows.map((x) => x.id)).toEqual([id]);
    expect(record.datasets.map((d) => d.id)).toContain(dataset.id);
    expect(record.documents.map((d) => d.id)).toEqual(
      expect.arrayContaining([report!.id, modFile!.id]),
    );
    expect(record.researchQuestions).toEqual(expect.arrayContaining(questions));
  }, 300_000);
});
