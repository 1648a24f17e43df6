import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../../config';
import { createTestApp, createUser, type TestApp } from '../../../test/app';
import { client } from '../../../test/client';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../../../test/llm-server';
import { exampleTeam } from '../../../test/teams/example-team/team';
import { greeterService } from '../../../test/teams/example-team/greeter-service';
import { sessionClient, waitingAt } from '../../../test/teams/helpers';
import { createPhaseHarness, type PhaseHarness } from '../../../test/teams/phase-harness';
import { createServiceHost, defineService } from '../../platform/services';
import { defineTeam } from './define-team';
import pino from 'pino';

/**
 * The team kit through a real two-phase team (test/teams/example-team, written as
 * docs/architecture.md "Adding a team" says): its routes under their prefix, typed results
 * across phases, its service's config fragment, the model check before start, the workspace's
 * project rights, and the phase harness.
 */
let llm: ScriptedLlmServer;
let t: TestApp;

const llmEnv = () => ({
  LLM_PROVIDER: 'openai-compatible',
  OPENAI_COMPATIBLE_BASE_URL: llm.baseUrl,
  LLM_MODEL: 'scripted-model',
});

beforeAll(async () => {
  llm = await startScriptedLlmServer();
  t = await createTestApp(
    { ...llmEnv(), EXAMPLE_GREETING: 'Good morning' },
    {
      extraTeams: [exampleTeam],
    },
  );
});

afterAll(async () => {
  await t?.close();
  await llm?.close();
});

describe('a team built with the kit', () => {
  it('registers its routes under its prefix, runs both phases and revises at its checkpoint', async () => {
    llm.reset();
    llm.scriptPhase(
      'example',
      'summarise',
      { text: 'A short text about wages.' },
      { text: 'Wages rise when output does.' },
    );
    const user = await createUser(t.app);
    const api = client(t.app, user.accessToken);
    const start = await api.post('/api/example-team/start', { text: 'wages rise with output' });
    expect(start.status).toBe(201);
    const sessions = sessionClient(t.app, user.accessToken);
    const id = (start.body as { sessionId: string }).sessionId;
    const waiting = await sessions.waitFor(id, waitingAt(1));
    expect(waiting.checkpointData).toEqual({ summary: 'A short text about wages.' });
    const count = waiting.results.find((r) => r.key === 'count')?.result;
    // The service was built from its config fragment (EXAMPLE_GREETING) once for the process.
    expect(count).toEqual({ words: 4, longest: 'output', greeting: 'Good morning, researcher' });
    const summarise = llm.requestsFor('example', 'summarise');
    expect(summarise.at(-1)?.prompt).toContain('(4 words)');

    expect((await sessions.feedback(id, 'one clause only')).statusCode).toBe(200);
    const revised = await sessions.waitFor(
      id,
      (s) => waitingAt(1)(s) && JSON.stringify(s.checkpointData).includes('output does'),
    );
    expect(llm.requestsFor('example', 'summarise').at(-1)?.prompt).toContain(
      'Revise: one clause only',
    );
    expect((await sessions.feedback(revised.sessionId, 'Approved')).statusCode).toBe(200);
    const done = await sessions.waitFor(id, (s) => s.status === 'completed');
    expect(done.finalOutputs).toEqual({ summary: 'Wages rise when output does.' });
  });

  it('refuses its own routes without a token and bad bodies with a 400', async () => {
    const anon = await t.app.inject({
      method: 'POST',
      url: '/api/example-team/start',
      payload: { text: 'x' },
    });
    expect(anon.statusCode).toBe(401);
    const user = await createUser(t.app);
    const bad = await client(t.app, user.accessToken).post('/api/example-team/start', {
      text: '   ',
    });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: string }).error).toMatch(/text is required/);
    expect(t.app.routeAccess).toContainEqual({
      method: 'POST',
      url: '/api/example-team/start',
      access: 'user',
    });
  });

  it('lists the team as available in GET /api/agents/teams', async () => {
    const user = await createUser(t.app);
    const res = await client(t.app, user.accessToken).get('/api/agents/teams');
    const teams = (res.body as { teams: Array<{ id: string; available: boolean }> }).teams;
    expect(teams).toContainEqual(expect.objectContaining({ id: 'example', available: true }));
  });

  it('saves into a project only for users who may edit it', async () => {
    llm.reset();
    llm.scriptPhase('example', 'summarise', { text: 'Saved summary.' });
    const owner = await createUser(t.app);
    const viewer = await createUser(t.app);
    const api = client(t.app, owner.accessToken);
    const project = await api.post('/api/projects', {
      title: 'Wages',
      researchArea: 'Labor Economics',
    });
    expect(project.status).toBe(201);
    const projectId = (project.body as { data: { project: { id: string } } }).data.project.id;
    const add = await api.post(`/api/projects/${projectId}/members`, {
      email: viewer.email,
      role: 'viewer',
    });
    expect(add.status).toBe(200);

    const h = sessionClient(t.app, owner.accessToken);
    const start = await api.post('/api/example-team/start', {
      text: 'wages and output',
      projectId,
      save: true,
    });
    expect(start.status).toBe(201);
    const id = (start.body as { sessionId: string }).sessionId;
    const waiting = await h.waitFor(id, waitingAt(1));
    const documentId = (waiting.results.at(-1)?.result as { documentId: string }).documentId;
    const doc = await api.get(`/api/documents/${documentId}`);
    expect(doc.status).toBe(200);
    expect(
      (doc.body as { data: { document: { projectId: string; content: string } } }).data.document,
    ).toMatchObject({
      projectId,
      content: 'Saved summary.',
    });

    // The viewer member reads the project but a workspace acting for them cannot write into it.
    const { createWorkspace } = await import('./workspace');
    const asViewer = createWorkspace(t.ctx, { userId: viewer.id, projectId });
    expect((await asViewer.project())?.id).toBe(projectId);
    await expect(
      asViewer.documents.save({
        name: 'x',
        category: 'research_report',
        format: 'md',
        content: 'x',
      }),
    ).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(asViewer.appendResearchQuestions(['Why?'])).rejects.toMatchObject({
      kind: 'forbidden',
    });
    const asOwner = createWorkspace(t.ctx, { userId: owner.id, projectId });
    const updated = await asOwner.appendResearchQuestions(['Why do wages rise?', ' ']);
    expect(updated.researchQuestions).toContain('Why do wages rise?');
    const again = await asOwner.appendResearchQuestions(['why do wages rise?']);
    expect(again.researchQuestions.filter((q) => /wages rise/i.test(q))).toHaveLength(1);
  });
});

