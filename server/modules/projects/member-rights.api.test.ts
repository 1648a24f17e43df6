import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createTestApp, createUser, login, type TestApp } from '../../../test/app';
import { runtimeTestTeam } from '../../../test/teams/runtime-test-team';

/**
 * A session attached to a project writes into it, so starting one needs edit rights on the
 * project: its owner and collaborators may, project viewers and administrators without
 * membership get 403 (they may still start sessions without a project). A member who is removed
 * no longer sees the project on the dashboard, not even through their own sessions in it.
 */

let t: TestApp;
let owner: Awaited<ReturnType<typeof createUser>>;
let projectId: string;
beforeAll(async () => {
  t = await createTestApp({}, { extraTeams: [runtimeTestTeam] });
  owner = await createUser(t.app);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: bearer(owner.accessToken),
    payload: { title: 'Minimum wage and hours', researchArea: 'Labor Economics' },
  });
  expect(res.statusCode).toBe(201);
  projectId = res.json().data.project.id;
});
afterAll(() => t.close());

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

const start = (token: string, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/agents/sessions',
    headers: bearer(token),
    payload: { teamId: 'runtime-test', input: { topic: 'minimum wage' }, ...body },
  });

describe('starting a session attached to a project', () => {
  it('is allowed for the owner and a collaborator', async () => {
    expect((await start(owner.accessToken, { projectId })).statusCode).toBe(201);
    const collaborator = await member('collaborator');
    expect((await start(collaborator.accessToken, { projectId })).statusCode).toBe(201);
  });

  it('is refused with 403 for a project viewer, who may start one without the project', async () => {
    const viewer = await member('viewer');
    const res = await start(viewer.accessToken, { projectId });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      success: false,
      error:
        'You can read this project but not start sessions in it; ask its owner to make you a collaborator',
    });
    expect((await start(viewer.accessToken, {})).statusCode).toBe(201);
  });

  it('is refused with 403 for an administrator who is not a member', async () => {
    const admin = await login(t.app, ADMIN.email, ADMIN.password);
    expect((await start(admin.accessToken, { projectId })).statusCode).toBe(403);
  });

  it('answers 404 for a project the caller cannot see', async () => {
    const stranger = await createUser(t.app);
    expect((await start(stranger.accessToken, { projectId })).statusCode).toBe(404);
  });
});

describe('a removed member', () => {
  it('no longer sees the project on the dashboard, not even through their own session', async () => {
    const collaborator = await member('collaborator');
    const started = await start(collaborator.accessToken, { projectId });
    expect(started.statusCode).toBe(201);
    const dashboard = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/dashboard',
        headers: bearer(collaborator.accessToken),
      });
      expect(res.statusCode).toBe(200);
      return res.body;
    };
    expect(await dashboard()).toContain('Minimum wage and hours');
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/projects/${projectId}/members/${collaborator.id}`,
      headers: bearer(owner.accessToken),
    });
    expect(removed.statusCode).toBe(200);
    const after = await dashboard();
    expect(after).not.toContain('Minimum wage and hours');
    expect(after).not.toContain(projectId);
    // The session itself stays theirs and on their dashboard, without the project.
    expect(after).toContain(started.json().sessionId);
  });
});
