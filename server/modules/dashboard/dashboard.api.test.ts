import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp } from '../../../test/app';
import { agentSessionLogs, agentSessions } from '../../db/schema';
import { client, type Client } from '../../../test/client';
import { statementsOfRequest } from '../../../test/statements';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type SessionInsert = typeof agentSessions.$inferInsert;

async function addSession(values: Omit<SessionInsert, 'plan'> & { plan?: string[] }) {
  const [row] = await t.ctx.db
    .insert(agentSessions)
    .values({ plan: ['a', 'b', 'c', 'd'], ...values })
    .returning({ id: agentSessions.id });
  return row!.id;
}

describe('GET /api/dashboard', () => {
  it('is all zeros and empty lists for a new user', async () => {
    const u = client(t.app, (await createUser(t.app)).accessToken);
    const res = await u.get('/api/dashboard');
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.stats).toMatchObject({
      totalProjects: 0,
      activeProjects: 0,
      datasets: 0,
      datasetsInUse: 0,
      activeAgents: 0,
      researchAreas: 0,
    });
    expect(d.stats.work).toEqual({
      sessionsCompleted: 0,
      checkpointsAnswered: 0,
      referencesVerified: 0,
      datasetsProfiled: 0,
      modelsSolved: 0,
      codeRunsPassed: 0,
    });
    expect(d.stats).not.toHaveProperty('averageTimeReduction');
    expect(d.recentProjects).toEqual([]);
    expect(d.recentActivity).toEqual([]);
    expect(d.activeWorkflows).toEqual([]);
    expect(d.researchAreaDistribution).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/dashboard' })).statusCode).toBe(401);
  });

  describe('with real data', () => {
    let u: Client;
    let userId: string;
    let projectIds: string[];
    beforeAll(async () => {
      const user = await createUser(t.app);
      userId = user.id;
      u = client(t.app, user.accessToken);
      const ds: string[] = [];
      for (const name of ['GDP', 'CPI', 'Unused']) {
        ds.push(
          (await u.post('/api/datasets', { name, source: 'fred', dataType: 'time_series' })).body
            .data.dataset.id,
        );
      }
      projectIds = [];
      const specs = [
        { title: 'P1', researchArea: 'Macroeconomics', status: 'active', datasets: [ds[0]] },
        { title: 'P2', researchArea: 'Macroeconomics', status: 'active', datasets: [ds[0], ds[1]] },
        { title: 'P3', researchArea: 'Labor Economics', status: 'planning' },
        { title: 'P4', researchArea: 'Econometrics', status: 'completed' },
      ];
      for (const spec of specs) {
        projectIds.push((await u.post('/api/projects', spec)).body.data.project.id);
        await sleep(5);
      }
      await u.put(`/api/projects/${projectIds[0]}`, { description: 'touched last' });
      // Someone else's project and session must not count.
      const other = client(t.app, (await createUser(t.app)).accessToken);
      await other.post('/api/projects', { title: 'X', researchArea: 'Finance', status: 'active' });
    });

    it('counts projects, datasets in use and research areas from the user’s data', async () => {
      const d = (await u.get('/api/dashboard')).body.data;
      expect(d.stats).toMatchObject({
        totalProjects: 4,
        activeProjects: 2,
        datasets: 3,
        datasetsInUse: 2,
        researchAreas: 3,
      });
      expect(d.recentProjects.map((p: { title: string }) => p.title)).toEqual(['P1', 'P4', 'P3']);
      expect(d.recentProjects[0]).toMatchObject({
        status: 'active',
        researchArea: 'Macroeconomics',
        progress: 0,
        isFavorite: false,
      });
      expect(d.researchAreaDistribution).toEqual([
        { area: 'Macroeconomics', count: 2 },
        { area: 'Econometrics', count: 1 },
        { area: 'Labor Economics', count: 1 },
      ]);
    });

    it('derives agents, activity and workflows from agent sessions', async () => {
      const running = await addSession({
        teamId: 'literature',
        ownerId: userId,
        projectId: projectIds[0],
        status: 'processing',
        phase: 2,
        results: [
          { phase: 1, key: 'a', name: 'A', result: {}, completedAt: new Date().toISOString() },
        ],
      });
      const waiting = await addSession({
        teamId: 'ideation',
        ownerId: userId,
        status: 'waiting_for_input',
        phase: 2,
        results: [
          { phase: 1, key: 'a', name: 'A', result: {}, completedAt: new Date().toISOString() },
          { phase: 2, key: 'b', name: 'B', result: {}, completedAt: new Date().toISOString() },
        ],
      });
      await addSession({
        teamId: 'literature',
        ownerId: userId,
        status: 'completed',
        finalOutputs: { report: 'r' },
      });
      await t.ctx.db.insert(agentSessionLogs).values([
        { sessionId: running, seq: 1, message: 'Retrieved 37 works from OpenAlex' },
        { sessionId: waiting, seq: 1, message: 'Generated 5 research questions' },
      ]);
      const d = (await u.get('/api/dashboard')).body.data;
      expect(d.stats.activeAgents).toBe(1);
      expect(d.recentActivity).toHaveLength(2);
      expect(d.recentActivity.map((e: { message: string }) => e.message)).toEqual(
        expect.arrayContaining([
          'Retrieved 37 works from OpenAlex',
          'Generated 5 research questions',
        ]),
      );
      const lit = d.recentActivity.find((e: { sessionId: string }) => e.sessionId === running);
      expect(lit).toMatchObject({
        team: 'literature',
        projectId: projectIds[0],
        projectTitle: 'P1',
      });
      expect(d.activeWorkflows).toHaveLength(2);
      const wf = d.activeWorkflows.find((w: { sessionId: string }) => w.sessionId === running);
      expect(wf).toEqual({
        sessionId: running,
        workflow: 'Literature Review',
        team: 'literature',
        project: 'P1',
        projectId: projectIds[0],
        activeAgents: 1,
        status: 'processing',
        progress: 25,
      });
      const idea = d.activeWorkflows.find((w: { sessionId: string }) => w.sessionId === waiting);
      expect(idea).toMatchObject({
        workflow: 'Ideation',
        activeAgents: 0,
        progress: 50,
        project: null,
      });
    });

    it('counts the work the stored sessions hold, and running sessions as active agents', async () => {
      const before = (await u.get('/api/dashboard')).body.data.stats;
      const answer = (approved: boolean) => ({
        phase: 1,
        checkpoint: 1,
        feedback: approved ? 'Approved' : 'More detail',
        approved,
        submittedAt: new Date().toISOString(),
      });
      const result = (key: string, value: unknown) => ({
        phase: 1,
        key,
        name: key,
        result: value,
        completedAt: new Date().toISOString(),
      });
      await addSession({
        teamId: 'literature',
        ownerId: userId,
        status: 'completed',
        feedback: [answer(false), answer(true)],
        results: [result('report', { references: [{ number: 1 }, { number: 2 }, { number: 3 }] })],
      });
      // A review that did not complete verified nothing yet.
      await addSession({
        teamId: 'literature',
        ownerId: userId,
        status: 'waiting_for_input',
        results: [result('report', { references: [{ number: 1 }] })],
      });
      await addSession({
        teamId: 'data',
        ownerId: userId,
        status: 'completed',
        feedback: [answer(true)],
        results: [result('loading', {}), result('profiling', { datasetId: 'x' })],
      });
      await addSession({
        teamId: 'data',
        ownerId: userId,
        status: 'error',
        results: [result('loading', {})],
      });
      await addSession({
        teamId: 'model',
        ownerId: userId,
        status: 'processing',
        results: [result('theory', {}), result('model', {})],
      });
      await addSession({
        teamId: 'code',
        ownerId: userId,
        status: 'completed',
        results: [result('tests', { run: { status: 'passed' } })],
      });
      await addSession({
        teamId: 'code',
        ownerId: userId,
        status: 'completed',
        results: [result('tests', { run: { status: 'failed' } })],
      });
      const stats = (await u.get('/api/dashboard')).body.data.stats;
      const grew = (k: string) => stats.work[k] - before.work[k];
      expect(grew('sessionsCompleted')).toBe(4);
      expect(grew('checkpointsAnswered')).toBe(3);
      expect(grew('referencesVerified')).toBe(3);
      expect(grew('datasetsProfiled')).toBe(1);
      expect(grew('modelsSolved')).toBe(1);
      expect(grew('codeRunsPassed')).toBe(1);
      expect(stats.activeAgents - before.activeAgents).toBe(1);
    });

    it('lists at most 5 open workflows and 10 events', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        ids.push(await addSession({ teamId: 'model', ownerId: userId, status: 'idle' }));
      }
      await t.ctx.db.insert(agentSessionLogs).values(
        Array.from({ length: 12 }, (_, i) => ({
          sessionId: ids[0]!,
          seq: i + 1,
          message: `line ${i + 1}`,
        })),
      );
      const d = (await u.get('/api/dashboard')).body.data;
      expect(d.activeWorkflows).toHaveLength(5);
      expect(d.recentActivity).toHaveLength(10);
    });
  });
});