describe('without a language model', () => {
  it('refuses to start a plan with a step that needs one, saying how to configure it', async () => {
    const bare = await createTestApp({}, { extraTeams: [exampleTeam] });
    try {
      const user = await createUser(bare.app);
      const res = await client(bare.app, user.accessToken).post('/api/example-team/start', {
        text: 'a text',
      });
      expect(res.status).toBe(422);
      expect((res.body as { error: string }).error).toMatch(/No language model is configured/);
    } finally {
      await bare.close();
    }
  });
});

describe('config fragments and services', () => {
  it('stops the start with the name of a bad variable', async () => {
    await expect(
      createTestApp({ EXAMPLE_GREETING: 'x'.repeat(41) }, { extraTeams: [exampleTeam] }),
    ).rejects.toThrow(ConfigError);
    await expect(
      createTestApp({ EXAMPLE_GREETING: 'x'.repeat(41) }, { extraTeams: [exampleTeam] }),
    ).rejects.toThrow(/EXAMPLE_GREETING/);
  });

  it('builds a service once per process, shared by every team that declares it', () => {
    let built = 0;
    const shared = defineService({ id: 'counted', create: () => ({ n: ++built }) });
    const host = createServiceHost({ env: {}, dataDir: '/tmp', log: pino({ level: 'silent' }) });
    const a = host.instancesOf({ one: shared, greeter: greeterService });
    const b = host.instancesOf({ other: shared });
    expect(a.one).toBe(b.other);
    expect(built).toBe(1);
    expect(a.greeter.greet('you')).toBe('Hello, you');
    const impostor = defineService({ id: 'counted', create: () => ({ n: 0 }) });
    expect(() => host.instancesOf({ x: impostor })).toThrow(/Two different services/);
  });

  it('refuses a phase whose result schema is missing and duplicate phase keys', () => {
    const team = defineTeam({
      id: 'broken',
      name: 'Broken',
      label: 'Broken',
      description: '',
      input: z.object({}),
      results: { a: z.object({}) },
    });
    expect(() =>
      team.phase('b' as 'a', { name: 'B', description: '', run: async () => ({}) }),
    ).toThrow(/no result schema/);
    const a = team.phase('a', { name: 'A', description: '', run: async () => ({}) });
    expect(() => team.build({ phases: [a, a] })).toThrow(/duplicate phase key/);
  });
});

describe('the phase harness', () => {
  let h: PhaseHarness;
  beforeAll(async () => {
    h = await createPhaseHarness({ env: llmEnv() });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('runs one phase with earlier results, against the scripted model server', async () => {
    llm.reset();
    llm.scriptPhase('example', 'summarise', { text: 'Harnessed.' });
    const run = await h.run(exampleTeam, 'summarise', {
      input: { text: 'one two three' },
      results: { count: { words: 3, longest: 'three', greeting: 'Hello, researcher' } },
    });
    expect(run.result).toEqual({ summary: 'Harnessed.', basedOnWords: 3, documentId: null });
    expect(run.checkpointData).toEqual({ summary: 'Harnessed.' });
    expect(run.logs.map((l) => l.message)).toEqual(['The model wrote a summary of 10 characters']);
  });

  it('fails a phase whose earlier result is missing with a clear message', async () => {
    await expect(h.run(exampleTeam, 'summarise', { input: { text: 'one' } })).rejects.toThrow(
      /needs the result of count/,
    );
  });
});
