import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, bearer, ADMIN, type TestApp } from '../../../test/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ VERSION_PREFIX: 'Test Prefix' });
});
afterAll(() => t.close());

describe('system routes', () => {
  it('GET /version.json gives the package version and the configured prefix', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/version.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ version: t.ctx.version, prefix: 'Test Prefix' });
    expect(t.ctx.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('GET /api/health reports the database and queue state', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.database.state).toBe('up');
    expect(body.data.database.kind).toBe(
      process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite',
    );
    expect(['up', 'not-started']).toContain(body.data.queue.state);
    expect(body.data.version).toBe(t.ctx.version);
    expect(typeof body.data.uptimeSeconds).toBe('number');
  });

  it('GET /api/agents/status lists the teams and says no model is configured', async () => {
    const admin = await login(t.app, ADMIN.email, ADMIN.password);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/agents/status',
      headers: bearer(admin.accessToken),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.teams.map((x: { id: string }) => x.id)).toEqual([
      'ideation',
      'literature',
      'data',
      'model',
      'code',
      'customized',
    ]);
    expect(body.data.llm.configured).toBe(false);
    expect(body.data.llm.hint).toMatch(/LLM_PROVIDER/);
  });

  it('unknown API routes answer 404 in the error envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      success: false,
      error: expect.stringContaining('not found'),
    });
  });

  it('sends security headers with a CSP', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('system routes when the database is down', () => {
  it('GET /api/health answers 503 with the database down', async () => {
    const db = t.ctx.db;
    // Pretend the database went away: every query fails.
    const failing = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === 'execute') return () => Promise.reject(new Error('connection refused'));
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    Object.assign(t.ctx, { db: failing });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        success: true,
        data: { status: 'degraded', database: { state: 'down' } },
      });
    } finally {
      Object.assign(t.ctx, { db });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
