import { existsSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AgentSession } from '../../../../common/agents';
import type { CodeStatusReply, ExecuteCodeReply, ExportReply } from '../../../../common/teams/code';
import { ADMIN, createTestApp, createUser, login, type TestApp } from '../../../../test/app';
import { client } from '../../../../test/client';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../../test/llm-server';
import { sessionClient } from '../../../../test/teams/helpers';
import { hasSandbox, sandboxSkipReason } from '../../../../test/requirements';

/**
 * The Code team through HTTP with the scripted model server: both workflow modes, a repair after
 * a failing run and after failing tests, the editor's execute call, and the signed export link.
 * The code the model "writes" really runs in the sandbox.
 */

const why = sandboxSkipReason;

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

afterEach(() => {
  vi.useRealTimers();
});

const MAIN = `import numpy as np


def mean_wage(wages):
    return float(np.mean(wages))


if __name__ == "__main__":
    print("mean wage:", mean_wage([10.0, 20.0, 30.0]))
`;

// Runs, but wrong: the tests have to catch it.
const OPTIMIZED_WRONG = `def mean_wage(wages):
    """The mean of the wages."""
    return sum(wages) / (len(wages) - 1)


if __name__ == "__main__":
    print("mean wage:", mean_wage([10.0, 20.0, 30.0]))
`;

const OPTIMIZED_FIXED = OPTIMIZED_WRONG.replace('(len(wages) - 1)', 'len(wages)');

const TESTS = `import pytest
from main import mean_wage


def test_mean_of_three():
    assert mean_wage([10.0, 20.0, 30.0]) == pytest.approx(20.0)


def test_single_value():
    assert mean_wage([5.0]) == pytest.approx(5.0)
`;

function scriptComprehensive() {
  llm.reset();
  llm.scriptPhase('code', 'generation', {
    json: { code: '```python\n' + MAIN + '```', explanation: 'Computes the mean wage.' },
  });
  llm.scriptPhase('code', 'review', {
    json: {
      summary: 'Works; could be leaner.',
      findings: [
        { criterion: 'clarity', severity: 'medium', lines: [4, 99], comment: 'No docstring.' },
        { criterion: 'efficiency', severity: 'low', lines: [1], comment: 'numpy for a mean.' },
      ],
    },
  });
  llm.scriptPhase('code', 'optimization', {
    json: { optimized_code: OPTIMIZED_WRONG, changes: ['Dropped numpy', 'Added a docstring'] },
  });
  llm.scriptPhase('code', 'tests', { json: { test_code: TESTS } });
  llm.script({
    agent: 'code',
    phase: 'tests',
    match: /tests failed when run/,
    replies: [
      { json: { code: OPTIMIZED_FIXED, test_code: null, explanation: 'Divide by the count.' } },
    ],
  });
}

async function statusOf(token: string, id: string): Promise<CodeStatusReply> {
  const res = await client(t.app, token).get(`/api/agents/code-team/status/${id}`);
  expect(res.status).toBe(200);
  return res.body as CodeStatusReply;
}

async function develop(
  token: string,
  body: Record<string, unknown>,
): Promise<{ id: string; done: AgentSession }> {
  const res = await client(t.app, token).post('/api/agents/code-team/develop', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = (res.body as { sessionId: string }).sessionId;
  const done = await sessionClient(t.app, token).waitFor(
    id,
    (s) => s.status === 'completed' || s.status === 'error',
    90_000,
  );
  return { id, done };
}

/** The files of a zip (central directory, stored or deflated entries). */
function unzip(buf: Buffer): Record<string, string> {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buf.readUInt16LE(eocd + 10);
  let pos = buf.readUInt32LE(eocd + 16);
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(pos + 10);
    const size = buf.readUInt32LE(pos + 20);
    const nameLen = buf.readUInt16LE(pos + 28);
    const skip = nameLen + buf.readUInt16LE(pos + 30) + buf.readUInt16LE(pos + 32);
    const name = buf.subarray(pos + 46, pos + 46 + nameLen).toString();
    const local = buf.readUInt32LE(pos + 42);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    files[name] = (method === 8 ? inflateRawSync(data) : data).toString('utf8');
    pos += 46 + skip;
  }
  return files;
}

