import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AgentInfo,
  AgentSession,
  AgentTeamsReply,
  Execution,
  LogsReply,
  MetricsReply,
} from '../../../common/agents';
import {
  ADMIN,
  bearer,
  createSiblingApp,
  createTestApp,
  createUser,
  login,
  type TestApp,
} from '../../../test/app';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../test/llm-server';
import { hasStatus, sessionClient, waitingAt } from '../../../test/teams/helpers';
import { notifications } from '../../db/schema';
import { createSessionStore } from './store';
import { runtimeTestTeam } from '../../../test/teams/runtime-test-team';

/**
 * The runtime through its HTTP API, on the internal test team: start, status, logs, feedback,
 * every state transition (also the refused ones), ownership, limits and the v2 API.
 */

let t: TestApp;
let llm: ScriptedLlmServer;

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  t = await createTestApp(
    {
      AGENT_PHASE_TIMEOUT_SECONDS: '2',
      AGENT_MAX_CONCURRENT_SESSIONS: '2',
      AGENT_SESSION_TOKEN_BUDGET: '60',
      AGENT_LEASE_SECONDS: '3',
      LLM_PROVIDER: 'openai-compatible',
      LLM_MODEL: 'scripted-model',
      OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
    },
    { extraTeams: [runtimeTestTeam] },
  );
});

afterAll(async () => {
  await t?.close();
  await llm?.close();
});

async function researcher() {
  const u = await createUser(t.app);
  return { ...u, c: sessionClient(t.app, u.accessToken) };
}

