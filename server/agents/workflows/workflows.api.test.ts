import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorReplySchema } from '../../../common/api';
import {
  workflowListReplySchema,
  workflowReplySchema,
  type Workflow,
} from '../../../common/workflows';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { bearer, createTestApp, createUser, type TestApp } from '../../../test/app';
import { buildApp } from '../../app';
import { createContext } from '../../bootstrap';
import { sessionClient, waitingAt } from '../../../test/teams/helpers';
import { runtimeTestTeam } from '../../../test/teams/runtime-test-team';

/**
 * Customized workflows through their routes, on the runtime's test team (two checkpoints per
 * session): creation with the step configs checked, the run through every checkpoint answered
 * on the team's own route, an error and a cancel, and who may do what.
 */

let t: TestApp;
let owner: Awaited<ReturnType<typeof createUser>>;
let projectId: string;

beforeAll(async () => {
  t = await createTestApp(
    { AGENT_LEASE_SECONDS: '3', AGENT_MAX_CONCURRENT_SESSIONS: '20' },
    { extraTeams: [runtimeTestTeam] },
  );
  owner = await createUser(t.app, { displayName: 'Olivia Owner' });
  projectId = await newProject(owner.accessToken);
});
afterAll(() => t?.close());

async function newProject(token: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: bearer(token),
    payload: { title: 'Minimum wage and hours', researchArea: 'Labor Economics' },
  });
  expect(res.statusCode).toBe(201);
  return (res.json() as { data: { project: { id: string } } }).data.project.id;
}

async function member(role: 'collaborator' | 'viewer') {
  const u = await createUser(t.app);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/projects/${projectId}/members`,
    headers: bearer(owner.accessToken),
    payload: { email: u.email, role },
  });
  expect(res.statusCode).toBe(200);
  return u;
}

const testStep = (topic: string, configuration: Record<string, unknown> = {}) => ({
  team: 'runtime-test',
  config: { input: { topic }, configuration },
});

function call(token: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

async function create(token: string, steps: unknown[], name = 'Two steps'): Promise<Workflow> {
  const res = await call(token, 'POST', '/api/workflows', { projectId, name, steps });
  expect(res.statusCode, res.body).toBe(201);
  return workflowReplySchema.parse(res.json()).workflow;
}

async function read(token: string, id: string): Promise<Workflow> {
  const res = await call(token, 'GET', `/api/workflows/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return workflowReplySchema.parse(res.json()).workflow;
}

async function waitWorkflow(
  token: string,
  id: string,
  done: (w: Workflow) => boolean,
  timeoutMs = 20_000,
): Promise<Workflow> {
  const deadline = Date.now() + timeoutMs;
  let last: Workflow | undefined;
  while (Date.now() < deadline) {
    last = await read(token, id);
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`workflow did not get there; last: ${JSON.stringify(last)}`);
}

const waitingAtStep = (index: number) => (w: Workflow) =>
  w.status === 'waiting_for_input' && w.currentStep === index && w.steps[index]?.sessionId !== null;

describe('creating a workflow', () => {
  it('answers 201 with the workflow, idle, its steps pending', async () => {
    const w = await create(owner.accessToken, [testStep('wages'), testStep('hours')]);
    expect(w).toMatchObject({ projectId, ownerId: owner.id, status: 'idle', currentStep: null });
    expect(w.steps.map((s) => [s.index, s.team, s.status, s.sessionId])).toEqual([
      [0, 'runtime-test', 'pending', null],
      [1, 'runtime-test', 'pending', null],
    ]);
  });

  it('refuses an unknown team with 400 naming the teams there are', async () => {
    const res = await call(owner.accessToken, 'POST', '/api/workflows', {
      projectId,
      name: 'Bad',
      steps: [testStep('wages'), { team: 'astrology', config: {} }],
    });
    expect(res.statusCode).toBe(400);
    const body = errorReplySchema.parse(res.json());
    expect(body.message).toContain("steps.1.team: unknown team 'astrology'");
    for (const team of ['ideation', 'literature', 'data', 'model', 'code', 'runtime-test']) {
      expect(body.message).toContain(team);
    }
  });

  it("refuses a step config its team's start body does not accept, naming the step and field", async () => {
    const res = await call(owner.accessToken, 'POST', '/api/workflows', {
      projectId,
      name: 'Bad config',
      steps: [testStep('wages'), { team: 'runtime-test', config: { input: { topic: '' } } }],
    });
    expect(res.statusCode).toBe(400);
    expect(errorReplySchema.parse(res.json()).message).toMatch(
      /^steps\.1\.config\.input\.topic \(step 2, Runtime Test\): topic is required/,
    );
    const model = await call(owner.accessToken, 'POST', '/api/workflows', {
      projectId,
      name: 'Bad model step',
      steps: [{ team: 'model', config: { modelType: 'astrology' } }],
    });
    expect(model.statusCode).toBe(400);
    expect(errorReplySchema.parse(model.json()).message).toContain('steps.0.config.modelType');
    // A custom model's .mod file is imported when the workflow is created, not steps later.
    const mod = await call(owner.accessToken, 'POST', '/api/workflows', {
      projectId,
      name: 'Unreadable .mod',
      steps: [
        testStep('wages'),
        {
          team: 'model',
          config: {
            modelType: 'custom',
            modFile: 'var y; varexo e; parameters rho; rho = 0.9;\nmodel;\ny = rho*y(-1) + ;\nend;',
          },
        },
      ],
    });
    expect(mod.statusCode).toBe(400);
    expect(errorReplySchema.parse(mod.json()).message).toMatch(
      /^steps\.1\.config\.modFile \(step 2, Model[^)]*\): The \.mod file cannot be imported: .*line \d+/,
    );
  });

  it('refuses bodies that break the contract with 400', async () => {
    for (const payload of [
      { projectId, name: 'No steps', steps: [] },
      { projectId: 'nope', name: 'x', steps: [testStep('a')] },
      { projectId, name: '', steps: [testStep('a')] },
    ]) {
      const res = await call(owner.accessToken, 'POST', '/api/workflows', payload);
      expect(res.statusCode).toBe(400);
    }
  });
});

