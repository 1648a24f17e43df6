import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionListReplySchema } from '../../../common/agents';
import { errorReplySchema } from '../../../common/api';
import { ADMIN, bearer, createTestApp, createUser, login, type TestApp } from '../../../test/app';
import { sessionClient, waitingAt } from '../../../test/teams/helpers';
import { runtimeTestTeam } from '../../../test/teams/runtime-test-team';

/**
 * Who may read and who may drive a session. Members of its project read it (status, logs, the
 * project's session list); only its owner, or an editor of its project, answers its checkpoints,
 * pauses, resumes or resets it; administrators read and cancel any session but never drive
 * another's (its later phases would run on the owner's model key and budget); everybody else
 * gets 404. An account with the viewer role cannot execute code.
 */

let t: TestApp;
let owner: Awaited<ReturnType<typeof createUser>>;
let collaborator: Awaited<ReturnType<typeof createUser>>;
let viewer: Awaited<ReturnType<typeof createUser>>;
let stranger: Awaited<ReturnType<typeof createUser>>;
let adminToken: string;
let projectId: string;

beforeAll(async () => {
  t = await createTestApp(
    { AGENT_MAX_CONCURRENT_SESSIONS: '20' },
    { extraTeams: [runtimeTestTeam] },
  );
  owner = await createUser(t.app);
  collaborator = await createUser(t.app);
  viewer = await createUser(t.app);
  stranger = await createUser(t.app);
  adminToken = (await login(t.app, ADMIN.email, ADMIN.password)).accessToken;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: bearer(owner.accessToken),
    payload: { title: 'Hours and wages', researchArea: 'Labor Economics' },
  });
  projectId = (res.json() as { data: { project: { id: string } } }).data.project.id;
  for (const [u, role] of [
    [collaborator, 'collaborator'],
    [viewer, 'viewer'],
  ] as const) {
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/projects/${projectId}/members`,
      headers: bearer(owner.accessToken),
      payload: { email: u.email, role },
    });
    expect(added.statusCode).toBe(200);
  }
});
afterAll(() => t?.close());

/** A session of the owner, waiting at its first checkpoint. */
async function waitingSession(withProject: boolean): Promise<string> {
  const c = sessionClient(t.app, owner.accessToken);
  const res = await c.start({
    teamId: 'runtime-test',
    input: { topic: 'hours and wages' },
    ...(withProject ? { projectId } : {}),
  });
  expect(res.statusCode).toBe(201);
  const id = (res.json() as { sessionId: string }).sessionId;
  await c.waitFor(id, waitingAt(1));
  return id;
}

const asUser = (token: string) => sessionClient(t.app, token);

describe('a session of a project', () => {
  it('members read it: status, logs and the project list', async () => {
    const id = await waitingSession(true);
    for (const token of [viewer.accessToken, collaborator.accessToken]) {
      const c = asUser(token);
      expect((await c.get(id)).statusCode).toBe(200);
      expect((await c.logs(id)).statusCode).toBe(200);
      const list = await t.app.inject({
        method: 'GET',
        url: `/api/agents/sessions?projectId=${projectId}`,
        headers: bearer(token),
      });
      expect(list.statusCode).toBe(200);
      const ids = sessionListReplySchema.parse(list.json()).sessions.map((s) => s.sessionId);
      expect(ids).toContain(id);
    }
  });

  it('a project viewer cannot answer, pause, reset or cancel it (403)', async () => {
    const id = await waitingSession(true);
    const c = asUser(viewer.accessToken);
    const answer = await c.feedback(id, 'Approved');
    expect(answer.statusCode).toBe(403);
    expect(errorReplySchema.parse(answer.json()).message).toMatch(/owner or an editor/);
    for (const action of ['pause', 'reset', 'cancel'] as const) {
      expect((await c.action(id, action)).statusCode, action).toBe(403);
    }
    expect((await asUser(owner.accessToken).session(id)).status).toBe('waiting_for_input');
  });

  it('a collaborator (an editor of the project) answers its checkpoint', async () => {
    const id = await waitingSession(true);
    const res = await asUser(collaborator.accessToken).feedback(id, 'Approved');
    expect(res.statusCode).toBe(200);
    await asUser(owner.accessToken).waitFor(id, waitingAt(2));
  });

  it('another user gets 404 for it, and its project list shows them nothing of it', async () => {
    const id = await waitingSession(true);
    const c = asUser(stranger.accessToken);
    expect((await c.get(id)).statusCode).toBe(404);
    expect((await c.feedback(id, 'Approved')).statusCode).toBe(404);
    expect((await c.action(id, 'cancel')).statusCode).toBe(404);
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/agents/sessions?projectId=${projectId}`,
      headers: bearer(stranger.accessToken),
    });
    expect(sessionListReplySchema.parse(list.json()).sessions).toEqual([]);
  });
});

describe('administrators', () => {
  it("read another user's session and cancel it, but never answer, pause or reset it", async () => {
    for (const withProject of [false, true]) {
      const id = await waitingSession(withProject);
      const c = asUser(adminToken);
      expect((await c.get(id)).statusCode).toBe(200);
      expect((await c.feedback(id, 'Approved')).statusCode).toBe(403);
      expect((await c.feedback(id, 'Use more items')).statusCode).toBe(403);
      expect((await c.action(id, 'pause')).statusCode).toBe(403);
      expect((await c.action(id, 'reset')).statusCode).toBe(403);
      expect((await asUser(owner.accessToken).session(id)).status).toBe('waiting_for_input');
      expect((await c.action(id, 'cancel')).statusCode).toBe(200);
      expect((await asUser(owner.accessToken).session(id)).status).toBe('error');
    }
  });

  it("cannot answer another user's Model team checkpoint through the team's route", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/agents/model-team/develop',
      headers: bearer(owner.accessToken),
      payload: { modelType: 'RBC', focus: 'Productivity shocks and hours' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as { sessionId: string }).sessionId;
    await asUser(owner.accessToken).waitFor(id, waitingAt(1), 30_000);
    const feedback = await t.app.inject({
      method: 'POST',
      url: '/api/agents/model-team/feedback',
      headers: bearer(adminToken),
      payload: { sessionId: id, feedback: 'Set beta = 0.9', checkpoint: 1 },
    });
    expect(feedback.statusCode).toBe(403);
    const s = await asUser(owner.accessToken).session(id);
    expect(s.status).toBe('waiting_for_input');
    expect(s.feedback).toEqual([]);
    await asUser(owner.accessToken).action(id, 'cancel');
  });
});

describe('accounts with the viewer role', () => {
  it('cannot execute code', async () => {
    const account = await createUser(t.app, { role: 'viewer' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/agents/code-team/execute',
      headers: bearer(account.accessToken),
      payload: { code: 'print(1)', language: 'python' },
    });
    expect(res.statusCode).toBe(403);
    expect(errorReplySchema.parse(res.json()).message).toMatch(/viewer role cannot execute code/);
  });
});
