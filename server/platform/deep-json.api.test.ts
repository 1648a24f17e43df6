import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createTestApp, login, type TestApp } from '../../test/app';
import { MAX_JSON_DEPTH } from './json-depth';

/**
 * Deeply nested JSON is refused with a 400 before anything walks it (a recursive walk over
 * 100,000 levels overflows the stack: it was a 500 on every body route, logout included). The
 * route list is the server's own (app.routeAccess), so routes added later are covered.
 */

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await login(t.app, ADMIN.email, ADMIN.password)).accessToken;
});
afterAll(() => t.close());

const LEVELS = 100_000;
const deepArray = '['.repeat(LEVELS) + ']'.repeat(LEVELS);
const deepObject = '{"a":'.repeat(LEVELS) + '1' + '}'.repeat(LEVELS);
const ID = '00000000-0000-4000-8000-000000000000';

const bodyRoutes = () =>
  t.app.routeAccess.filter(
    (r) => r.url.startsWith('/api/') && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method),
  );

describe('deeply nested JSON bodies', () => {
  it(`are answered 400 on every body route (${LEVELS.toLocaleString('en')} levels)`, async () => {
    const routes = bodyRoutes();
    expect(routes.length).toBeGreaterThan(25);
    for (const route of routes) {
      for (const payload of [deepArray, deepObject]) {
        const url = route.url.replace(/:[A-Za-z0-9_]+/g, ID);
        const res = await t.app.inject({
          method: route.method as 'POST',
          url,
          headers: { ...bearer(token), 'content-type': 'application/json' },
          payload,
        });
        const what = `${route.method} ${route.url} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, what).toBe(400);
        expect(res.json(), what).toEqual({
          success: false,
          error: `JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
          message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
        });
      }
    }
  }, 240_000);

  it('refuses them before authentication-free routes do anything (logout, login)', async () => {
    for (const url of ['/api/auth/logout', '/api/auth/login', '/api/auth/register']) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: deepArray,
      });
      expect(res.statusCode, url).toBe(400);
    }
  });

  it(`accepts ${MAX_JSON_DEPTH} levels, with brackets inside strings not counted`, async () => {
    const nested = (n: number): unknown => (n === 0 ? 'x' : { a: nested(n - 1) });
    // 63 levels of objects inside the body's own object: 64 in all.
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: bearer(token),
      payload: {
        title: `Brackets ${'[{'.repeat(80)} in text`,
        researchArea: 'Other',
        extra: nested(MAX_JSON_DEPTH - 1),
      },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const tooDeep = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: bearer(token),
      payload: { title: 'Deep', researchArea: 'Other', extra: nested(MAX_JSON_DEPTH) },
    });
    expect(tooDeep.statusCode).toBe(400);
  });
});