describe('POST /api/agents/code-team/develop: validation', () => {
  it("refuses blank requirements with 'Please enter code requirements', bad fields with a 400", async () => {
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    for (const requirements of ['', '   ']) {
      const res = await api.post('/api/agents/code-team/develop', { requirements });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false });
      expect((res.body as { error: string }).error).toMatch(
        /requirements: Please enter code requirements/,
      );
    }
    const noField = await api.post('/api/agents/code-team/develop', {});
    expect(noField.status).toBe(400);
    expect((noField.body as { error: string }).error).toMatch(/Please enter code requirements/);
    const badLanguage = await api.post('/api/agents/code-team/develop', {
      requirements: 'x',
      language: 'cobol',
    });
    expect(badLanguage.status).toBe(400);
    expect((badLanguage.body as { error: string }).error).toMatch(/language must be one of/);
    const badMode = await api.post('/api/agents/code-team/develop', {
      requirements: 'x',
      workflowMode: 'fast',
    });
    expect(badMode.status).toBe(400);
    const anon = await t.app.inject({
      method: 'POST',
      url: '/api/agents/code-team/develop',
      payload: { requirements: 'x' },
    });
    expect(anon.statusCode).toBe(401);
  });

  it('GET /api/agents/status lists the code runtimes and whether the sandbox is there', async () => {
    const user = await createUser(t.app);
    const res = await client(t.app, user.accessToken).get('/api/agents/status');
    expect(res.status).toBe(200);
    const data = (
      res.body as {
        data: {
          codeExecution: {
            sandbox: { available: boolean; message?: string };
            runtimes: Array<{ language: string; available: boolean; message?: string }>;
          };
        };
      }
    ).data.codeExecution;
    expect(data.sandbox.available).toBe(existsSync('/usr/bin/bwrap'));
    expect(data.runtimes.map((r) => r.language).sort()).toEqual([
      'dynare',
      'julia',
      'matlab',
      'python',
      'r',
    ]);
    const python = data.runtimes.find((r) => r.language === 'python')!;
    expect(python.available).toBe(existsSync('/usr/bin/python3'));
    const julia = data.runtimes.find((r) => r.language === 'julia')!;
    if (!julia.available) expect(julia.message).toMatch(/Julia is not installed/);
  });

  it('is listed as an available team', async () => {
    const user = await createUser(t.app);
    const res = await client(t.app, user.accessToken).get('/api/agents/teams');
    const teams = (res.body as { teams: Array<{ id: string; available: boolean }> }).teams;
    expect(teams).toContainEqual(expect.objectContaining({ id: 'code', available: true }));
  });
});

