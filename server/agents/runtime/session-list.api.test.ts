import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionListReplySchema, executionListReplySchema } from '../../../common/agents';
import { ADMIN, bearer, createTestApp, createUser, login, type TestApp } from '../../../test/app';
import { statementsOfRequest } from '../../../test/statements';
import { agentSessions } from '../../db/schema';

/**
 * The session list (GET /api/agents/sessions and the version 2 executions): who sees which
 * sessions, its pages and totals, in one statement per request (docs/performance.md, API reads).
 * Sessions are written straight into the table: no team runs here.
 */

let t: TestApp;
let owner: Awaited<ReturnType<typeof createUser>>;
let member: Awaited<ReturnType<typeof createUser>>;
let stranger: Awaited<ReturnType<typeof createUser>>;
let admin: { accessToken: string; userId: string };
let projectId: string;
/** Oldest first. */
const ownerSessions: string[] = [];
let memberSession: string;
let strangerSession: string;

async function addSession(ownerId: string, values: Partial<typeof agentSessions.$inferInsert>) {
  const [row] = await t.ctx.db
    .insert(agentSessions)
    .values({ teamId: 'literature', ownerId, status: 'completed', plan: ['a', 'b'], ...values })
    .returning({ id: agentSessions.id });
  // Distinct creation times: the list is newest first.
  await new Promise((r) => setTimeout(r, 5));
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t.app);
  member = await createUser(t.app);
  stranger = await createUser(t.app);
  admin = await login(t.app, ADMIN.email, ADMIN.password);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: bearer(owner.accessToken),
    payload: { title: 'Hours and wages', researchArea: 'Labor Economics' },
  });
  projectId = (res.json() as { data: { project: { id: string } } }).data.project.id;
  const added = await t.app.inject({
    method: 'POST',
    url: `/api/projects/${projectId}/members`,
    headers: bearer(owner.accessToken),
    payload: { email: member.email, role: 'viewer' },
  });
  expect(added.statusCode).toBe(200);
  ownerSessions.push(await addSession(owner.id, { projectId, status: 'waiting_for_input' }));
  ownerSessions.push(await addSession(owner.id, { teamId: 'data' }));
  ownerSessions.push(await addSession(owner.id, { projectId, status: 'error' }));
  memberSession = await addSession(member.id, { projectId });
  // The stranger names the project on a session of their own (no foreign key to projects).
  strangerSession = await addSession(stranger.id, { projectId });
});
afterAll(() => t?.close());

async function list(token: string, query = '') {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/agents/sessions${query}`,
    headers: bearer(token),
  });
  expect(res.statusCode).toBe(200);
  const body = sessionListReplySchema.parse(res.json());
  return { ids: body.sessions.map((s) => s.sessionId), total: body.total };
}

describe('GET /api/agents/sessions', () => {
  it('lists a user’s own sessions, newest first, with the total and pages', async () => {
    expect(await list(owner.accessToken)).toEqual({
      ids: [...ownerSessions].reverse(),
      total: 3,
    });
    expect(await list(owner.accessToken, '?limit=1&offset=1')).toEqual({
      ids: [ownerSessions[1]],
      total: 3,
    });
    expect(await list(owner.accessToken, '?offset=5')).toEqual({ ids: [], total: 3 });
    expect(await list(owner.accessToken, '?status=error')).toEqual({
      ids: [ownerSessions[2]],
      total: 1,
    });
    expect(await list(owner.accessToken, '?teamId=data')).toEqual({
      ids: [ownerSessions[1]],
      total: 1,
    });
  });

  it('lists every session of a project to its members, only their own to others', async () => {
    // Every session naming the project, the stranger's too (as before this list was one statement).
    const ofProject = [strangerSession, memberSession, ownerSessions[2], ownerSessions[0]];
    const q = `?projectId=${projectId}`;
    expect(await list(owner.accessToken, q)).toEqual({ ids: ofProject, total: 4 });
    expect(await list(member.accessToken, q)).toEqual({ ids: ofProject, total: 4 });
    expect(await list(member.accessToken, `${q}&limit=1&offset=3`)).toEqual({
      ids: [ownerSessions[0]],
      total: 4,
    });
    expect(await list(member.accessToken, `${q}&offset=4`)).toEqual({ ids: [], total: 4 });
    expect(await list(stranger.accessToken, q)).toEqual({ ids: [strangerSession], total: 1 });
    expect(await list(admin.accessToken, q)).toEqual({ ids: ofProject, total: 4 });
    expect((await list(admin.accessToken)).total).toBe(5);
    expect((await list(member.accessToken)).ids).toEqual([memberSession]);
  });

  it('answers the version 2 executions the same way', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v2/agents/executions?projectId=${projectId}&limit=2`,
      headers: bearer(member.accessToken),
    });
    expect(res.statusCode).toBe(200);
    const body = executionListReplySchema.parse(res.json());
    expect(body.executions.map((e) => e.executionId)).toEqual([strangerSession, memberSession]);
    expect(body.total).toBe(4);
  });

  it('runs one statement per request', async () => {
    const cases: Array<[{ accessToken: string; id: string }, string]> = [
      [owner, '/api/agents/sessions'],
      [owner, '/api/agents/sessions?status=completed&teamId=data&limit=1'],
      [member, `/api/agents/sessions?projectId=${projectId}`],
      [stranger, `/api/agents/sessions?projectId=${projectId}`],
      [{ accessToken: admin.accessToken, id: admin.userId }, '/api/agents/sessions'],
      [member, `/api/v2/agents/executions?projectId=${projectId}`],
    ];
    for (const [user, url] of cases) {
      const statements = await statementsOfRequest(t, user.id, {
        method: 'GET',
        url,
        headers: bearer(user.accessToken),
      });
      expect({ url, statements }).toEqual({ url, statements: [expect.any(String)] });
    }
  });
});