describe('GET /api/dashboard of a project member', () => {
  it('shows the shared project, its sessions and datasets, exact times, in one statement', async () => {
    const owner = await createUser(t.app);
    const member = await createUser(t.app);
    const o = client(t.app, owner.accessToken);
    const m = client(t.app, member.accessToken);
    const gdp = (
      await o.post('/api/datasets', { name: 'GDP', source: 'fred', dataType: 'time_series' })
    ).body.data.dataset.id;
    const shared = (
      await o.post('/api/projects', { title: 'Shared', researchArea: 'Trade', datasets: [gdp] })
    ).body.data.project;
    const hidden = (await o.post('/api/projects', { title: 'Hidden', researchArea: 'Finance' }))
      .body.data.project;
    expect(
      (await o.post(`/api/projects/${shared.id}/members`, { email: member.email, role: 'viewer' }))
        .status,
    ).toBe(200);
    await m.put(`/api/projects/${shared.id}/favorite`);
    const own = (await m.post('/api/projects', { title: 'Own', researchArea: 'Trade' })).body.data
      .project;
    const ofShared = await addSession({
      teamId: 'data',
      ownerId: owner.id,
      projectId: shared.id,
      status: 'waiting_for_input',
      plan: ['loading', 'profiling'],
      paused: true,
      results: [
        { phase: 1, key: 'loading', name: 'L', result: {}, completedAt: new Date().toISOString() },
      ],
    });
    // The owner's session of a project the member does not see: not theirs to see.
    const ofHidden = await addSession({ teamId: 'data', ownerId: owner.id, projectId: hidden.id });
    // The member's own session naming the hidden project: theirs, without the project.
    const mine = await addSession({ teamId: 'model', ownerId: member.id, projectId: hidden.id });
    const [log] = await t.ctx.db
      .insert(agentSessionLogs)
      .values([
        { sessionId: ofShared, seq: 1, level: 'warn', message: 'shared line' },
        { sessionId: ofHidden, seq: 1, message: 'hidden line' },
        { sessionId: mine, seq: 1, message: 'my line' },
      ])
      .returning();

    const d = (await m.get('/api/dashboard')).body.data;
    expect(d.stats).toMatchObject({
      totalProjects: 2,
      activeProjects: 0,
      datasets: 1,
      datasetsInUse: 1,
      activeAgents: 0,
      researchAreas: 1,
    });
    expect(d.researchAreaDistribution).toEqual([{ area: 'Trade', count: 2 }]);
    const sharedNow = (await m.get(`/api/projects/${shared.id}`)).body.data.project;
    expect(d.recentProjects).toEqual([
      expect.objectContaining({ id: own.id, isFavorite: false }),
      {
        id: shared.id,
        title: 'Shared',
        description: sharedNow.description,
        status: sharedNow.status,
        researchArea: 'Trade',
        workflowStage: sharedNow.workflowStage,
        progress: 0,
        dateUpdated: sharedNow.dateUpdated,
        isFavorite: true,
      },
    ]);
    expect(d.recentActivity.map((e: { message: string }) => e.message).sort()).toEqual([
      'my line',
      'shared line',
    ]);
    expect(d.recentActivity).toContainEqual({
      id: `${ofShared}:1`,
      timestamp: log!.createdAt.toISOString(),
      sessionId: ofShared,
      team: 'data',
      message: 'shared line',
      level: 'warn',
      projectId: shared.id,
      projectTitle: 'Shared',
    });
    expect(d.recentActivity).toContainEqual(
      expect.objectContaining({ sessionId: mine, projectId: null, projectTitle: null }),
    );
    expect(d.activeWorkflows).toEqual([
      {
        sessionId: mine,
        workflow: 'Model',
        team: 'model',
        project: null,
        projectId: null,
        activeAgents: 0,
        status: 'idle',
        progress: 0,
      },
      {
        sessionId: ofShared,
        workflow: 'Data',
        team: 'data',
        project: 'Shared',
        projectId: shared.id,
        activeAgents: 0,
        status: 'paused',
        progress: 50,
      },
    ]);

    const statements = await statementsOfRequest(t, member.id, {
      method: 'GET',
      url: '/api/dashboard',
      headers: { authorization: `Bearer ${member.accessToken}` },
    });
    expect(statements).toEqual([expect.any(String)]);
  });
});