describe.skipIf(!hasSandbox)(`a Code session${why}`, () => {
  it('comprehensive: generates, reviews (score from findings), optimizes, repairs after failing tests, saves the package', async () => {
    scriptComprehensive();
    const user = await createUser(t.app);
    const { id, done } = await develop(user.accessToken, {
      requirements: 'A function computing the mean wage of a list of wages.',
      language: 'python',
    });
    expect(done.status, done.error ?? '').toBe('completed');
    const status = await statusOf(user.accessToken, id);
    expect(status.phase).toBe(5);
    expect(status.configuration).toEqual({
      language: 'python',
      frameworks: ['pandas', 'numpy', 'matplotlib'],
      workflowMode: 'comprehensive',
    });

    const generation = status.results[1]!;
    expect(generation.main_code).toBe(MAIN); // the fence was stripped
    expect(generation.execution).toMatchObject({ ok: true, kind: 'ok', exitCode: 0 });
    expect(generation.execution!.output).toBe('mean wage: 20.0\n');
    expect(generation.repairs).toEqual([]);

    const review = status.results[2]!;
    expect(review.skipped).toBe(false);
    // clarity 10 - 1.5, efficiency 10 - 0.5: mean of 10, 8.5, 9.5, 10.
    expect(review.criteria).toEqual({
      correctness: 10,
      clarity: 8.5,
      efficiency: 9.5,
      reproducibility: 10,
    });
    expect(review.overall_score).toBe(9.5);
    // Line 99 does not exist in a 9-line file: dropped.
    expect(review.findings[0]).toMatchObject({ lines: [4], source: 'model' });

    const optimization = status.results[3]!;
    expect(optimization.optimized_code).toBe(OPTIMIZED_WRONG);
    expect(optimization.execution).toMatchObject({ ok: true });

    const tests = status.results[4]!;
    expect(tests.test_code).toBe(TESTS);
    expect(tests.run).toMatchObject({ status: 'passed', passed: 2, failed: 0, exitCode: 0 });
    expect(tests.repairs).toHaveLength(1);
    expect(tests.repairs[0]).toMatchObject({ attempt: 1, changed: 'code', outcome: 'fixed' });
    expect(tests.repairs[0]!.problem).toMatch(/2 failed/);
    expect(tests.code_under_test).toBe(OPTIMIZED_FIXED);
    expect(tests.code_source).toBe('repaired');
    expect(tests.dependencies).toEqual(['pytest']);

    // The repair is in the log, after the failing run it answers.
    const failIdx = status.logs.findIndex((l) =>
      /Ran the tests in the sandbox: failed \(0 passed, 2 failed\)/.test(l),
    );
    const repairIdx = status.logs.findIndex((l) => /Repair attempt 1: the tests now pass/.test(l));
    expect(failIdx).toBeGreaterThanOrEqual(0);
    expect(repairIdx).toBeGreaterThan(failIdx);
    expect(status.logs.some((l) => /score 9.5 of 10 computed from them/.test(l))).toBe(true);

    // The repair request showed the model the failure.
    const repairCall = llm
      .requestsFor('code', 'tests')
      .find((r) => /tests failed when run/.test(r.prompt));
    expect(repairCall?.prompt).toMatch(/ZeroDivisionError|assert/);

    expect(status.finalOutputs).toMatchObject({
      language: 'python',
      code: OPTIMIZED_FIXED,
      tests: 'passed',
      overall_score: 9.5,
    });
    const documentId = tests.documentId!;
    expect(status.finalOutputs!.documentId).toBe(documentId);
    const doc = await client(t.app, user.accessToken).get(`/api/documents/${documentId}`);
    expect(doc.status).toBe(200);
    const content = JSON.stringify(doc.body);
    expect(content).toContain('code_documentation');
    expect(content).toContain('python3 -m pytest test_main.py');
    expect(content).toContain('2 passed, 0 failed');
  }, 120_000);

  it('quick: runs generation and tests only, repairs generated code that fails to run', async () => {
    llm.reset();
    const broken = 'import numpy as np\nprint(np.mean([1, 2, 3])\n';
    const fixed =
      'import numpy as np\n\n\ndef three():\n    return 3\n\n\nprint(np.mean([1, 2, 3]))\n';
    llm.scriptPhase('code', 'generation', { json: { code: broken, explanation: 'Mean.' } });
    llm.script({
      agent: 'code',
      phase: 'generation',
      match: /generated code failed when run/,
      replies: [{ json: { code: fixed, explanation: 'Closed the parenthesis.' } }],
    });
    llm.scriptPhase('code', 'tests', {
      json: {
        test_code: 'from main import three\n\n\ndef test_three():\n    assert three() == 3\n',
      },
    });
    const user = await createUser(t.app);
    const { id, done } = await develop(user.accessToken, {
      requirements: 'Print the mean of 1, 2 and 3.',
      workflowMode: 'quick',
    });
    expect(done.status, done.error ?? '').toBe('completed');
    const status = await statusOf(user.accessToken, id);
    expect(status.configuration.workflowMode).toBe('quick');
    const generation = status.results[1]!;
    expect(generation.main_code).toBe(fixed);
    expect(generation.repairs).toEqual([
      expect.objectContaining({ attempt: 1, changed: 'code', outcome: 'fixed' }),
    ]);
    expect(generation.repairs[0]!.problem).toMatch(/SyntaxError/);
    expect(generation.execution).toMatchObject({ ok: true, output: '2.0\n' });
    expect(status.results[2]).toMatchObject({ skipped: true, overall_score: null });
    expect(status.results[3]).toMatchObject({ skipped: true, optimized_code: null });
    expect(status.results[4]!.run).toMatchObject({ status: 'passed', passed: 1, failed: 0 });
    expect(status.results[4]!.code_source).toBe('generated');
    expect(llm.requestsFor('code', 'review')).toEqual([]);
    expect(llm.requestsFor('code', 'optimization')).toEqual([]);
    expect(status.logs).toContain('Code Review skipped: quick mode runs generation and tests only');
    expect(
      status.logs.some((l) => /failed in the sandbox .*SyntaxError|exited with status 1/.test(l)),
    ).toBe(true);
  }, 120_000);

  it('gives up after the bounded repairs and says so; the tests record their failure', async () => {
    llm.reset();
    const failing = 'raise SystemExit("no data")\n';
    llm.scriptPhase('code', 'generation', { json: { code: failing, explanation: 'x' } });
    llm.script({
      agent: 'code',
      phase: 'generation',
      match: /failed when run/,
      replies: [{ json: { code: failing, explanation: 'still' } }],
    });
    llm.scriptPhase('code', 'tests', { json: { test_code: 'def test_x():\n    assert False\n' } });
    llm.script({
      agent: 'code',
      phase: 'tests',
      match: /tests failed when run/,
      replies: [{ json: { code: null, test_code: null, explanation: 'no idea' } }],
    });
    const user = await createUser(t.app);
    const { id } = await develop(user.accessToken, {
      requirements: 'Anything.',
      workflowMode: 'quick',
    });
    const status = await statusOf(user.accessToken, id);
    expect(status.status).toBe('completed');
    const generation = status.results[1]!;
    expect(generation.repairs.map((r) => r.outcome)).toEqual(['still_failing', 'still_failing']);
    expect(generation.execution).toMatchObject({ ok: false, kind: 'exit', exitCode: 1 });
    expect(status.logs).toContain('The generated code still fails after 2 repairs');
    const tests = status.results[4]!;
    expect(tests.run).toMatchObject({ status: 'failed', passed: 0, failed: 1 });
    expect(tests.repairs).toHaveLength(2);
    expect(tests.repairs.every((r) => r.changed === 'none')).toBe(true);
    expect(status.finalOutputs?.tests).toBe('failed');
  }, 120_000);

  const OTHER_LANGUAGES = [
    {
      language: 'r',
      available: existsSync('/usr/bin/Rscript'),
      code: 'mean_wage <- function(w) sum(w) / length(w)\ncat("mean wage:", mean_wage(c(10, 20, 30)), "\\n")\n',
      output: 'mean wage: 20 \n',
      tests: [
        'source("main.R")',
        'failed <- 0',
        'check <- function(name, ok) {',
        '  if (isTRUE(ok)) cat("ok -", name, "\\n") else { cat("not ok -", name, "\\n"); failed <<- failed + 1 }',
        '}',
        'check("mean of three", mean_wage(c(10, 20, 30)) == 20)',
        'check("single value", mean_wage(5) == 5)',
        'if (failed > 0) quit(status = 1)',
      ].join('\n'),
      passed: 2,
    },
    {
      language: 'matlab',
      available: existsSync('/usr/bin/octave'),
      code: "1;\nfunction m = mean_wage(w)\n  m = sum(w) / numel(w);\nend\nfprintf('mean wage: %g\\n', mean_wage([10 20 30]));\n",
      output: 'mean wage: 20\n',
      tests: [
        "source('main.m');",
        'failed = 0;',
        "if mean_wage([10 20 30]) == 20, disp('ok - mean of three'); else, disp('not ok - mean of three'); failed = failed + 1; end",
        "if mean_wage(5) == 5, disp('ok - single value'); else, disp('not ok - single value'); failed = failed + 1; end",
        'if failed > 0, exit(1); end',
      ].join('\n'),
      passed: 2,
    },
    {
      language: 'dynare',
      available: existsSync('/usr/bin/octave') && existsSync('/usr/lib/dynare/matlab/dynare.m'),
      code: [
        'var y c k;',
        'varexo e;',
        'parameters alpha beta delta;',
        'alpha = 0.33; beta = 0.99; delta = 0.025;',
        'model;',
        '1/c = beta*(1/c(+1))*(alpha*k^(alpha-1) + 1 - delta);',
        'y = k(-1)^alpha*exp(e);',
        'k = y - c + (1-delta)*k(-1);',
        'end;',
        'initval;',
        'k = 30; c = 2; y = 3; e = 0;',
        'end;',
        'steady;',
        'shocks;',
        'var e; stderr 0.01;',
        'end;',
        'stoch_simul(order=1, irf=10, nograph);',
      ].join('\n'),
      output: null,
      tests: [
        "k = oo_.steady_state(find(strcmp(M_.endo_names, 'k')));",
        "if abs(k - 28.35) < 0.05, disp('ok - capital steady state'); else, disp('not ok - capital steady state'); exit(1); end",
      ].join('\n'),
      passed: 1,
    },
  ] as const;

  for (const lang of OTHER_LANGUAGES) {
    it.skipIf(!lang.available)(
      `quick ${lang.language}: the code runs and its tests run in the sandbox` +
        (lang.available ? '' : ' (skipped: its Debian runtime is not installed)'),
      async () => {
        llm.reset();
        llm.scriptPhase('code', 'generation', { json: { code: lang.code, explanation: 'x' } });
        llm.scriptPhase('code', 'tests', { json: { test_code: lang.tests } });
        const user = await createUser(t.app);
        const { id, done } = await develop(user.accessToken, {
          requirements: 'Mean wage.',
          language: lang.language,
          workflowMode: 'quick',
        });
        expect(done.status, done.error ?? '').toBe('completed');
        const status = await statusOf(user.accessToken, id);
        const generation = status.results[1]!;
        expect(generation.execution, JSON.stringify(generation.execution)).toMatchObject({
          ok: true,
        });
        if (lang.output) expect(generation.execution!.output).toBe(lang.output);
        expect(generation.repairs).toEqual([]);
        expect(status.configuration.frameworks).toEqual([]);
        const tests = status.results[4]!;
        expect(tests.run, tests.run.output).toMatchObject({
          status: 'passed',
          passed: lang.passed,
          failed: 0,
        });
      },
      120_000,
    );
  }

  it('keeps a session to its owner: others get 404 on status and export', async () => {
    scriptComprehensive();
    const owner = await createUser(t.app);
    const other = await createUser(t.app);
    const { id } = await develop(owner.accessToken, {
      requirements: 'Mean wage.',
      workflowMode: 'quick',
    });
    const api = client(t.app, other.accessToken);
    expect((await api.get(`/api/agents/code-team/status/${id}`)).status).toBe(404);
    expect((await api.get(`/api/agents/code-team/export/${id}?format=zip`)).status).toBe(404);
    expect((await api.get('/api/agents/code-team/status/not-a-uuid')).status).toBe(404);
  }, 120_000);
});

