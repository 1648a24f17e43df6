import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowReplySchema, type Workflow } from '../../../common/workflows';
import { bearer, createTestApp, createUser, type TestApp } from '../../../test/app';
import { sessionClient, waitingAt } from '../../../test/teams/helpers';
import { runtimeTestTeam } from '../../../test/teams/runtime-test-team';
import { buildApp } from '../../app';
import { createContext } from '../../bootstrap';
import type { Api, AppContext } from '../../context';
import { agentSessions } from '../../db/schema';

/**
 * A workflow is durable like a session: the process running it stops mid-step (as a killed
 * worker would) and a new process on the same database finishes it; a step whose session
 * completed while no process was following workflows is caught up when a process starts.
 */

let t: TestApp;
let owner: Awaited<ReturnType<typeof createUser>>;
let projectId: string;
/** The app serving now: the first one, then its replacement. */
let current: { app: Api; ctx: AppContext };
const replacements: Array<{ app: Api; ctx: AppContext }> = [];

beforeAll(async () => {
  t = await createTestApp(
    { AGENT_LEASE_SECONDS: '2', AGENT_MAX_CONCURRENT_SESSIONS: '20' },
    { extraTeams: [runtimeTestTeam] },
  );
  current = t;
  owner = await createUser(t.app);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: bearer(owner.accessToken),
    payload: { title: 'Durable work', researchArea: 'Macroeconomics' },
  });
  projectId = (res.json() as { data: { project: { id: string } } }).data.project.id;
});

afterAll(async () => {
  for (const r of replacements) {
    await r.app.close();
    await r.ctx.agents.stop();
  }
  await t?.close();
});

/** Stops the serving process (its runtime too) and starts a new one on the same database. */
async function restart(): Promise<void> {
  await current.app.close();
  await current.ctx.agents.stop();
  const ctx = await createContext(t.ctx.config, {
    worker: true,
    database: t.ctx.database,
    log: pino({ level: 'silent' }) as FastifyBaseLogger,
    extraTeams: [runtimeTestTeam],
  });
  const app = await buildApp(ctx);
  await app.ready();
  current = { app, ctx };
  replacements.push(current);
}

async function read(id: string): Promise<Workflow> {
  const res = await current.app.inject({
    method: 'GET',
    url: `/api/workflows/${id}`,
    headers: bearer(owner.accessToken),
  });
  expect(res.statusCode, res.body).toBe(200);
  return workflowReplySchema.parse(res.json()).workflow;
}

async function waitWorkflow(id: string, done: (w: Workflow) => boolean): Promise<Workflow> {
  const deadline = Date.now() + 30_000;
  let last: Workflow | undefined;
  while (Date.now() < deadline) {
    last = await read(id);
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`workflow did not get there; last: ${JSON.stringify(last)}`);
}

async function createAndStart(steps: unknown[]): Promise<Workflow> {
  const res = await current.app.inject({
    method: 'POST',
    url: '/api/workflows',
    headers: bearer(owner.accessToken),
    payload: { projectId, name: 'Durable', steps },
  });
  expect(res.statusCode, res.body).toBe(201);
  const { workflow } = workflowReplySchema.parse(res.json());
  const started = await current.app.inject({
    method: 'POST',
    url: `/api/workflows/${workflow.id}/start`,
    headers: bearer(owner.accessToken),
  });
  expect(started.statusCode, started.body).toBe(200);
  return workflow;
}

/** Answers both checkpoints of a test-team session. */
async function approveBoth(sessionId: string): Promise<void> {
  const c = sessionClient(current.app, owner.accessToken);
  // The workflow names a step's session when it claims the step, just before the session is
  // started under that id: until then the session answers 404.
  await expect.poll(async () => (await c.get(sessionId)).statusCode, { timeout: 10_000 }).toBe(200);
  for (const checkpoint of [1, 2]) {
    await c.waitFor(sessionId, waitingAt(checkpoint), 30_000);
    expect((await c.feedback(sessionId, 'Approved')).statusCode).toBe(200);
  }
}

describe('a workflow across a restart', () => {
  it('resumes after the process is stopped mid-step and finishes on the new one', async () => {
    const w = await createAndStart([
      {
        team: 'runtime-test',
        config: { input: { topic: 'slow step' }, configuration: { delayMs: 1500 } },
      },
      { team: 'runtime-test', config: { input: { topic: 'second step' } } },
    ]);
    const running = await waitWorkflow(w.id, (x) => x.steps[0]!.sessionId !== null);
    const firstSession = running.steps[0]!.sessionId!;
    // Stopped while the first phase of step 1 runs.
    await restart();

    await approveBoth(firstSession);
    const second = await waitWorkflow(
      w.id,
      (x) => x.currentStep === 1 && x.steps[1]!.sessionId !== null,
    );
    expect(second.steps[0]!.status).toBe('completed');
    await approveBoth(second.steps[1]!.sessionId!);
    const done = await waitWorkflow(w.id, (x) => x.status === 'completed');
    expect(done.steps.map((s) => s.status)).toEqual(['completed', 'completed']);
  });

  it('catches up at start with a step whose session completed while no process followed it', async () => {
    const w = await createAndStart([
      { team: 'runtime-test', config: { input: { topic: 'first' } } },
      { team: 'runtime-test', config: { input: { topic: 'after the gap' } } },
    ]);
    const waiting = await waitWorkflow(w.id, (x) => x.status === 'waiting_for_input');
    const sessionId = waiting.steps[0]!.sessionId!;
    await current.app.close();
    await current.ctx.agents.stop();
    // While nothing runs, the step's session completes (another installation's worker did it).
    await t.ctx.db
      .update(agentSessions)
      .set({ status: 'completed', checkpoint: null, completedAt: new Date() })
      .where(eq(agentSessions.id, sessionId));
    expect(
      (await t.ctx.db.select().from(agentSessions).where(eq(agentSessions.id, sessionId)))[0]!
        .status,
    ).toBe('completed');
    await restart();

    const next = await waitWorkflow(
      w.id,
      (x) => x.currentStep === 1 && x.steps[1]!.sessionId !== null,
    );
    expect(next.steps[0]!.status).toBe('completed');
    await approveBoth(next.steps[1]!.sessionId!);
    expect((await waitWorkflow(w.id, (x) => x.status === 'completed')).status).toBe('completed');
  });
});
