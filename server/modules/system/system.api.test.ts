import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, bearer, ADMIN, type TestApp } from '../../../test/app';

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

  it('GET /api/health says the process is alive, and nothing more', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: { status: 'ok', version: t.ctx.version, uptimeSeconds: expect.any(Number) },
    });
  });

  it('GET /api/ready reports the database and queue state', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.status).toBe('ok');
    expect(body.data.database.state).toBe('up');
    expect(body.data.database.kind).toBe(
      process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite',
    );
    expect(body.data.queue.state).toBe('up');
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
  it('GET /api/ready answers 503 with the database down; /api/health still 200', async () => {
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
      const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        success: true,
        data: { status: 'degraded', database: { state: 'down' } },
      });
      // Alive all the same: restarting the process would not bring the database back.
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      Object.assign(t.ctx, { db });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  it('GET /api/ready answers 503 when the job queue does not answer', async () => {
    const agents = t.ctx.agents;
    Object.assign(t.ctx, { agents: { ...agents, queueDepth: () => Promise.resolve(null) } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        data: { status: 'degraded', database: { state: 'up' }, queue: { state: 'down' } },
      });
    } finally {
      Object.assign(t.ctx, { agents });
    }
  });
});

describe('GET /api/metrics', () => {
  const TOKEN = 'metrics-token-0123456789';

  it('is not served unless METRICS_ENABLED', async () => {
    const admin = await login(t.app, ADMIN.email, ADMIN.password);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: bearer(admin.accessToken),
    });
    expect(res.statusCode).toBe(404);
  });

  it('takes the metrics token and gives requests, sessions, queue, tokens and sockets', async () => {
    const m = await createTestApp({ METRICS_ENABLED: 'true', METRICS_TOKEN: TOKEN });
    try {
      await m.app.inject({ method: 'GET', url: '/api/health' });
      await m.app.inject({ method: 'GET', url: '/api/projects/whatever' });
      for (const headers of [{}, bearer('wrong-token-0123456789'), bearer(`${TOKEN}x`)]) {
        const refused = await m.app.inject({ method: 'GET', url: '/api/metrics', headers });
        expect(refused.statusCode).toBe(401);
      }
      const res = await m.app.inject({
        method: 'GET',
        url: '/api/metrics',
        headers: bearer(TOKEN),
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0.0.4/);
      const text = res.body;
      expect(text).toContain(
        'econagents_http_requests_total{method="GET",route="/api/health",status="200"} 1',
      );
      // Route patterns, not addresses: no label per id.
      expect(text).toContain('route="/api/projects/:id",status="401"');
      expect(text).not.toContain('whatever');
      expect(text).toMatch(
        /econagents_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/health"\}/,
      );
      expect(text).toMatch(/^econagents_queue_waiting_jobs 0$/m);
      expect(text).toMatch(/^econagents_model_tokens\{direction="input"\} 0$/m);
      expect(text).toMatch(/^econagents_websocket_clients 0$/m);
      expect(text).toMatch(/^econagents_process_resident_memory_bytes \d+/m);
      expect(text).toContain('# TYPE econagents_agent_sessions gauge');
    } finally {
      await m.close();
    }
  });

  it("without METRICS_TOKEN, takes an administrator's token only", async () => {
    const m = await createTestApp({ METRICS_ENABLED: 'true' });
    try {
      const admin = await login(m.app, ADMIN.email, ADMIN.password);
      const user = await createUser(m.app);
      const get = (token?: string) =>
        m.app.inject({
          method: 'GET',
          url: '/api/metrics',
          headers: token ? bearer(token) : {},
        });
      expect((await get()).statusCode).toBe(401);
      expect((await get(user.accessToken)).statusCode).toBe(403);
      expect((await get(admin.accessToken)).statusCode).toBe(200);
    } finally {
      await m.close();
    }
  });
});