describe.skipIf(!hasSandbox)(`POST /api/agents/code-team/execute${why}`, () => {
  it('runs code without a session: output and figures come back', async () => {
    const user = await createUser(t.app);
    const res = await client(t.app, user.accessToken).post('/api/agents/code-team/execute', {
      code: 'import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.savefig("fig.png")\nprint("done")\n',
      language: 'python',
    });
    expect(res.status).toBe(200);
    const body = res.body as ExecuteCodeReply;
    expect(body).toMatchObject({ success: true, output: 'done\n', kind: 'ok', exitCode: 0 });
    expect(body.error).toBeUndefined();
    expect(body.figures).toHaveLength(1);
    expect(body.figures[0]).toMatchObject({ name: 'fig.png', mimeType: 'image/png' });
    expect(body.figures[0]!.base64.length).toBeGreaterThan(100);
  });

  it('answers a failing program with its error and output', async () => {
    const user = await createUser(t.app);
    const res = await client(t.app, user.accessToken).post('/api/agents/code-team/execute', {
      code: 'print("a")\nraise ValueError("bad input")\n',
      language: 'python',
    });
    expect(res.status).toBe(200);
    const body = res.body as ExecuteCodeReply;
    expect(body.error).toBe('The program exited with status 1');
    expect(body.output).toMatch(/ValueError: bad input/);
  });

  it("refuses empty code with 'No code to execute' and bad bodies with a 400", async () => {
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const empty = await api.post('/api/agents/code-team/execute', {
      code: '  ',
      language: 'python',
    });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ success: false, error: 'No code to execute' });
    const noLanguage = await api.post('/api/agents/code-team/execute', { code: 'print(1)' });
    expect(noLanguage.status).toBe(400);
    const badSession = await api.post('/api/agents/code-team/execute', {
      code: 'print(1)',
      language: 'python',
      sessionId: 'nope',
    });
    expect(badSession.status).toBe(400);
    expect((badSession.body as { error: string }).error).toMatch(/sessionId must be a UUID/);
  });

  it('with a sessionId, only its owner may run code (not another user, not an admin)', async () => {
    llm.reset();
    llm.scriptPhase('code', 'generation', { json: { code: 'print(1)\n', explanation: 'x' } });
    llm.scriptPhase('code', 'tests', { json: { test_code: 'def test_x():\n    assert True\n' } });
    const owner = await createUser(t.app);
    const { id } = await develop(owner.accessToken, { requirements: 'x', workflowMode: 'quick' });
    const body = { code: 'print(2)', language: 'python', sessionId: id };
    const mine = await client(t.app, owner.accessToken).post('/api/agents/code-team/execute', body);
    expect(mine.status).toBe(200);
    expect((mine.body as ExecuteCodeReply).output).toBe('2\n');
    const other = await createUser(t.app);
    const theirs = await client(t.app, other.accessToken).post(
      '/api/agents/code-team/execute',
      body,
    );
    expect(theirs.status).toBe(404);
    const admin = (await login(t.app, ADMIN.email, ADMIN.password)).accessToken;
    const adminRes = await client(t.app, admin).post('/api/agents/code-team/execute', body);
    expect(adminRes.status).toBe(404);
  }, 60_000);

  it("uses the user's Terminal & Runtime time limit, capped by the server", async () => {
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    // The default setting is 60 s; the server here allows 20 s.
    const capped = await api.post('/api/agents/code-team/execute', {
      code: 'print(1)',
      language: 'python',
    });
    expect((capped.body as ExecuteCodeReply).timeLimitSeconds).toBe(20);
    const saved = await api.put('/api/settings', { runtime: { codeExecutionTimeLimitSeconds: 5 } });
    expect(saved.status).toBe(200);
    const loop = await api.post('/api/agents/code-team/execute', {
      code: 'while True:\n    pass\n',
      language: 'python',
    });
    expect(loop.status).toBe(200);
    expect(loop.body).toMatchObject({
      kind: 'time-limit',
      timeLimitSeconds: 5,
      error: 'Execution stopped: the time limit of 5 s was reached',
    });
  }, 30_000);
});

