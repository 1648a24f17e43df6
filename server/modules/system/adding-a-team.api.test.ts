import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp } from '../../../test/app';
import { client } from '../../../test/client';
import { exampleTeam } from '../../../test/teams/example-team/team';
import { runtimeTestTeam } from '../../../test/teams/runtime-test-team';
import { agentSessions } from '../../db/schema';

/**
 * A team added the way docs/architecture.md ("Adding a team") says: its own folders and one line
 * in the server's list, nothing else. Here the list is a copy: the product's teams plus the
 * example team (test/teams/example-team, label 'Example', stage 'reporting') and the runtime's
 * test team (no stage), which is what createTestApp's extraTeams builds. Every list the server
 * shows must name them from their definitions alone. (The web side: web/teams/adding-a-team.test.tsx.)
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { extraTeams: [exampleTeam, runtimeTestTeam] });
});
afterAll(() => t.close());

interface StatusTeam {
  id: string;
  name: string;
  maturity: string;
  available: boolean;
}

describe('a team added to the list', () => {
  it('GET /api/agents/teams gives its label and research stage', async () => {
    const user = await createUser(t.app);
    const res = await client(t.app, user.accessToken).get('/api/agents/teams');
    expect(res.status).toBe(200);
    const teams = (res.body as { teams: Array<Record<string, unknown>> }).teams;
    expect(teams.find((x) => x.id === 'example')).toMatchObject({
      name: 'Example Team',
      label: 'Example',
      stage: 'reporting',
      available: true,
    });
    expect(teams.find((x) => x.id === 'runtime-test')).toMatchObject({
      label: 'Runtime Test',
      stage: null,
    });
    expect(teams.find((x) => x.id === 'model')).toMatchObject({
      label: 'Model',
      stage: 'modeling',
    });
  });

  it('GET /api/agents/status lists it under its label, in the order of the research stages', async () => {
    const user = await createUser(t.app);
    const res = await client(t.app, user.accessToken).get('/api/agents/status');
    expect(res.status).toBe(200);
    const teams = (res.body as { data: { teams: StatusTeam[] } }).data.teams;
    // Stage order (ideation ... coding, then reporting), a team without a stage after them, and
    // the customized workflow last.
    expect(teams.map((x) => x.id)).toEqual([
      'ideation',
      'literature',
      'data',
      'model',
      'code',
      'example',
      'runtime-test',
      'customized',
    ]);
    expect(teams.find((x) => x.id === 'example')).toEqual({
      id: 'example',
      name: 'Example',
      maturity: 'ready',
      available: true,
    });
    expect(teams.find((x) => x.id === 'literature')!.name).toBe('Literature Review');
    expect(teams.at(-1)).toEqual({
      id: 'customized',
      name: 'Customized Workflow',
      maturity: 'ready',
      available: true,
    });
  });

  it('GET /api/agents/status needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/agents/status' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false });
  });

  it("the dashboard names the team's sessions by its label, and an unknown team's by its id", async () => {
    const user = await createUser(t.app);
    const insert = (teamId: string) =>
      t.ctx.db
        .insert(agentSessions)
        // Waiting at a checkpoint: open, and nothing for the worker to pick up.
        .values({ teamId, ownerId: user.id, status: 'waiting_for_input', phase: 1, plan: ['a'] })
        .returning({ id: agentSessions.id });
    const [added] = await insert('example');
    // A session of a team this server no longer registers keeps its id as its name.
    const [gone] = await insert('retired');
    const res = await client(t.app, user.accessToken).get('/api/dashboard');
    expect(res.status).toBe(200);
    const workflows = (
      res.body as { data: { activeWorkflows: Array<{ sessionId: string; workflow: string }> } }
    ).data.activeWorkflows;
    expect(workflows.find((w) => w.sessionId === added!.id)?.workflow).toBe('Example');
    expect(workflows.find((w) => w.sessionId === gone!.id)?.workflow).toBe('retired');
  });
});