describe('a session of the test team through its checkpoints', () => {
  it('start answers 201 processing at phase 1, then waits at checkpoint 1 with the data', async () => {
    const { c } = await researcher();
    const res = await c.start({ teamId: 'runtime-test', input: { topic: 'labour supply' } });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ success: true, status: 'processing', phase: 1 });
    expect(body.session.totalPhases).toBe(4);
    const s = await c.waitFor(body.sessionId, waitingAt(1));
    expect(s.phase).toBe(1);
    expect(s.phaseKey).toBe('collect');
    expect(s.phaseName).toBe('Collect');
    expect(s.checkpointData).toMatchObject({ items: ['labour', 'supply'] });
    expect(s.results).toHaveLength(1);
    const status = (await c.get(body.sessionId)).json();
    expect(status.logs).toContain('Collected 2 items from the topic');
    expect(status.logs.at(-1)).toBe('Waiting for your feedback at Checkpoint 1: Items Review');
  });

  it('feedback re-runs the phase and pauses at the same checkpoint; Approved continues; later phases see everything', async () => {
    const { c } = await researcher();
    const id = await c.startTest('monetary policy shocks');
    await c.waitFor(id, waitingAt(1));

    const revise = await c.feedback(id, 'Add fiscal policy too');
    expect(revise.statusCode).toBe(200);
    expect(revise.json()).toMatchObject({ status: 'processing', phase: 1 });
    const revised = await c.waitFor(id, (s) => waitingAt(1)(s) && s.feedback.length === 1);
    expect(revised.checkpointData).toMatchObject({
      items: ['monetary', 'policy', 'shocks', 'revised: Add fiscal policy too'],
      revision: 1,
    });
    expect(revised.feedback[0]).toMatchObject({
      phase: 1,
      checkpoint: 1,
      feedback: 'Add fiscal policy too',
      approved: false,
    });
    // The re-run replaced the phase's result instead of adding a second one.
    expect(revised.results).toHaveLength(1);

    expect((await c.feedback(id, 'Approved')).json()).toMatchObject({
      status: 'processing',
      phase: 2,
    });
    const second = await c.waitFor(id, waitingAt(2));
    expect(second.phase).toBe(3);
    const analyse = second.results.find((r) => r.key === 'analyse')!.result;
    expect(analyse).toEqual({ itemCount: 4, earlierPhases: ['collect'], feedbackCount: 2 });
    expect(second.checkpointData).toEqual({ draft: 'Draft about monetary policy shocks' });

    await c.feedback(id, 'Shorter please');
    const redraft = await c.waitFor(id, (s) => waitingAt(2)(s) && s.feedback.length === 3);
    expect(redraft.checkpointData).toEqual({
      draft: 'Draft about monetary policy shocks (revised: Shorter please)',
    });

    await c.feedback(id, 'Approved');
    const done = await c.waitFor(id, hasStatus('completed'));
    expect(done.phase).toBe(4);
    expect(done.checkpoint).toBeNull();
    expect(done.completedAt).not.toBeNull();
    const finish = done.results.find((r) => r.key === 'finish')!.result;
    expect(finish).toEqual({
      summary: 'monetary policy shocks: 3 phases, 4 feedback',
      earlierPhases: ['collect', 'analyse', 'draft'],
      feedbackCount: 4,
    });
    expect(done.finalOutputs).toMatchObject({
      summary: 'monetary policy shocks: 3 phases, 4 feedback',
    });
    expect(done.feedback.map((f) => f.feedback)).toEqual([
      'Add fiscal policy too',
      'Approved',
      'Shorter please',
      'Approved',
    ]);
    const logs = await c.logLines(id);
    expect(logs).toContain('Running phase 1/4 again with your feedback: Collect');
    expect(logs).toContain('Checkpoint 2 approved');
    expect(logs.at(-1)).toBe('Session completed: all 4 phases done');

    // Nothing after completion.
    for (const res of [
      await c.feedback(id, 'Approved'),
      await c.action(id, 'reset'),
      await c.action(id, 'cancel'),
      await c.action(id, 'pause'),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        success: false,
        error: expect.stringMatching(/completed/),
      });
    }
  });

  it('the owner is notified when a session waits and when it completes', async () => {
    const { c, id: userId } = await researcher();
    const id = await c.startTest('trade');
    await c.waitFor(id, waitingAt(1));
    await c.feedback(id, 'Approved');
    await c.waitFor(id, waitingAt(2));
    await c.feedback(id, 'Approved');
    await c.waitFor(id, hasStatus('completed'));
    // The notification is written right after the status change the poll saw.
    const sessionNotes = async () =>
      (await t.ctx.db.select().from(notifications).where(eq(notifications.userId, userId))).filter(
        (r) => r.kind.startsWith('session_'),
      );
    const deadline = Date.now() + 5000;
    while ((await sessionNotes()).length < 3 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const rows = await sessionNotes();
    expect(rows.map((r) => r.kind).sort()).toEqual([
      'session_completed',
      'session_waiting',
      'session_waiting',
    ]);
    expect(rows.every((r) => r.link === `/app/runtime-test?session=${id}`)).toBe(true);
    // The checkpoint is named once ("Checkpoint 1: Items Review"), not "Checkpoint 1 (Checkpoint 1: ...)".
    const waiting = rows.filter((r) => r.kind === 'session_waiting').map((r) => r.message);
    expect(waiting).toContain('Checkpoint 1: Items Review is waiting for your feedback.');
    expect(waiting.every((m) => !/Checkpoint \d+ \(/.test(m))).toBe(true);
  });
});