describe.skipIf(!hasSandbox)(`GET /api/agents/code-team/export/{id}?format=zip${why}`, () => {
  let owner: { id: string; accessToken: string };
  let sessionId: string;

  beforeAll(async () => {
    scriptComprehensive();
    owner = await createUser(t.app);
    sessionId = (
      await develop(owner.accessToken, { requirements: 'Mean wage of a list.', language: 'python' })
    ).id;
  }, 120_000);

  async function exportLink(token = owner.accessToken): Promise<ExportReply> {
    const res = await client(t.app, token).get(
      `/api/agents/code-team/export/${sessionId}?format=zip`,
    );
    expect(res.status).toBe(200);
    return res.body as ExportReply;
  }

  it('returns a signed link that downloads the package once', async () => {
    const link = await exportLink();
    expect(link.downloadUrl).toMatch(/\/download\?token=/);
    expect(link.fileName).toMatch(/^code-package-python-\d{4}-\d{2}-\d{2}\.zip$/);
    const first = await t.app.inject({ method: 'GET', url: link.downloadUrl });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/zip');
    expect(first.headers['content-disposition']).toContain(link.fileName);
    const files = unzip(first.rawPayload);
    expect(Object.keys(files).sort()).toEqual([
      'README.md',
      'main.py',
      'requirements.txt',
      'test_main.py',
    ]);
    expect(files['main.py']).toBe(OPTIMIZED_FIXED);
    expect(files['test_main.py']).toBe(TESTS);
    expect(files['requirements.txt']).toBe('pytest\n');
    expect(files['README.md']).toMatch(/Tests: \*\*passed\*\* \(2 passed, 0 failed\)/);
    expect(files['README.md']).toMatch(/Review score: \*\*9.5 \/ 10\*\*/);
    // Single use.
    const again = await t.app.inject({ method: 'GET', url: link.downloadUrl });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ success: false });
  });

  it('refuses an expired link, a forged one, and one made for another session', async () => {
    const link = await exportLink();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3600_000);
    const expired = await t.app.inject({ method: 'GET', url: link.downloadUrl });
    expect(expired.statusCode).toBe(401);
    vi.useRealTimers();

    const forged = await t.app.inject({
      method: 'GET',
      url: link.downloadUrl.replace(/token=[^&]+/, 'token=eyJhbGciOiJIUzI1NiJ9.e30.x'),
    });
    expect(forged.statusCode).toBe(401);

    const fresh = await exportLink();
    const otherPath = fresh.downloadUrl.replace(sessionId, '00000000-0000-4000-8000-000000000000');
    expect((await t.app.inject({ method: 'GET', url: otherPath })).statusCode).toBe(401);
    const noToken = await t.app.inject({ method: 'GET', url: fresh.downloadUrl.split('?')[0]! });
    expect(noToken.statusCode).toBe(401);
  });

  it("refuses another user's export and a format other than zip", async () => {
    const other = await createUser(t.app);
    const res = await client(t.app, other.accessToken).get(
      `/api/agents/code-team/export/${sessionId}?format=zip`,
    );
    expect(res.status).toBe(404);
    const md = await client(t.app, owner.accessToken).get(
      `/api/agents/code-team/export/${sessionId}?format=markdown`,
    );
    expect(md.status).toBe(400);
    expect((md.body as { error: string }).error).toMatch(/format must be 'zip'/);
  });
});
