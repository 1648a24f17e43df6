import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, createUser, login, type TestApp } from '../../../test/app';
import { client, type Client } from '../../../test/client';
import { statementsOfRequest } from '../../../test/statements';
import { createDatasetRecord } from './service';

let t: TestApp;
let alice: Client;
let bob: Client;
let viewer: Client;
let admin: Client;
let aliceId: string;
let bobUser: { id: string; email: string };

beforeAll(async () => {
  t = await createTestApp();
  const a = await createUser(t.app);
  const b = await createUser(t.app);
  const v = await createUser(t.app, { role: 'viewer' });
  alice = client(t.app, a.accessToken);
  bob = client(t.app, b.accessToken);
  viewer = client(t.app, v.accessToken);
  admin = client(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).accessToken);
  aliceId = a.id;
  bobUser = b;
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('datasets catalog', () => {
  it('starts empty: no sample datasets are seeded', async () => {
    const res = await alice.get('/api/datasets');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ datasets: [], total: 0, limit: 50, offset: 0 });
    const all = await admin.get('/api/datasets');
    expect(all.body.data.total).toBe(0);
  });

  it('creates an entry with defaults and every field of a catalog entry', async () => {
    const res = await alice.post('/api/datasets', {
      name: 'World Development Indicators',
      source: 'world_bank',
      dataType: 'panel',
    });
    expect(res.status).toBe(201);
    const d = res.body.data.dataset;
    expect(d).toMatchObject({
      name: 'World Development Indicators',
      description: '',
      source: 'world_bank',
      dataType: 'panel',
      fields: [],
      recordCount: null,
      dateRange: { start: null, end: null },
      format: '',
      license: '',
      integrationLevel: 'partial',
      metadata: { hasFullText: false, citation: '', apiAvailable: false },
      ownerId: aliceId,
      canEdit: true,
    });
    expect(d.dateAdded).toBe(d.lastUpdated);
    expect((await alice.get(`/api/datasets/${d.id}`)).body.data.dataset).toEqual(d);
  });

  it('validates source, dataType, name and numbers with 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ source: 'fred', dataType: 'panel' }, 'name'],
      [{ name: 'x', source: 'yahoo', dataType: 'panel' }, 'source'],
      [{ name: 'x', source: 'fred', dataType: 'video' }, 'dataType'],
      [{ name: 'x', source: 'fred', dataType: 'panel', recordCount: -1 }, 'recordCount'],
      [
        { name: 'x', source: 'fred', dataType: 'panel', integrationLevel: 'half' },
        'integrationLevel',
      ],
    ];
    for (const [payload, field] of cases) {
      const res = await alice.post('/api/datasets', payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.error).toContain(field);
    }
  });

  it('accepts every spec source value', async () => {
    const sources = [
      'econlit',
      'repec',
      'ssrn',
      'google_scholar',
      'web_of_science',
      'scopus',
      'nber',
      'aea',
      'bls',
      'fred',
      'census',
      'world_bank',
      'imf',
      'custom',
    ];
    const u = client(t.app, (await createUser(t.app)).accessToken);
    for (const source of sources) {
      const res = await u.post('/api/datasets', { name: source, source, dataType: 'other' });
      expect(res.status, source).toBe(201);
    }
    expect((await u.get('/api/datasets?limit=100')).body.data.total).toBe(sources.length);
  });

  it('searches name/description, filters by source and dataType, sorts by dateAdded desc, pages', async () => {
    const u = client(t.app, (await createUser(t.app)).accessToken);
    const add = async (name: string, source: string, dataType: string, description = '') => {
      expect((await u.post('/api/datasets', { name, source, dataType, description })).status).toBe(
        201,
      );
      await sleep(5);
    };
    await add('CPI', 'fred', 'time_series', 'consumer prices');
    await add('Census 2020', 'census', 'cross_sectional');
    await add('Unemployment', 'fred', 'time_series', 'monthly rate');
    const names = (r: { body: { data: { datasets: Array<{ name: string }> } } }) =>
      r.body.data.datasets.map((d) => d.name);
    expect(names(await u.get('/api/datasets'))).toEqual(['Unemployment', 'Census 2020', 'CPI']);
    expect(names(await u.get('/api/datasets?search=PRICES'))).toEqual(['CPI']);
    expect(names(await u.get('/api/datasets?source=fred'))).toEqual(['Unemployment', 'CPI']);
    expect(names(await u.get('/api/datasets?source=all&dataType=cross_sectional'))).toEqual([
      'Census 2020',
    ]);
    const page = await u.get('/api/datasets?limit=1&offset=1');
    expect(names(page)).toEqual(['Census 2020']);
    expect(page.body.data.total).toBe(3);
    const bad = await u.get('/api/datasets?source=nasa');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('source');
  });

  it('updates and deletes own entries; others get 404, viewers 403', async () => {
    const d = (
      await alice.post('/api/datasets', { name: 'Mine', source: 'imf', dataType: 'panel' })
    ).body.data.dataset;
    await sleep(5);
    const upd = await alice.put(`/api/datasets/${d.id}`, {
      description: 'IFS',
      recordCount: 1200,
      dateRange: { start: '1990-01-01', end: '2020-12-31' },
      fields: [{ name: 'gdp', type: 'number' }],
      metadata: { apiAvailable: true },
      integrationLevel: 'full',
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data.dataset).toMatchObject({
      description: 'IFS',
      recordCount: 1200,
      dateRange: { start: '1990-01-01', end: '2020-12-31' },
      fields: [{ name: 'gdp', type: 'number', description: '' }],
      metadata: { hasFullText: false, citation: '', apiAvailable: true },
      integrationLevel: 'full',
    });
    expect(Date.parse(upd.body.data.dataset.lastUpdated)).toBeGreaterThan(
      Date.parse(upd.body.data.dataset.dateAdded),
    );
    expect((await bob.get(`/api/datasets/${d.id}`)).status).toBe(404);
    expect((await bob.put(`/api/datasets/${d.id}`, { name: 'x' })).status).toBe(404);
    expect((await bob.del(`/api/datasets/${d.id}`)).status).toBe(404);
    expect(
      (await viewer.post('/api/datasets', { name: 'v', source: 'imf', dataType: 'panel' })).status,
    ).toBe(403);
    expect((await alice.put(`/api/datasets/${d.id}`, {})).status).toBe(400);
    expect((await alice.del(`/api/datasets/${d.id}`)).status).toBe(200);
    expect((await alice.get(`/api/datasets/${d.id}`)).status).toBe(404);
  });

  it('shares entries linked to a project with its members (read-only)', async () => {
    const d = (
      await alice.post('/api/datasets', { name: 'Linked', source: 'bls', dataType: 'panel' })
    ).body.data.dataset;
    const p = (
      await alice.post('/api/projects', { title: 'P', researchArea: 'Other', datasets: [d.id] })
    ).body.data.project;
    expect((await bob.get(`/api/datasets/${d.id}`)).status).toBe(404);
    await alice.post(`/api/projects/${p.id}/members`, { email: bobUser.email, role: 'viewer' });
    const seen = await bob.get(`/api/datasets/${d.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.data.dataset.canEdit).toBe(false);
    expect((await bob.put(`/api/datasets/${d.id}`, { name: 'x' })).status).toBe(403);
    expect((await bob.get('/api/datasets?scope=mine')).body.data.datasets).toEqual([]);
    expect(
      (await bob.get('/api/datasets')).body.data.datasets.map((x: { id: string }) => x.id),
    ).toContain(d.id);
  });

  it('admins see every entry but change none of others’', async () => {
    const d = (await bob.post('/api/datasets', { name: 'Bobs', source: 'aea', dataType: 'text' }))
      .body.data.dataset;
    expect((await admin.get(`/api/datasets/${d.id}`)).status).toBe(200);
    expect((await admin.del(`/api/datasets/${d.id}`)).status).toBe(403);
  });

  it('createDatasetRecord makes entries for the Data team, with origin details kept private', async () => {
    const d = await createDatasetRecord(t.ctx.db, {
      ownerId: aliceId,
      name: 'Uploaded survey',
      source: 'custom',
      dataType: 'cross_sectional',
      format: 'csv',
      recordCount: 42,
      fields: [{ name: 'age', type: 'integer', description: '' }],
      originKind: 'upload',
      originDetails: { path: '/data/uploads/x.csv' },
    });
    const res = await alice.get(`/api/datasets/${d.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.dataset).toMatchObject({
      name: 'Uploaded survey',
      recordCount: 42,
      format: 'csv',
    });
    expect(res.raw.body).not.toContain('/data/uploads');
  });
});

describe('datasets: the list in one statement (docs/performance.md, API reads)', () => {
  it('runs one statement per request, whatever the filters', async () => {
    const u = await createUser(t.app);
    const c = client(t.app, u.accessToken);
    expect(
      (await c.post('/api/datasets', { name: 'GDP', source: 'fred', dataType: 'time_series' }))
        .status,
    ).toBe(201);
    for (const url of [
      '/api/datasets',
      '/api/datasets?search=gdp&source=fred&dataType=time_series&scope=mine',
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
