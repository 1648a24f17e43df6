import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createTestApp, login, type TestApp } from '../../test/app';

/**
 * Every API route, called by an administrator with hostile or nonsensical input: wrong path ids,
 * junk query strings, bodies of the wrong shape and random JSON. None may answer 500 or anything
 * but the error envelope: bad input is the caller's mistake (4xx), never a crash. The route list
 * is the server's own (app.routeAccess), so routes added later are covered without edits here.
 */

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await login(t.app, ADMIN.email, ADMIN.password)).accessToken;
});
afterAll(() => t.close());

/** Routes whose success has effects that would spoil later calls (signing the admin out). */
const SKIPPED = new Set(['POST /api/auth/logout', 'POST /api/auth/sessions/revoke-others']);

const PATH_VALUES = [
  '%E0%A4%A',
  'not-a-uuid',
  '00000000-0000-4000-8000-000000000000',
  '%00',
  '..%2F..',
  'x'.repeat(300),
];
const QUERIES = [
  '',
  '?limit=-1&offset=abc',
  '?limit=100000000000000000000&sort=nope&status=%00',
  '?search=' + encodeURIComponent("' or 1=1 --") + '&category=a,,b&projectId=nope',
  '?after=-5&token=x&limit=1.5',
  '?search=%00&q=a%00b&name=%00',
];
const BODIES: unknown[] = [
  undefined,
  {},
  [],
  'a string',
  42,
  null,
  { email: { $gt: '' }, password: ['x'], name: 'x'.repeat(100_000 / 10) },
  { id: '00000000-0000-4000-8000-000000000000', status: 'weird', role: 'root' },
  // PostgreSQL text cannot hold NUL: a string with one must be refused, not crash an insert.
  {
    title: 'a\u0000b',
    researchArea: 'Other',
    name: 'n\u0000',
    content: 'c\u0000',
    displayName: 'd\u0000',
    profile: { displayName: 'p\u0000' },
  },
];

const routes = () =>
  t.app.routeAccess.filter(
    (r) => r.url.startsWith('/api/') && !SKIPPED.has(`${r.method} ${r.url}`),
  );

function urlFor(pattern: string, value: string, query: string): string {
  return pattern.replace(/:[A-Za-z0-9_]+/g, value) + query;
}

type Reply = { statusCode: number; body: string; headers: Record<string, unknown> };

function expectNoCrash(res: Reply, what: string) {
  expect(res.statusCode, `${what} -> ${res.statusCode} ${res.body.slice(0, 300)}`).toBeLessThan(
    500,
  );
  if (res.statusCode >= 400 && String(res.headers['content-type']).includes('json')) {
    const body = JSON.parse(res.body) as Record<string, unknown>;
    expect(body.success, what).toBe(false);
    expect(typeof body.message, what).toBe('string');
  }
}

async function call(method: string, url: string, body: unknown): Promise<Reply> {
  const hasBody = body !== undefined && method !== 'GET' && method !== 'DELETE';
  return t.app.inject({
    method: method as 'GET',
    url,
    headers: {
      ...bearer(token),
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
    },
    ...(hasBody ? { payload: JSON.stringify(body) } : {}),
  });
}

describe('hostile input on every API route', () => {
  it('covers a meaningful number of routes', () => {
    expect(routes().length).toBeGreaterThan(40);
  });

  it('answers fixed bad ids, queries and bodies without a 5xx', async () => {
    for (const route of routes()) {
      for (const value of PATH_VALUES) {
        for (const query of QUERIES) {
          const url = urlFor(route.url, value, query);
          expectNoCrash(await call(route.method, url, undefined), `${route.method} ${url}`);
        }
        for (const body of BODIES) {
          const url = urlFor(route.url, value, '');
          expectNoCrash(
            await call(route.method, url, body),
            `${route.method} ${url} ${JSON.stringify(body)?.slice(0, 80)}`,
          );
        }
      }
    }
  }, 240_000);

  it('refuses text with a NUL character with a 400 that says so', async () => {
    const create = await call('POST', '/api/projects', {
      title: 'a\u0000b',
      researchArea: 'Other',
    });
    expect(create.statusCode).toBe(400);
    expect(JSON.parse(create.body)).toMatchObject({
      success: false,
      error: 'Text may not contain the NUL character (\\u0000)',
    });
    const search = await call('GET', '/api/projects?search=%00', undefined);
    expect(search.statusCode).toBe(400);
    const fine = await call('POST', '/api/projects', { title: 'Tariffs', researchArea: 'Other' });
    expect(fine.statusCode).toBe(201);
  });

  it('answers addresses the router refuses in the envelope, with security headers', async () => {
    for (const [url, status] of [
      [`/api/projects/${'x'.repeat(300)}`, 414],
      ['/api/projects/%E0%A4%A', 400],
    ] as const) {
      const res = await call('GET', url, undefined);
      expect(res.statusCode).toBe(status);
      expect(JSON.parse(res.body)).toMatchObject({ success: false });
      expect(res.body).not.toContain('xxxxxxxxxx');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    }
  });

  it('answers random JSON bodies without a 5xx', async () => {
    const writes = routes().filter((r) => r.method !== 'GET' && r.method !== 'DELETE');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...writes),
        fc.jsonValue({ maxDepth: 3 }),
        async (route, body) => {
          const url = urlFor(route.url, '00000000-0000-4000-8000-000000000000', '');
          expectNoCrash(await call(route.method, url, body), `${route.method} ${url}`);
        },
      ),
      { numRuns: 300 },
    );
  }, 240_000);
});