describe('running a workflow', () => {
  it('waits at each checkpoint with the step session, goes on when the step completes, and completes', async () => {
    const w = await create(owner.accessToken, [testStep('wages'), testStep('hours worked')]);
    const started = await call(owner.accessToken, 'POST', `/api/workflows/${w.id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    expect(workflowReplySchema.parse(started.json()).workflow).toMatchObject({
      status: 'processing',
      currentStep: 0,
    });
    const c = sessionClient(t.app, owner.accessToken);

    for (const index of [0, 1]) {
      const waiting = await waitWorkflow(owner.accessToken, w.id, waitingAtStep(index));
      const sessionId = waiting.steps[index]!.sessionId!;
      expect(waiting.steps[index]!.status).toBe('waiting_for_input');
      const session = await c.waitFor(sessionId, waitingAt(1));
      expect(session.projectId).toBe(projectId);
      expect(session.ownerId).toBe(owner.id);
      expect((await c.feedback(sessionId, 'Approved')).statusCode).toBe(200);
      await c.waitFor(sessionId, waitingAt(2));
      expect((await c.feedback(sessionId, 'Approved')).statusCode).toBe(200);
    }

    const done = await waitWorkflow(owner.accessToken, w.id, (x) => x.status === 'completed');
    expect(done.currentStep).toBeNull();
    expect(done.completedAt).not.toBeNull();
    expect(done.steps.map((s) => s.status)).toEqual(['completed', 'completed']);
    const [first, second] = done.steps;
    expect(first!.sessionId).not.toBe(second!.sessionId);
    expect((await c.session(second!.sessionId!)).input).toEqual({ topic: 'hours worked' });
    // Started once only.
    const again = await call(owner.accessToken, 'POST', `/api/workflows/${w.id}/start`);
    expect(again.statusCode).toBe(409);

    const list = await call(owner.accessToken, 'GET', `/api/workflows?projectId=${projectId}`);
    expect(list.statusCode).toBe(200);
    const page = workflowListReplySchema.parse(list.json());
    expect(page.workflows.map((x) => x.id)).toContain(w.id);
  });

  it("sets the workflow to error with the step's message when a step fails", async () => {
    const w = await create(owner.accessToken, [
      {
        team: 'runtime-test',
        config: { input: { topic: 'wages' }, configuration: { failAt: 'collect' } },
      },
      testStep('never reached'),
    ]);
    await call(owner.accessToken, 'POST', `/api/workflows/${w.id}/start`);
    const failed = await waitWorkflow(owner.accessToken, w.id, (x) => x.status === 'error');
    expect(failed.error).toMatch(
      /^Step 1 \(Runtime Test\): .*the test team was told to fail in phase collect/,
    );
    expect(failed.steps[0]!.status).toBe('error');
    expect(failed.steps[1]!.status).toBe('pending');
  });

  it("cancel stops the workflow and the running step's session", async () => {
    const w = await create(owner.accessToken, [testStep('wages'), testStep('hours')]);
    await call(owner.accessToken, 'POST', `/api/workflows/${w.id}/start`);
    const waiting = await waitWorkflow(owner.accessToken, w.id, waitingAtStep(0));
    const res = await call(owner.accessToken, 'POST', `/api/workflows/${w.id}/cancel`);
    expect(res.statusCode).toBe(200);
    expect(workflowReplySchema.parse(res.json()).workflow).toMatchObject({ status: 'cancelled' });
    const c = sessionClient(t.app, owner.accessToken);
    const session = await c.waitFor(waiting.steps[0]!.sessionId!, (s) => s.status === 'error');
    expect(session.error).toBe('Cancelled by the user');
    expect(
      (await call(owner.accessToken, 'POST', `/api/workflows/${w.id}/cancel`)).statusCode,
    ).toBe(409);
    // It stays cancelled: the session's error does not turn it into an error.
    await new Promise((r) => setTimeout(r, 200));
    expect((await read(owner.accessToken, w.id)).status).toBe('cancelled');
  });
});

/** A second web process on the same database (no worker), running the test team too. */
async function secondProcess() {
  const ctx = await createContext(t.ctx.config, {
    worker: false,
    database: t.ctx.database,
    log: pino({ level: 'silent' }) as FastifyBaseLogger,
    extraTeams: [runtimeTestTeam],
  });
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await ctx.agents.stop();
    },
  };
}

describe('several processes', () => {
  it('with a second process following workflows, each step still starts exactly one session', async () => {
    const sibling = await secondProcess();
    try {
      const w = await create(owner.accessToken, [testStep('first'), testStep('second')]);
      await call(owner.accessToken, 'POST', `/api/workflows/${w.id}/start`);
      const c = sessionClient(t.app, owner.accessToken);
      for (const index of [0, 1]) {
        const waiting = await waitWorkflow(owner.accessToken, w.id, waitingAtStep(index));
        const sessionId = waiting.steps[index]!.sessionId!;
        await c.waitFor(sessionId, waitingAt(1));
        // Answered through the other process: both hear the session's events.
        const other = sessionClient(sibling.app, owner.accessToken);
        expect((await other.feedback(sessionId, 'Approved')).statusCode).toBe(200);
        await c.waitFor(sessionId, waitingAt(2));
        expect((await other.feedback(sessionId, 'Approved')).statusCode).toBe(200);
      }
      const done = await waitWorkflow(owner.accessToken, w.id, (x) => x.status === 'completed');
      const ids = done.steps.map((s) => s.sessionId);
      const list = await t.app.inject({
        method: 'GET',
        url: `/api/agents/sessions?projectId=${projectId}&limit=100`,
        headers: bearer(owner.accessToken),
      });
      const topics = (
        list.json() as { sessions: Array<{ sessionId: string; input: { topic?: string } }> }
      ).sessions.filter((s) => s.input.topic === 'first' || s.input.topic === 'second');
      expect(topics.map((s) => s.sessionId).sort()).toEqual([...ids].sort());
    } finally {
      await sibling.close();
    }
  });
});

describe('who may do what with a workflow', () => {
  it('a collaborator creates and starts one; a project viewer reads it but gets 403 for the rest', async () => {
    const collaborator = await member('collaborator');
    const viewer = await member('viewer');
    const w = await create(collaborator.accessToken, [testStep('wages')]);
    expect(w.ownerId).toBe(collaborator.id);
    expect((await read(viewer.accessToken, w.id)).id).toBe(w.id);
    const list = await call(viewer.accessToken, 'GET', `/api/workflows?projectId=${projectId}`);
    expect(list.statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['POST', '/api/workflows', { projectId, name: 'x', steps: [testStep('a')] }],
      ['POST', `/api/workflows/${w.id}/start`, undefined],
      ['POST', `/api/workflows/${w.id}/cancel`, undefined],
    ] as const) {
      const res = await call(viewer.accessToken, method, url, payload);
      expect(res.statusCode, url).toBe(403);
    }
    const started = await call(collaborator.accessToken, 'POST', `/api/workflows/${w.id}/start`);
    expect(started.statusCode).toBe(200);
    await call(collaborator.accessToken, 'POST', `/api/workflows/${w.id}/cancel`);
  });

  it('another user gets 404 for the workflow, the list and creating one on the project', async () => {
    const w = await create(owner.accessToken, [testStep('wages')]);
    const stranger = await createUser(t.app);
    for (const [method, url, payload] of [
      ['GET', `/api/workflows/${w.id}`, undefined],
      ['GET', `/api/workflows?projectId=${projectId}`, undefined],
      ['POST', `/api/workflows/${w.id}/start`, undefined],
      ['POST', `/api/workflows/${w.id}/cancel`, undefined],
      ['POST', '/api/workflows', { projectId, name: 'x', steps: [testStep('a')] }],
    ] as const) {
      const res = await call(stranger.accessToken, method, url, payload);
      expect(res.statusCode, url).toBe(404);
    }
    expect((await call(stranger.accessToken, 'GET', '/api/workflows/not-a-uuid')).statusCode).toBe(
      404,
    );
  });

  it('an account with the viewer role never creates one, even on its own project', async () => {
    const viewerAccount = await createUser(t.app, { role: 'viewer' });
    const res = await call(viewerAccount.accessToken, 'POST', '/api/workflows', {
      projectId,
      name: 'x',
      steps: [testStep('a')],
    });
    expect([403, 404]).toContain(res.statusCode);
  });
});

describe('the API reference', () => {
  it('lists the workflow routes with their schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/api/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, Record<string, { requestBody?: unknown }>> };
    expect(doc.paths['/api/workflows']?.post?.requestBody).toBeDefined();
    expect(doc.paths['/api/workflows']?.get).toBeDefined();
    expect(doc.paths['/api/workflows/{id}']?.get).toBeDefined();
    expect(doc.paths['/api/workflows/{id}/start']?.post).toBeDefined();
    expect(doc.paths['/api/workflows/{id}/cancel']?.post).toBeDefined();
  });
});