describe('refused transitions and bad input', () => {
  it('feedback while processing is 409; blank feedback is 400', async () => {
    const { c } = await researcher();
    const id = await c.startTest('slow topic', { delayMs: 1500 });
    const res = await c.feedback(id, 'Approved');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/only be given while the session is waiting for input/);
    const blank = await c.feedback(id, '   ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toMatch(/feedback/);
    await c.action(id, 'cancel');
  });

  it('start validates the team, the input and the configuration', async () => {
    const { c } = await researcher();
    const unknown = await c.start({ teamId: 'no-such-team', input: {} });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('Team not found');

    const noTopic = await c.start({ teamId: 'runtime-test', input: {} });
    expect(noTopic.statusCode).toBe(400);
    expect(noTopic.json().error).toMatch(/topic/);

    const badConfig = await c.start({
      teamId: 'runtime-test',
      input: { topic: 'x' },
      configuration: { delayMs: 'soon' },
    });
    expect(badConfig.statusCode).toBe(400);
    expect(badConfig.json().error).toMatch(/configuration.*delayMs/);

    const noTeam = await c.start({ input: { topic: 'x' } });
    expect(noTeam.statusCode).toBe(400);
    expect(noTeam.json().error).toMatch(/teamId/);

    const badProject = await c.start({
      teamId: 'runtime-test',
      input: { topic: 'x' },
      projectId: '00000000-0000-4000-8000-000000000000',
    });
    expect(badProject.statusCode).toBe(404);
    expect(badProject.json().error).toBe('Project not found');
  });

  it('a viewer cannot start a session (403)', async () => {
    const viewer = await createUser(t.app, { role: 'viewer' });
    const res = await sessionClient(t.app, viewer.accessToken).start({
      teamId: 'runtime-test',
      input: { topic: 'x' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/Viewers cannot start agent teams/);
  });

  it('without a token every session endpoint answers 401', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/agents/sessions' });
    expect(res.statusCode).toBe(401);
  });
});

describe('ownership', () => {
  it("another user's session is 404 everywhere; an admin can see and cancel it, not drive it", async () => {
    const owner = await researcher();
    const other = await researcher();
    const id = await owner.c.startTest('ownership');
    await owner.c.waitFor(id, waitingAt(1));

    for (const res of [
      await other.c.get(id),
      await other.c.logs(id),
      await other.c.feedback(id, 'Approved'),
      await other.c.action(id, 'reset'),
      await other.c.action(id, 'cancel'),
      await t.app.inject({
        method: 'GET',
        url: `/api/v2/agents/executions/${id}`,
        headers: bearer(other.accessToken),
      }),
      await t.app.inject({
        method: 'GET',
        url: `/api/v2/agents/logs/${id}`,
        headers: bearer(other.accessToken),
      }),
      await t.app.inject({
        method: 'POST',
        url: `/api/v2/agents/executions/${id}/cancel`,
        headers: bearer(other.accessToken),
      }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, error: 'Session not found' });
    }
    // A malformed id is just as unknown.
    expect((await other.c.get('not-a-uuid')).statusCode).toBe(404);

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/agents/sessions',
      headers: bearer(other.accessToken),
    });
    expect(list.json().sessions).toEqual([]);

    // The session is untouched by the refused calls.
    expect((await owner.c.session(id)).status).toBe('waiting_for_input');

    const admin = await login(t.app, ADMIN.email, ADMIN.password);
    const ac = sessionClient(t.app, admin.accessToken);
    expect((await ac.get(id)).statusCode).toBe(200);
    expect((await ac.feedback(id, 'Approved')).statusCode).toBe(403);
    expect((await owner.c.session(id)).status).toBe('waiting_for_input');
    expect((await ac.action(id, 'cancel')).statusCode).toBe(200);
    expect((await owner.c.session(id)).status).toBe('error');
  });
});

describe('logs', () => {
  it('are sequence-numbered and `after` returns only newer lines', async () => {
    const { c } = await researcher();
    const id = await c.startTest('logs topic');
    await c.waitFor(id, waitingAt(1));
    const all = (await c.logs(id)).json() as LogsReply;
    expect(all.entries.map((e) => e.seq)).toEqual(all.entries.map((_, i) => i + 1));
    expect(all.logs).toEqual(all.entries.map((e) => e.message));
    expect(all.cursor).toBe(all.entries.length);
    expect(all.hasMore).toBe(false);

    const none = (await c.logs(id, `?after=${all.cursor}`)).json() as LogsReply;
    expect(none.logs).toEqual([]);
    expect(none.cursor).toBe(all.cursor);

    await c.feedback(id, 'Approved');
    await c.waitFor(id, waitingAt(2));
    const newer = (await c.logs(id, `?after=${all.cursor}`)).json() as LogsReply;
    expect(newer.entries[0]!.seq).toBe(all.cursor + 1);
    expect(newer.logs[0]).toBe('Checkpoint 1 approved');

    const paged = (await c.logs(id, '?after=0&limit=2')).json() as LogsReply;
    expect(paged.logs).toEqual(all.logs.slice(0, 2));
    expect(paged.hasMore).toBe(true);
    expect(paged.cursor).toBe(2);

    const bad = await c.logs(id, '?after=-1');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/after/);
    await c.action(id, 'cancel');
  });
});

