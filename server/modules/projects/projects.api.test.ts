import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, createUser, login, type TestApp } from '../../../test/app';
import { client, type Client } from '../../../test/client';
import { statementsOfRequest } from '../../../test/statements';

let t: TestApp;
let alice: Client;
let bob: Client;
let carol: Client;
let viewer: Client;
let admin: Client;
let bobUser: { id: string; email: string };
let carolUser: { id: string; email: string };
let viewerUser: { id: string; email: string };

beforeAll(async () => {
  t = await createTestApp();
  const a = await createUser(t.app, { displayName: 'Alice Owner' });
  const b = await createUser(t.app, { displayName: 'Bob Collaborator' });
  const c = await createUser(t.app, { displayName: 'Carol Reader' });
  const v = await createUser(t.app, { displayName: 'Vic Viewer', role: 'viewer' });
  const adm = await login(t.app, ADMIN.email, ADMIN.password);
  alice = client(t.app, a.accessToken);
  bob = client(t.app, b.accessToken);
  carol = client(t.app, c.accessToken);
  viewer = client(t.app, v.accessToken);
  admin = client(t.app, adm.accessToken);
  bobUser = b;
  carolUser = c;
  viewerUser = v;
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('projects: create and read', () => {
  it('creates with the defaults and returns every field of a project', async () => {
    const res = await alice.post('/api/projects', {
      title: '  Minimum wage and employment  ',
      researchArea: 'Labor Economics',
    });
    expect(res.status).toBe(201);
    const p = res.body.data.project;
    expect(p).toMatchObject({
      title: 'Minimum wage and employment',
      description: '',
      status: 'planning',
      researchArea: 'Labor Economics',
      researchQuestions: [],
      hypotheses: [],
      authors: [],
      collaborators: [],
      datasets: [],
      models: [],
      publications: [],
      workflowStage: 'ideation',
      agentConfigurations: [],
      metrics: { progress: 0, agentTasksCompleted: 0, agentTasksTotal: 0 },
      isFavorite: false,
      access: 'owner',
      canEdit: true,
      canDelete: true,
      ownerName: 'Alice Owner',
    });
    expect(Date.parse(p.dateCreated)).not.toBeNaN();
    expect(p.dateUpdated).toBe(p.dateCreated);

    const again = await alice.get(`/api/projects/${p.id}`);
    expect(again.status).toBe(200);
    expect(again.body.data.project).toEqual(p);
  });

  it('accepts every list field and assigns ids to items sent without one', async () => {
    const res = await alice.post('/api/projects', {
      title: 'Monetary policy transmission',
      researchArea: 'Macroeconomics',
      description: 'How rates move lending',
      status: 'active',
      researchQuestions: ['Does QE work?'],
      hypotheses: ['H1: yes'],
      authors: ['A. Owner'],
      collaborators: [{ name: 'External Person', affiliation: 'Uni X' }],
      models: [{ name: 'NK model', type: 'DSGE', description: 'three equations' }],
      publications: ['Working paper 1'],
      workflowStage: 'modeling',
      agentConfigurations: [{ agentType: 'literature', configuration: { depth: 2 } }],
      metrics: { progress: 40, agentTasksCompleted: 2, agentTasksTotal: 5 },
    });
    expect(res.status).toBe(201);
    const p = res.body.data.project;
    expect(p.collaborators[0]).toMatchObject({ name: 'External Person', affiliation: 'Uni X' });
    expect(p.collaborators[0].id).toEqual(expect.any(String));
    expect(p.models[0].id).toEqual(expect.any(String));
    expect(p.agentConfigurations[0]).toMatchObject({
      agentType: 'literature',
      configuration: { depth: 2 },
    });
    expect(p.metrics).toEqual({ progress: 40, agentTasksCompleted: 2, agentTasksTotal: 5 });
    expect(p.status).toBe('active');
    expect(p.workflowStage).toBe('modeling');
  });

  it('refuses a missing title or research area with a 400 naming the field', async () => {
    const noTitle = await alice.post('/api/projects', { researchArea: 'Macroeconomics' });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body).toMatchObject({ success: false });
    expect(noTitle.body.error).toContain('title');
    const blankArea = await alice.post('/api/projects', { title: 'X', researchArea: '   ' });
    expect(blankArea.status).toBe(400);
    expect(blankArea.body.error).toContain('researchArea');
    const badStatus = await alice.post('/api/projects', {
      title: 'X',
      researchArea: 'Y',
      status: 'done',
    });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error).toContain('status');
    const badStage = await alice.post('/api/projects', {
      title: 'X',
      researchArea: 'Y',
      workflowStage: 'dreaming',
    });
    expect(badStage.status).toBe(400);
    expect(badStage.body.error).toContain('workflowStage');
    const badProgress = await alice.post('/api/projects', {
      title: 'X',
      researchArea: 'Y',
      metrics: { progress: 101 },
    });
    expect(badProgress.status).toBe(400);
    expect(badProgress.body.error).toContain('progress');
    const badTasks = await alice.post('/api/projects', {
      title: 'X',
      researchArea: 'Y',
      metrics: { agentTasksCompleted: 3, agentTasksTotal: 2 },
    });
    expect(badTasks.status).toBe(400);
    expect(badTasks.body.error).toContain('agentTasksCompleted');
    const tooLong = await alice.post('/api/projects', {
      title: 'x'.repeat(201),
      researchArea: 'Y',
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toContain('title');
  });

  it('refuses a viewer account creating a project (403)', async () => {
    const res = await viewer.post('/api/projects', { title: 'Nope', researchArea: 'Other' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, error: 'Viewers cannot create projects' });
  });

  it('answers 401 without a token and 400 for a malformed id', async () => {
    const anon = await t.app.inject({ method: 'GET', url: '/api/projects' });
    expect(anon.statusCode).toBe(401);
    const bad = await alice.get('/api/projects/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('id');
  });
});

describe('projects: list, search, filter, sort, page', () => {
  let u: Client;
  beforeAll(async () => {
    const user = await createUser(t.app);
    u = client(t.app, user.accessToken);
    const make = async (title: string, extra: Record<string, unknown>) => {
      const r = await u.post('/api/projects', { title, ...extra });
      expect(r.status).toBe(201);
      await sleep(5); // distinct creation times
      return r.body.data.project.id as string;
    };
    const banana = await make('banana trade', {
      researchArea: 'Macroeconomics',
      status: 'active',
      metrics: { progress: 10 },
    });
    await make('Apple markets', {
      researchArea: 'Microeconomics',
      description: 'about 100% juice',
      metrics: { progress: 90 },
    });
    await make('cherry inflation', {
      researchArea: 'macroeconomics',
      status: 'completed',
      metrics: { progress: 50 },
    });
    // Touch banana so it is the most recently updated.
    await sleep(5);
    expect((await u.put(`/api/projects/${banana}`, { description: 'updated' })).status).toBe(200);
  });

  const titles = (body: { data: { projects: Array<{ title: string }> } }) =>
    body.data.projects.map((p) => p.title);

  it('defaults to newest first (dateCreated descending) with a total', async () => {
    const r = await u.get('/api/projects');
    expect(r.status).toBe(200);
    expect(titles(r.body)).toEqual(['cherry inflation', 'Apple markets', 'banana trade']);
    expect(r.body.data).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(r.body.data.researchAreas).toEqual(
      expect.arrayContaining(['Macroeconomics', 'Microeconomics', 'macroeconomics']),
    );
  });

  it('sorts by each of the six orders', async () => {
    const order = async (sort: string) => titles((await u.get(`/api/projects?sort=${sort}`)).body);
    expect(await order('name_asc')).toEqual(['Apple markets', 'banana trade', 'cherry inflation']);
    expect(await order('name_desc')).toEqual(['cherry inflation', 'banana trade', 'Apple markets']);
    expect(await order('newest')).toEqual(['cherry inflation', 'Apple markets', 'banana trade']);
    expect(await order('oldest')).toEqual(['banana trade', 'Apple markets', 'cherry inflation']);
    expect(await order('recently_updated')).toEqual([
      'banana trade',
      'cherry inflation',
      'Apple markets',
    ]);
    expect(await order('most_progress')).toEqual([
      'Apple markets',
      'cherry inflation',
      'banana trade',
    ]);
    const bad = await u.get('/api/projects?sort=random');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('sort');
  });

  it('searches title and description case-insensitively, with % taken literally', async () => {
    expect(titles((await u.get('/api/projects?search=TRADE')).body)).toEqual(['banana trade']);
    expect(titles((await u.get('/api/projects?search=juice')).body)).toEqual(['Apple markets']);
    expect(titles((await u.get('/api/projects?search=100%25')).body)).toEqual(['Apple markets']);
    expect(titles((await u.get('/api/projects?search=%25')).body)).toEqual(['Apple markets']);
    expect((await u.get('/api/projects?search=zzz')).body.data.total).toBe(0);
  });

  it('filters by research area (case-insensitive) and status', async () => {
    const macro = await u.get('/api/projects?researchArea=Macroeconomics&sort=name_asc');
    expect(titles(macro.body)).toEqual(['banana trade', 'cherry inflation']);
    const active = await u.get('/api/projects?status=active');
    expect(titles(active.body)).toEqual(['banana trade']);
    const all = await u.get('/api/projects?status=&researchArea=');
    expect(all.body.data.total).toBe(3);
    const bad = await u.get('/api/projects?status=done');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('status');
  });

  it('pages with limit and offset', async () => {
    const page = await u.get('/api/projects?sort=name_asc&limit=2&offset=1');
    expect(titles(page.body)).toEqual(['banana trade', 'cherry inflation']);
    expect(page.body.data).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect((await u.get('/api/projects?limit=0')).status).toBe(400);
    expect((await u.get('/api/projects?limit=201')).status).toBe(400);
  });
});

describe('projects: update, favorites, delete', () => {
  it('updates fields, keeps the rest, and moves dateUpdated', async () => {
    const created = (await alice.post('/api/projects', { title: 'T', researchArea: 'Other' })).body
      .data.project;
    await sleep(5);
    const res = await alice.put(`/api/projects/${created.id}`, {
      status: 'paused',
      hypotheses: ['h'],
      metrics: { progress: 25 },
    });
    expect(res.status).toBe(200);
    const p = res.body.data.project;
    expect(p).toMatchObject({ title: 'T', status: 'paused', hypotheses: ['h'] });
    expect(p.metrics).toEqual({ progress: 25, agentTasksCompleted: 0, agentTasksTotal: 0 });
    expect(Date.parse(p.dateUpdated)).toBeGreaterThan(Date.parse(p.dateCreated));
    const patch = await alice.patch(`/api/projects/${created.id}`, { workflowStage: 'coding' });
    expect(patch.body.data.project.workflowStage).toBe('coding');
    const empty = await alice.put(`/api/projects/${created.id}`, {});
    expect(empty.status).toBe(400);
    const blank = await alice.put(`/api/projects/${created.id}`, { title: '' });
    expect(blank.status).toBe(400);
    expect(blank.body.error).toContain('title');
  });

  it('keeps favorites per user', async () => {
    const p = (await alice.post('/api/projects', { title: 'Fav', researchArea: 'Other' })).body.data
      .project;
    await alice.post(`/api/projects/${p.id}/members`, { email: bobUser.email, role: 'viewer' });
    const fav = await alice.put(`/api/projects/${p.id}/favorite`);
    expect(fav.status).toBe(200);
    expect(fav.body.data.project.isFavorite).toBe(true);
    expect((await bob.get(`/api/projects/${p.id}`)).body.data.project.isFavorite).toBe(false);
    const favorites = await alice.get('/api/projects?favorite=true');
    expect(favorites.body.data.projects.map((x: { id: string }) => x.id)).toEqual([p.id]);
    // A viewer member may mark favorites too: it changes nothing of the project.
    expect((await bob.put(`/api/projects/${p.id}/favorite`)).body.data.project.isFavorite).toBe(
      true,
    );
    const unfav = await alice.del(`/api/projects/${p.id}/favorite`);
    expect(unfav.body.data.project.isFavorite).toBe(false);
    expect((await bob.get(`/api/projects/${p.id}`)).body.data.project.isFavorite).toBe(true);
    expect((await carol.put(`/api/projects/${p.id}/favorite`)).status).toBe(404);
  });

  it('deletes (owner only) and then answers 404', async () => {
    const p = (await alice.post('/api/projects', { title: 'Del', researchArea: 'Other' })).body.data
      .project;
    await alice.post(`/api/projects/${p.id}/members`, {
      email: bobUser.email,
      role: 'collaborator',
    });
    const byCollaborator = await bob.del(`/api/projects/${p.id}`);
    expect(byCollaborator.status).toBe(403);
    expect((await admin.del(`/api/projects/${p.id}`)).status).toBe(403);
    expect((await carol.del(`/api/projects/${p.id}`)).status).toBe(404);
    const res = await alice.del(`/api/projects/${p.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Project deleted' });
    expect((await alice.get(`/api/projects/${p.id}`)).status).toBe(404);
    expect((await alice.del(`/api/projects/${p.id}`)).status).toBe(404);
  });
});

describe('projects: membership and roles', () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = (await alice.post('/api/projects', { title: 'Shared', researchArea: 'Other' })).body
      .data.project.id;
  });

  it('hides a project from users who are not members (404 on every route)', async () => {
    expect((await carol.get(`/api/projects/${projectId}`)).status).toBe(404);
    expect((await carol.put(`/api/projects/${projectId}`, { title: 'x' })).status).toBe(404);
    expect((await carol.get(`/api/projects/${projectId}/members`)).status).toBe(404);
    const list = await carol.get('/api/projects');
    expect(list.body.data.projects.map((p: { id: string }) => p.id)).not.toContain(projectId);
  });

  it('lets the owner add a collaborator who may then edit, and lists them in collaborators[]', async () => {
    const add = await alice.post(`/api/projects/${projectId}/members`, {
      email: bobUser.email.toUpperCase(),
      role: 'collaborator',
    });
    expect(add.status).toBe(200);
    expect(add.body.data.members).toEqual([
      expect.objectContaining({
        userId: bobUser.id,
        email: bobUser.email,
        displayName: 'Bob Collaborator',
        role: 'collaborator',
      }),
    ]);
    const seen = await bob.get(`/api/projects/${projectId}`);
    expect(seen.status).toBe(200);
    expect(seen.body.data.project).toMatchObject({
      access: 'collaborator',
      canEdit: true,
      canDelete: false,
    });
    expect(seen.body.data.project.collaborators).toEqual([
      { id: bobUser.id, name: 'Bob Collaborator', affiliation: '' },
    ]);
    const edit = await bob.put(`/api/projects/${projectId}`, { description: 'edited by Bob' });
    expect(edit.status).toBe(200);
    expect(edit.body.data.project.description).toBe('edited by Bob');
    expect(
      (await bob.get('/api/projects')).body.data.projects.map((p: { id: string }) => p.id),
    ).toContain(projectId);
    // Members cannot manage members.
    const byBob = await bob.post(`/api/projects/${projectId}/members`, {
      email: carolUser.email,
      role: 'viewer',
    });
    expect(byBob.status).toBe(403);
  });

  it('lets a viewer member read but not write (403)', async () => {
    await alice.post(`/api/projects/${projectId}/members`, {
      email: carolUser.email,
      role: 'viewer',
    });
    const read = await carol.get(`/api/projects/${projectId}`);
    expect(read.status).toBe(200);
    expect(read.body.data.project).toMatchObject({ access: 'viewer', canEdit: false });
    const write = await carol.put(`/api/projects/${projectId}`, { title: 'hijack' });
    expect(write.status).toBe(403);
    expect((await alice.get(`/api/projects/${projectId}`)).body.data.project.title).toBe('Shared');
  });

  it('never lets a viewer account edit, even when added; and refuses it as collaborator', async () => {
    const asCollaborator = await alice.post(`/api/projects/${projectId}/members`, {
      email: viewerUser.email,
      role: 'collaborator',
    });
    expect(asCollaborator.status).toBe(400);
    expect(asCollaborator.body.error).toContain('role');
    const asViewer = await alice.post(`/api/projects/${projectId}/members`, {
      email: viewerUser.email,
      role: 'viewer',
    });
    expect(asViewer.status).toBe(200);
    expect((await viewer.get(`/api/projects/${projectId}`)).status).toBe(200);
    expect((await viewer.put(`/api/projects/${projectId}`, { title: 'x' })).status).toBe(403);
  });

  it('validates member requests', async () => {
    const unknown = await alice.post(`/api/projects/${projectId}/members`, {
      email: 'nobody@test.example',
      role: 'viewer',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain('email');
    const self = await alice.post(`/api/projects/${projectId}/members`, {
      email: (await alice.get('/api/settings')).body.data.settings.profile.email,
      role: 'viewer',
    });
    expect(self.status).toBe(400);
    const badRole = await alice.post(`/api/projects/${projectId}/members`, {
      email: carolUser.email,
      role: 'owner',
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error).toContain('role');
    const badEmail = await alice.post(`/api/projects/${projectId}/members`, {
      email: 'not-an-email',
      role: 'viewer',
    });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.error).toContain('email');
  });

  it('changes a role by adding again, and removes members (owner, or the member leaving)', async () => {
    const demote = await alice.post(`/api/projects/${projectId}/members`, {
      email: bobUser.email,
      role: 'viewer',
    });
    expect(
      demote.body.data.members.find((m: { userId: string }) => m.userId === bobUser.id).role,
    ).toBe('viewer');
    const afterDemote = (await bob.get(`/api/projects/${projectId}`)).body.data.project;
    expect(afterDemote.canEdit).toBe(false);
    expect(afterDemote.collaborators).toEqual([]);
    // Carol cannot remove Bob, but can leave herself.
    expect((await carol.del(`/api/projects/${projectId}/members/${bobUser.id}`)).status).toBe(403);
    expect((await carol.del(`/api/projects/${projectId}/members/${carolUser.id}`)).status).toBe(
      200,
    );
    expect((await carol.get(`/api/projects/${projectId}`)).status).toBe(404);
    const removed = await alice.del(`/api/projects/${projectId}/members/${bobUser.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data.members.map((m: { userId: string }) => m.userId)).toEqual([
      viewerUser.id,
    ]);
    expect((await bob.get(`/api/projects/${projectId}`)).status).toBe(404);
    expect((await alice.del(`/api/projects/${projectId}/members/${bobUser.id}`)).status).toBe(404);
  });
});

describe('projects: admins', () => {
  it('read any project and list all with scope=all, but cannot change others', async () => {
    const p = (await alice.post('/api/projects', { title: 'Private', researchArea: 'Other' })).body
      .data.project;
    const read = await admin.get(`/api/projects/${p.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.project).toMatchObject({ access: 'admin', canEdit: false });
    expect((await admin.put(`/api/projects/${p.id}`, { title: 'x' })).status).toBe(403);
    const own = await admin.get('/api/projects');
    expect(own.body.data.projects.map((x: { id: string }) => x.id)).not.toContain(p.id);
    const all = await admin.get('/api/projects?scope=all&limit=200');
    expect(all.body.data.projects.map((x: { id: string }) => x.id)).toContain(p.id);
    expect((await alice.get('/api/projects?scope=all')).status).toBe(403);
  });
});

describe('projects: dataset links', () => {
  it('links the caller’s datasets and refuses others’ or unknown ids', async () => {
    const mine = (
      await alice.post('/api/datasets', { name: 'GDP', source: 'world_bank', dataType: 'panel' })
    ).body.data.dataset;
    const carols = (
      await carol.post('/api/datasets', { name: 'CPI', source: 'fred', dataType: 'time_series' })
    ).body.data.dataset;
    const created = await alice.post('/api/projects', {
      title: 'Growth',
      researchArea: 'Macroeconomics',
      datasets: [mine.id],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.project.datasets).toEqual([mine.id]);
    const other = await alice.put(`/api/projects/${created.body.data.project.id}`, {
      datasets: [mine.id, carols.id],
    });
    expect(other.status).toBe(400);
    expect(other.body.error).toContain('datasets');
    // Deleting a dataset removes it from the projects that used it.
    expect((await alice.del(`/api/datasets/${mine.id}`)).status).toBe(200);
    const after = await alice.get(`/api/projects/${created.body.data.project.id}`);
    expect(after.body.data.project.datasets).toEqual([]);
  });
});

describe('projects: the list in one statement (docs/performance.md, API reads)', () => {
  it('runs one statement per request, whatever the filters', async () => {
    const u = await createUser(t.app);
    const c = client(t.app, u.accessToken);
    const p = (await c.post('/api/projects', { title: 'Trade costs', researchArea: 'Trade' })).body
      .data.project;
    await c.put(`/api/projects/${p.id}/favorite`);
    for (const url of [
      '/api/projects',
      '/api/projects?search=trade&researchArea=Trade&status=planning&sort=name_asc',
    ]) {
      const statements = await statementsOfRequest(t, u.id, {
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${u.accessToken}` },
      });
      expect({ url, statements }).toEqual({ url, statements: [expect.any(String)] });
    }
  });
});
