import crypto from 'node:crypto';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createTestApp, createUser, login, type TestApp } from '../../test/app';
import type { Database } from '../db/connect';
import { registerAccessControl } from './access';
import { registerErrorHandling } from './errors';
import { TokenSigner } from './tokens';

/**
 * Every route declares who may call it (config.access), collected in app.routeAccess. These
 * tests walk that list, so routes added by any module later are covered without editing this
 * file.
 */
let t: TestApp;
let researcher: Awaited<ReturnType<typeof createUser>>;
let viewer: Awaited<ReturnType<typeof createUser>>;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp();
  researcher = await createUser(t.app);
  viewer = await createUser(t.app, { role: 'viewer' });
  adminToken = (await login(t.app, ADMIN.email, ADMIN.password)).accessToken;
});
afterAll(() => t.close());

/** A concrete URL for a route pattern: a random UUID for each :param, 'x' for a wildcard. */
function concrete(url: string): string {
  return url.replace(/:[A-Za-z0-9_]+/g, () => crypto.randomUUID()).replace(/\*/g, 'x');
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function protectedRoutes(access?: 'user' | 'admin') {
  return t.app.routeAccess.filter((r) => (access ? r.access === access : r.access !== 'public'));
}

function expectEnvelope(
  res: { statusCode: number; json(): unknown },
  status: number,
  what: string,
) {
  expect(res.statusCode, what).toBe(status);
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body).sort(), what).toEqual(['error', 'message', 'success']);
  expect(body.success, what).toBe(false);
}

describe('the route access table', () => {
  it('lists every route of the foundation with its access', () => {
    const table = new Map(t.app.routeAccess.map((r) => [`${r.method} ${r.url}`, r.access]));
    expect(Object.fromEntries([...table].filter(([k]) => FOUNDATION.includes(k)))).toEqual(
      Object.fromEntries(FOUNDATION.map((k) => [k, EXPECTED[k]])),
    );
    // Other modules' routes are in it too (the walk below covers them).
    expect(t.app.routeAccess.length).toBeGreaterThan(FOUNDATION.length);
  });

  it('every non-public route answers 401 without a token', async () => {
    const routes = protectedRoutes();
    expect(routes.length).toBeGreaterThan(10);
    for (const r of routes) {
      const url = concrete(r.url);
      const what = `${r.method} ${r.url}`;
      const res = await t.app.inject({ method: r.method as Method, url });
      expectEnvelope(res, 401, what);
      expect(res.json().error, what).toBe('Authentication required');
      // The rejection comes before anything else: security headers are on it too.
      expect(res.headers['content-security-policy'], what).toBeDefined();
    }
  });

  it('every non-public route answers 401 to a bad, expired or wrong-purpose token', async () => {
    const expired = await t.ctx.signer.sign({ sub: researcher.id, purpose: 'access' }, -1);
    const download = await t.ctx.signer.sign(
      { sub: researcher.id, purpose: 'download', scope: '/' },
      60,
    );
    for (const r of protectedRoutes()) {
      const what = `${r.method} ${r.url}`;
      for (const token of ['garbage', expired, download]) {
        const res = await t.app.inject({
          method: r.method as Method,
          url: concrete(r.url),
          headers: bearer(token),
        });
        expectEnvelope(res, 401, what);
      }
    }
  });

  it('HEAD of a protected GET route is protected as well', async () => {
    for (const r of protectedRoutes().filter((x) => x.method === 'GET')) {
      const res = await t.app.inject({ method: 'HEAD', url: concrete(r.url) });
      expect(res.statusCode, `HEAD ${r.url}`).toBe(401);
    }
  });

  it('every admin route answers 403 to a researcher and a viewer', async () => {
    const routes = protectedRoutes('admin');
    expect(routes.length).toBeGreaterThanOrEqual(6);
    for (const r of routes) {
      for (const who of [researcher, viewer]) {
        const res = await t.app.inject({
          method: r.method as Method,
          url: concrete(r.url),
          headers: bearer(who.accessToken),
        });
        expectEnvelope(res, 403, `${r.method} ${r.url}`);
        expect(res.json().error).toBe('Admin privileges required');
      }
    }
  });

  it('a researcher passes the access check of every user route', async () => {
    for (const r of protectedRoutes('user')) {
      const res = await t.app.inject({
        method: r.method as Method,
        url: concrete(r.url),
        headers: bearer(researcher.accessToken),
      });
      expect(res.statusCode, `${r.method} ${r.url}`).not.toBe(401);
      expect(res.body, `${r.method} ${r.url}`).not.toContain('Admin privileges required');
    }
  });

  it('an admin passes the access check of every admin route', async () => {
    for (const r of protectedRoutes('admin')) {
      const res = await t.app.inject({
        method: r.method as Method,
        url: concrete(r.url),
        headers: bearer(adminToken),
      });
      expect([401, 403], `${r.method} ${r.url}`).not.toContain(res.statusCode);
    }
  });
});

describe('registerAccessControl', () => {
  const signer = new TokenSigner(new TextEncoder().encode('s'.repeat(48)));

  function bareApp() {
    const app = Fastify();
    registerErrorHandling(app);
    registerAccessControl(app, {} as Database, signer);
    return app;
  }

  it('refuses to register an /api route that does not declare its access', async () => {
    const app = bareApp();
    expect(() => app.get('/api/forgotten', async () => ({ ok: true }))).toThrow(
      'Route GET /api/forgotten does not declare config.access',
    );
    expect(() =>
      app.post('/api/declared', { config: { access: 'user' } }, async () => ({ ok: true })),
    ).not.toThrow();
    // Outside /api (static files, the SPA) nothing is required.
    expect(() => app.get('/assets/x.js', async () => 'x')).not.toThrow();
    await app.close();
  });

  it('collects method, url and access, without HEAD duplicates', async () => {
    const app = bareApp();
    app.get('/api/a/:id', { config: { access: 'admin' } }, async () => 'a');
    app.route({
      method: ['POST', 'PUT'],
      url: '/api/b',
      config: { access: 'public' },
      handler: async () => 'b',
    });
    await app.ready();
    expect(app.routeAccess).toEqual([
      { method: 'GET', url: '/api/a/:id', access: 'admin' },
      { method: 'POST', url: '/api/b', access: 'public' },
      { method: 'PUT', url: '/api/b', access: 'public' },
    ]);
    await app.close();
  });
});

/** The foundation's own routes and the access each must have. */
const EXPECTED: Record<string, string> = {
  'GET /api/health': 'public',
  'GET /api/ready': 'public',
  'GET /api/agents/status': 'user',
  'POST /api/auth/register': 'public',
  'POST /api/auth/login': 'public',
  'POST /api/auth/refresh': 'public',
  'POST /api/auth/logout': 'public',
  'GET /api/auth/profile': 'user',
  'POST /api/auth/change-password': 'user',
  'POST /api/auth/sessions/revoke-others': 'user',
  'GET /api/auth/users': 'admin',
  'PUT /api/auth/users/:id/status': 'admin',
  'PUT /api/auth/users/:id': 'admin',
  'POST /api/waiting-list': 'public',
  'GET /api/waiting-list': 'admin',
  'POST /api/waiting-list/export-token': 'admin',
  'GET /api/waiting-list/export.csv': 'admin',
};
const FOUNDATION = Object.keys(EXPECTED);