describe('reset, cancel, pause and resume', () => {
  it('reset returns to idle, keeps the history and the log, and the session can start again', async () => {
    const { c, accessToken } = await researcher();
    const id = await c.startTest('reset topic');
    await c.waitFor(id, waitingAt(1));
    const before = await c.logLines(id);
    const res = await c.action(id, 'reset');
    expect(res.statusCode).toBe(200);
    const s = res.json().session as AgentSession;
    expect(s).toMatchObject({
      status: 'idle',
      phase: 0,
      checkpoint: null,
      checkpointData: null,
      results: [],
      feedback: [],
      error: null,
      paused: false,
    });
    const logs = await c.logLines(id);
    expect(logs.slice(0, before.length)).toEqual(before);
    expect(logs.at(-1)).toMatch(/^Session reset \(it was waiting for input at phase 1\)/);
    // Reset of an idle session is allowed and changes nothing more.
    expect((await c.action(id, 'reset')).statusCode).toBe(200);
    // Feedback on an idle session is refused.
    expect((await c.feedback(id, 'Approved')).statusCode).toBe(409);

    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v2/agents/runtime-test-workflow/execute',
      headers: bearer(accessToken),
      payload: { input: { topic: 'second run' }, sessionId: id },
    });
    expect(again.statusCode).toBe(201);
    const s2 = await c.waitFor(id, waitingAt(1));
    expect(s2.input).toEqual({ topic: 'second run' });
    expect(s2.checkpointData).toMatchObject({ items: ['second', 'run'] });
    await c.action(id, 'cancel');
  });

  it('cancel aborts the running phase at once and records the error', async () => {
    const { c } = await researcher();
    const id = await c.startTest('cancel topic', { hangAt: 'collect' });
    await c.waitFor(id, (s) => s.status === 'processing');
    await new Promise((r) => setTimeout(r, 200));
    const res = await c.action(id, 'cancel');
    expect(res.statusCode).toBe(200);
    expect(res.json().session).toMatchObject({ status: 'error', error: 'Cancelled by the user' });
    await new Promise((r) => setTimeout(r, 300));
    const s = await c.session(id);
    expect(s.status).toBe('error');
    expect(s.results).toEqual([]);
    const logs = await c.logLines(id);
    expect(logs.at(-1)).toBe('Cancelled by the user during phase 1');
    expect(logs.some((l) => l.startsWith('Completed phase'))).toBe(false);
    expect((await c.action(id, 'cancel')).statusCode).toBe(409);
    // An errored session can be reset.
    expect((await c.action(id, 'reset')).json().status).toBe('idle');
  });

  it('pause stops the phase; resume runs it again from its start', async () => {
    const { c } = await researcher();
    const id = await c.startTest('pause topic', { delayMs: 400 });
    await c.waitFor(id, (s) => s.status === 'processing');
    const paused = await c.action(id, 'pause');
    expect(paused.statusCode).toBe(200);
    expect(paused.json().session).toMatchObject({ status: 'idle', paused: true, phase: 1 });
    await new Promise((r) => setTimeout(r, 600));
    expect(await c.session(id)).toMatchObject({ status: 'idle', paused: true, results: [] });
    expect((await c.action(id, 'pause')).statusCode).toBe(409);
    const resumed = await c.action(id, 'resume');
    expect(resumed.json().session).toMatchObject({ status: 'processing', paused: false, phase: 1 });
    await c.waitFor(id, waitingAt(1));
    const logs = await c.logLines(id);
    expect(logs).toContain('Resumed at phase 1');
    expect(logs.filter((l) => l === 'Starting phase 1/4: Collect').length).toBeGreaterThanOrEqual(
      1,
    );
    expect((await c.action(id, 'resume')).statusCode).toBe(409);
    await c.action(id, 'cancel');
  });
});

