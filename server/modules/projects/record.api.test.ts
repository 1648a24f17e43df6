import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectReplySchema } from '../../../common/projects';
import { projectRecordReplySchema, type ProjectRecord } from '../../../common/research-record';
import { bearer, createTestApp, createUser, type TestApp } from '../../../test/app';
import { sessionClient, waitingAt } from '../../../test/teams/helpers';
import { runtimeTestTeam } from '../../../test/teams/runtime-test-team';
import { progressOf } from './record';

/**
 * The research record: a team started with a project saves into it; the project's stage and
 * progress follow the sessions that complete on it; GET /api/projects/{id}/record gives every
 * session (team, status, who started it, when, the link that reopens it), the workflows,
 * documents, datasets and research questions, to members (viewers too) and 404 to others.
 */

let t: TestApp;
let owner: Awaited<ReturnType<typeof createUser>>;
let viewer: Awaited<ReturnType<typeof createUser>>;
let collaborator: Awaited<ReturnType<typeof createUser>>;
let projectId: string;

beforeAll(async () => {
  t = await createTestApp(
    { AGENT_MAX_CONCURRENT_SESSIONS: '20' },
    { extraTeams: [runtimeTestTeam] },
  );
  owner = await createUser(t.app, { displayName: 'Olivia Owner' });
  viewer = await createUser(t.app);
  collaborator = await createUser(t.app, { displayName: 'Carl Collaborator' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: bearer(owner.accessToken),
    payload: {
      title: 'Productivity and hours',
      researchArea: 'Macroeconomics',
      researchQuestions: ['Do productivity shocks lower hours?'],
    },
  });
  projectId = (res.json() as { data: { project: { id: string } } }).data.project.id;
  for (const [u, role] of [
    [viewer, 'viewer'],
    [collaborator, 'collaborator'],
  ] as const) {
    await t.app.inject({
      method: 'POST',
      url: `/api/projects/${projectId}/members`,
      headers: bearer(owner.accessToken),
      payload: { email: u.email, role },
    });
  }
});
afterAll(() => t?.close());

async function record(token: string): Promise<ProjectRecord> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/projects/${projectId}/record`,
    headers: bearer(token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return projectRecordReplySchema.parse(res.json()).record;
}

const startModel = (token: string, withProject = true) =>
  t.app.inject({
    method: 'POST',
    url: '/api/agents/model-team/develop',
    headers: bearer(token),
    payload: {
      modelType: 'RBC',
      focus: 'Productivity shocks and hours',
      ...(withProject ? { projectId } : {}),
    },
  });

describe('the stage and progress rule', () => {
  const teams = [
    { id: 'ideation', label: 'Ideation', stage: 'ideation' as const },
    { id: 'literature', label: 'Literature', stage: 'literature' as const },
    { id: 'model', label: 'Model', stage: 'modeling' as const },
    { id: 'code', label: 'Code', stage: 'coding' as const },
    { id: 'test', label: 'Test', stage: null },
  ];
  it('reaches the stages of teams with a completed session; progress is their share', () => {
    expect(progressOf([], teams)).toMatchObject({ workflowStage: null, progress: 0 });
    expect(progressOf(['model', 'test'], teams)).toMatchObject({
      workflowStage: 'modeling',
      progress: 25,
      reached: ['modeling'],
      covered: ['ideation', 'literature', 'modeling', 'coding'],
    });
    expect(progressOf(['code', 'ideation', 'literature', 'model'], teams).progress).toBe(100);
  });
});

describe('a team started with a project', () => {
  it('saves into it, and the project reaches its stage when the session completes', async () => {
    const before = await record(owner.accessToken);
    expect(before.progress).toBe(0);
    expect(before.stagesCovered).toEqual(['ideation', 'literature', 'data', 'modeling', 'coding']);

    const res = await startModel(collaborator.accessToken);
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as { sessionId: string }).sessionId;
    const c = sessionClient(t.app, collaborator.accessToken);
    for (const checkpoint of [1, 2, 3]) {
      await c.waitFor(id, waitingAt(checkpoint), 60_000);
      expect((await c.feedback(id, 'Approved')).statusCode).toBe(200);
    }
    const done = await c.waitFor(id, (s) => s.status === 'completed', 60_000);
    expect(done.projectId).toBe(projectId);

    const r = await record(viewer.accessToken);
    expect(r.workflowStage).toBe('modeling');
    expect(r.stagesReached).toEqual(['modeling']);
    expect(r.progress).toBe(20);
    const entry = r.sessions.find((s) => s.sessionId === id)!;
    expect(entry).toMatchObject({
      team: 'model',
      teamLabel: 'Model',
      status: 'completed',
      startedBy: { id: collaborator.id, name: 'Carl Collaborator' },
      link: `/app/model-team?sessionId=${id}&projectId=${projectId}`,
      workflowId: null,
    });
    expect(entry.completedAt).not.toBeNull();
    // The Model team's documents were saved into the project.
    expect(r.documents.length).toBeGreaterThanOrEqual(4);
    expect(r.documents.every((d) => d.projectId === projectId)).toBe(true);
    expect(r.documents.some((d) => d.name.endsWith('.mod'))).toBe(true);
    expect(r.researchQuestions).toEqual(['Do productivity shocks lower hours?']);

    const project = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${projectId}`,
      headers: bearer(owner.accessToken),
    });
    const p = projectReplySchema.parse(project.json()).data.project;
    expect(p).toMatchObject({ workflowStage: 'modeling', status: 'active' });
    expect(p.metrics).toMatchObject({ progress: 20, agentTasksCompleted: 1, agentTasksTotal: 1 });
  });

  it('an editor can start one on the project; a project viewer cannot', async () => {
    expect((await startModel(viewer.accessToken)).statusCode).toBe(403);
    const res = await startModel(owner.accessToken);
    expect(res.statusCode).toBe(201);
    await sessionClient(t.app, owner.accessToken).action(
      (res.json() as { sessionId: string }).sessionId,
      'cancel',
    );
  });

  it('another user gets 404 for the record and sees none of its sessions', async () => {
    const stranger = await createUser(t.app);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${projectId}/record`,
      headers: bearer(stranger.accessToken),
    });
    expect(res.statusCode).toBe(404);
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/agents/sessions?projectId=${projectId}`,
      headers: bearer(stranger.accessToken),
    });
    expect((list.json() as { sessions: unknown[] }).sessions).toEqual([]);
  });
});