describe('failures and limits', () => {
  it('a phase that throws ends the session with its error', async () => {
    const { c } = await researcher();
    const id = await c.startTest('fail topic', { failAt: 'collect' });
    const s = await c.waitFor(id, hasStatus('error'));
    expect(s.error).toBe('Collect failed: the test team was told to fail in phase collect');
    expect((await c.logLines(id)).at(-1)).toBe(s.error);
  });

  it('a phase the database fails under is run again, not ended as an error', async () => {
    const { c } = await researcher();
    // The first phase (run in the starting process) and a later one (run from a job).
    for (const at of ['collect', 'analyse']) {
      const id = await c.startTest(`database down at ${at}`, { databaseDownAt: at });
      if (at === 'analyse') {
        await c.waitFor(id, waitingAt(1));
        await c.feedback(id, 'Approved');
      }
      const s = await c.waitFor(id, at === 'collect' ? waitingAt(1) : waitingAt(2), 20_000);
      expect(s.status).toBe('waiting_for_input');
      expect(s.error ?? null).toBeNull();
      const logs = await c.logLines(id);
      const name = at === 'collect' ? 'Starting phase 1/4: Collect' : 'Starting phase 2/4: Analyse';
      expect(logs.filter((l) => l === name)).toHaveLength(2);
      expect(
        logs.filter((l) => l.includes('met a database that ended its connection')),
      ).toHaveLength(1);
      expect(logs.some((l) => / failed/.test(l))).toBe(false);
      await c.action(id, 'cancel');
    }
  });

  it('a result its schema refuses is an error that names the phase', async () => {
    const { c } = await researcher();
    const id = await c.startTest('invalid topic', { invalidAt: 'collect' });
    const s = await c.waitFor(id, hasStatus('error'));
    expect(s.error).toMatch(/^Collect produced a result that does not match its schema/);
  });

  it('a phase over its timeout is stopped, even one that ignores its abort signal', async () => {
    const { c } = await researcher();
    const a = await c.startTest('hang', { hangAt: 'collect' });
    const b = await c.startTest('hang harder', { hangAt: 'collect', ignoreAbort: true });
    for (const id of [a, b]) {
      const s = await c.waitFor(id, hasStatus('error'), 10_000);
      expect(s.error).toBe('Phase 1 (Collect) did not finish within 2.0 s and was stopped');
    }
  });

  it('a user may have only AGENT_MAX_CONCURRENT_SESSIONS active sessions', async () => {
    const { c } = await researcher();
    const a = await c.startTest('one');
    const b = await c.startTest('two');
    const third = await c.start({ teamId: 'runtime-test', input: { topic: 'three' } });
    expect(third.statusCode).toBe(409);
    expect(third.json().error).toMatch(/You already have 2 active agent sessions.*limit is 2/);
    await c.waitFor(a, waitingAt(1));
    await c.action(a, 'cancel');
    expect((await c.start({ teamId: 'runtime-test', input: { topic: 'three' } })).statusCode).toBe(
      201,
    );
    await c.action(b, 'cancel');
  });

  it('the token budget stops a session before the call that would go over it', async () => {
    llm.reset();
    llm.scriptPhase('runtime-test', 'draft', {
      text: 'A draft from the model.',
      usage: { promptTokens: 10, completionTokens: 20 },
    });
    const { c } = await researcher();
    const id = await c.startTest('budget', { useModel: true, modelCalls: 3 });
    await c.waitFor(id, waitingAt(1));
    await c.feedback(id, 'Approved');
    const s = await c.waitFor(id, hasStatus('error'));
    expect(s.error).toBe(
      'The session has used 60 model tokens of its budget of 60 and was stopped. Start a new ' +
        'session, or ask an administrator to raise AGENT_SESSION_TOKEN_BUDGET.',
    );
    expect(llm.requestsFor('runtime-test', 'draft')).toHaveLength(2);
    expect(s.usage).toMatchObject({ inputTokens: 20, outputTokens: 40, totalTokens: 60, calls: 2 });
    const logs = await c.logLines(id);
    expect(logs.filter((l) => l.startsWith('Model replied with 23 characters'))).toHaveLength(2);
  });

  it('the draft phase uses the model through the model layer and records usage', async () => {
    llm.reset();
    llm.scriptPhase('runtime-test', 'draft', {
      text: 'Model draft.',
      usage: { promptTokens: 5, completionTokens: 7 },
    });
    const { c } = await researcher();
    const id = await c.startTest('model', { useModel: true });
    await c.waitFor(id, waitingAt(1));
    await c.feedback(id, 'Approved');
    const s = await c.waitFor(id, waitingAt(2));
    expect(s.checkpointData).toEqual({ draft: 'Model draft.' });
    expect(s.usage).toMatchObject({ totalTokens: 12, calls: 1 });
    const [request] = llm.requestsFor('runtime-test', 'draft');
    expect(JSON.stringify(request!.messages)).toContain('Topic: model');
    await c.action(id, 'cancel');
  });
});

describe('version 2 agents API', () => {
  it('lists every agent with its JSON input schema, and one by id', async () => {
    const { accessToken } = await researcher();
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v2/agents',
      headers: bearer(accessToken),
    });
    expect(res.statusCode).toBe(200);
    const agents = res.json().agents as AgentInfo[];
    const workflow = agents.find((a) => a.id === 'runtime-test-workflow')!;
    expect(workflow).toMatchObject({ team: 'runtime-test', status: 'available' });
    expect(workflow.phases).toEqual(['collect', 'analyse', 'draft', 'finish']);
    expect(workflow.inputSchema).toMatchObject({
      type: 'object',
      properties: { topic: { type: 'string' } },
      required: ['topic'],
    });
    const one = await t.app.inject({
      method: 'GET',
      url: '/api/v2/agents/runtime-test-quick',
      headers: bearer(accessToken),
    });
    expect(one.json().agent.phases).toEqual(['analyse', 'finish']);
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/v2/agents/nope',
      headers: bearer(accessToken),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('Agent not found');
  });

  it('execute, executions (filters, paging), cancel, logs and metrics', async () => {
    const { accessToken, c } = await researcher();
    const h = bearer(accessToken);
    const exec = await t.app.inject({
      method: 'POST',
      url: '/api/v2/agents/runtime-test-quick/execute',
      headers: h,
      payload: { input: { topic: 'quick run' } },
    });
    expect(exec.statusCode).toBe(201);
    const execution = exec.json().execution as Execution;
    expect(execution).toMatchObject({
      agentId: 'runtime-test-quick',
      teamId: 'runtime-test',
      status: 'processing',
      totalPhases: 2,
    });
    const done = await c.waitFor(execution.executionId, hasStatus('completed'));
    // The quick agent ran only its own phases.
    expect(done.results.map((r) => r.key)).toEqual(['analyse', 'finish']);

    const got = await t.app.inject({
      method: 'GET',
      url: `/api/v2/agents/executions/${execution.executionId}`,
      headers: h,
    });
    expect(got.json().execution.status).toBe('completed');
    expect(got.json().execution.durationMs).toBeGreaterThanOrEqual(0);

    const slow = await t.app.inject({
      method: 'POST',
      url: '/api/v2/agents/runtime-test-workflow/execute',
      headers: h,
      payload: { input: { topic: 'to cancel' }, configuration: { hangAt: 'collect' } },
    });
    const slowId = slow.json().execution.executionId as string;
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/v2/agents/executions/${slowId}/cancel`,
      headers: h,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().execution).toMatchObject({
      status: 'error',
      error: 'Cancelled by the user',
    });

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v2/agents/executions?team=runtime-test&status=completed',
      headers: h,
    });
    expect(list.json().executions.map((e: Execution) => e.executionId)).toEqual([
      execution.executionId,
    ]);
    const page = await t.app.inject({
      method: 'GET',
      url: '/api/v2/agents/executions?limit=1&offset=1',
      headers: h,
    });
    expect(page.json()).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(page.json().executions).toHaveLength(1);
    const badStatus = await t.app.inject({
      method: 'GET',
      url: '/api/v2/agents/executions?status=nope',
      headers: h,
    });
    expect(badStatus.statusCode).toBe(400);

    const logs = await t.app.inject({
      method: 'GET',
      url: `/api/v2/agents/logs/${execution.executionId}?after=1`,
      headers: h,
    });
    expect(logs.json().entries[0].seq).toBe(2);
    expect(logs.json().logs).toContain('Analysed 0 items');

    const metrics = (
      await t.app.inject({ method: 'GET', url: '/api/v2/agents/metrics', headers: h })
    ).json() as MetricsReply;
    expect(metrics.metrics.scope).toBe('own');
    expect(metrics.metrics.total).toMatchObject({
      executions: 2,
      byStatus: { completed: 1, error: 1 },
    });
    expect(metrics.metrics.total.durationP50Ms).not.toBeNull();
    expect(metrics.metrics.byAgent.map((g) => g.key)).toEqual([
      'runtime-test-quick',
      'runtime-test-workflow',
    ]);
    expect(metrics.metrics.byTeam).toEqual([
      expect.objectContaining({ key: 'runtime-test', executions: 2 }),
    ]);

    const admin = await login(t.app, ADMIN.email, ADMIN.password);
    const all = (
      await t.app.inject({
        method: 'GET',
        url: '/api/v2/agents/metrics',
        headers: bearer(admin.accessToken),
      })
    ).json() as MetricsReply;
    expect(all.metrics.scope).toBe('all');
    expect(all.metrics.total.executions).toBeGreaterThan(2);
  });

  it('GET /api/agents/teams describes the teams with their phases and the queue', async () => {
    const { accessToken } = await researcher();
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/agents/teams',
      headers: bearer(accessToken),
    });
    const body = res.json() as AgentTeamsReply;
    expect(body.queue.state).toBe('up');
    expect(body.llm).toMatchObject({ configured: true, provider: 'openai-compatible' });
    const team = body.teams.find((x) => x.id === 'runtime-test')!;
    expect(team.subscriptionType).toBe('runtime-test-team');
    expect(team.phases.map((p) => [p.key, p.checkpoint])).toEqual([
      ['collect', true],
      ['analyse', false],
      ['draft', true],
      ['finish', false],
    ]);
  });
});

describe('log lines written together', () => {
  it('take consecutive numbers in their order, between single lines, and are cut like them', async () => {
    const { c } = await researcher();
    const id = await c.startTest('log batch');
    await c.waitFor(id, waitingAt(1));
    const store = createSessionStore(t.ctx.db);
    const before = await store.readLogs(id, { limit: 1000 });
    const last = before.at(-1)!.seq;

    const single = await store.appendLog(id, 'one alone', 'info');
    const batch = await store.appendLogs(id, [
      { message: 'first of three', level: 'info' },
      { message: 'second of three', level: 'warn' },
      { message: 'x'.repeat(5000), level: 'error' },
    ]);
    const after = await store.appendLog(id, 'after them', 'info');

    expect(single?.seq).toBe(last + 1);
    expect(batch.map((e) => [e.seq, e.level, e.message.slice(0, 15)])).toEqual([
      [last + 2, 'info', 'first of three'],
      [last + 3, 'warn', 'second of three'],
      [last + 4, 'error', 'xxxxxxxxxxxxxxx'],
    ]);
    expect(batch[2]!.message).toHaveLength(4000);
    expect(batch[2]!.message.endsWith('…')).toBe(true);
    expect(after?.seq).toBe(last + 5);
    const read = await store.readLogs(id, { after: last, limit: 10 });
    expect(read.map((e) => e.message.slice(0, 15))).toEqual([
      'one alone',
      'first of three',
      'second of three',
      'xxxxxxxxxxxxxxx',
      'after them',
    ]);
    expect(await store.appendLogs(id, [])).toEqual([]);
    expect(await store.appendLogs(crypto.randomUUID(), [{ message: 'x', level: 'info' }])).toEqual(
      [],
    );
  });
});

describe('a change written with its log lines (store.updateWithLogs)', () => {
  it('writes both or neither: a stale step or another lease holder changes nothing', async () => {
    const { c } = await researcher();
    const id = await c.startTest('one statement');
    await c.waitFor(id, waitingAt(1));
    const store = createSessionStore(t.ctx.db);
    const last = (await store.readLogs(id, { limit: 1000 })).at(-1)!.seq;
    const leased = (await store.update(
      id,
      { step: (await store.get(id))!.step },
      { leaseOwner: 'worker-a', leaseUntil: new Date(Date.now() + 60_000) },
    ))!;
    const lines = [
      { message: 'first with the change', level: 'info' as const },
      { message: 'second with the change', level: 'warn' as const },
    ];

    // Another worker's lease, or a step that moved on: no change, no line.
    const stale = { step: leased.step, leaseOwner: 'worker-b' };
    expect(await store.updateWithLogs(id, stale, { error: 'stale' }, lines)).toBeUndefined();
    const old = { step: leased.step - 1, leaseOwner: 'worker-a' };
    expect(await store.updateWithLogs(id, old, { error: 'old' }, lines)).toBeUndefined();
    const untouched = (await store.get(id))!;
    expect(untouched).toMatchObject({ step: leased.step, error: null, logSeq: last });
    expect(await store.readLogs(id, { after: last, limit: 10 })).toEqual([]);

    const holder = { step: leased.step, leaseOwner: 'worker-a' };
    const written = await store.updateWithLogs(id, holder, { error: 'held' }, lines);
    expect(written?.row).toMatchObject({ step: leased.step + 1, error: 'held', logSeq: last + 2 });
    // The row comes back as the table's columns decode it.
    expect(written?.row.leaseUntil).toBeInstanceOf(Date);
    expect(written?.row.updatedAt).toBeInstanceOf(Date);
    expect(written?.logs.map((e) => [e.seq, e.level, e.message])).toEqual([
      [last + 1, 'info', 'first with the change'],
      [last + 2, 'warn', 'second with the change'],
    ]);
    expect(await store.readLogs(id, { after: last, limit: 10 })).toEqual(written?.logs);
    // The next line follows them.
    expect((await store.appendLog(id, 'after them', 'info'))?.seq).toBe(last + 3);
    // The same expectation again is stale now.
    expect(await store.updateWithLogs(id, holder, { error: 'again' }, lines)).toBeUndefined();
  });
});

describe('phases that follow without a checkpoint', () => {
  it('run one after the other in the process that started the session, without a job', async () => {
    const { accessToken, c } = await researcher();
    const id = await executeQuick(t.app, accessToken, 'one job');
    const done = await c.waitFor(id, hasStatus('completed'));
    expect(done.results.map((r) => r.key)).toEqual(['analyse', 'finish']);
    const entries = await createSessionStore(t.ctx.db).readLogs(id, { limit: 100 });
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    const lines = entries.map((e) => e.message.replace(/ in [\d.]+ s$/, ''));
    expect(lines.filter((l) => l.startsWith('Starting phase'))).toEqual([
      'Starting phase 1/2: Analyse',
      'Starting phase 2/2: Finish',
    ]);
    const second = lines.indexOf('Starting phase 2/2: Finish');
    expect(lines[second - 1]).toBe('Completed phase 1/2: Analyse');
    expect(lines.at(-1)).toBe('Session completed: all 2 phases done');
    // Started in a process that runs phases, with a free slot: nothing was queued; the lease
    // was given up at the end.
    expect(await jobsOf(id)).toBe(0);
    const row = (await createSessionStore(t.ctx.db).get(id))!;
    expect(row).toMatchObject({ leaseOwner: null, leaseUntil: null, attempts: 0 });
  });

  it('started in a process that runs no phases: one job, run by a process that does', async () => {
    const { accessToken, c } = await researcher();
    const web = await createSiblingApp(t, { extraTeams: [runtimeTestTeam] });
    try {
      const id = await executeQuick(web.app, accessToken, 'queued');
      const done = await c.waitFor(id, hasStatus('completed'));
      expect(done.results.map((r) => r.key)).toEqual(['analyse', 'finish']);
      expect(await jobsOf(id)).toBe(1);
    } finally {
      await web.close();
    }
  });
});

/** Starts the quick test agent (two phases, no checkpoint) through the v2 API; its session id. */
async function executeQuick(app: TestApp['app'], accessToken: string, topic: string) {
  const exec = await app.inject({
    method: 'POST',
    url: '/api/v2/agents/runtime-test-quick/execute',
    headers: bearer(accessToken),
    payload: { input: { topic } },
  });
  return (exec.json().execution as Execution).executionId;
}

/** How many phase jobs were queued for the session. */
async function jobsOf(sessionId: string): Promise<number> {
  const jobs = await t.ctx.db.execute(
    sql`select data from pgboss.job where data->>'sessionId' = ${sessionId}`,
  );
  return (jobs as unknown as { rows: unknown[] }).rows.length;
}
