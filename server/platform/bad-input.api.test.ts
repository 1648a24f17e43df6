import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createTestApp, createUser, login, type TestApp } from '../../test/app';
import { MULTIPART_HEADERS, multipartBody } from '../../test/multipart';
import {
  hostileRequest,
  operationsOf,
  sampleOf,
  type OpenApiDocument,
  type OperationShape,
} from '../../test/openapi-hostile';
import { MALFORMED_MULTIPART } from './multipart';
import { LONE_SURROGATE_MESSAGE, NUL_MESSAGE } from './text-input';

/**
 * Every API route, called by an administrator with hostile or nonsensical input: wrong path ids,
 * junk query strings, bodies of the wrong shape and random JSON. None may answer 500 or anything
 * but the error envelope: bad input is the caller's mistake (4xx), never a crash. The route list
 * is the server's own (app.routeAccess), so routes added later are covered without edits here.
 * Beside it: lone surrogates and NUL refused at the edge, malformed multipart on every route that
 * parses forms, and fast-check requests built from each operation's OpenAPI request schema with
 * one field (at any depth) made hostile, sent by a researcher against another user's ids (whose
 * data must read the same afterwards) and by an administrator.
 */

let t: TestApp;
let token: string;
let operations: OperationShape[];
beforeAll(async () => {
  t = await createTestApp();
  token = (await login(t.app, ADMIN.email, ADMIN.password)).accessToken;
  const doc = await t.app.inject({ method: 'GET', url: '/docs/api/json' });
  operations = operationsOf(doc.json<OpenApiDocument>());
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

/** Whether `call` sends `body` (GET and DELETE requests go without one). */
const sendsBody = (method: string, body: unknown) =>
  body !== undefined && method !== 'GET' && method !== 'DELETE';

async function call(method: string, url: string, body: unknown, as = token): Promise<Reply> {
  const hasBody = sendsBody(method, body);
  return t.app.inject({
    method: method as 'GET',
    url,
    headers: {
      ...bearer(as),
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
      // The same request twice in a row meets the same server: a route without path parameters
      // gets one URL for every bad id, and a GET or DELETE goes without the body, so most of
      // the grid's requests repeat one already answered (about 7,000 of 11,000). Each distinct
      // request is sent; a repeat is sent again only after a write that succeeded, whose effect
      // may make the repeat meet another path.
      const answered = new Map<string, number>();
      const send = async (url: string, body: unknown, what: string) => {
        const key = `${url} ${sendsBody(route.method, body) ? JSON.stringify(body) : '-'}`;
        const before = answered.get(key);
        if (before !== undefined && (route.method === 'GET' || before >= 300)) return;
        const res = await call(route.method, url, body);
        answered.set(key, res.statusCode);
        expectNoCrash(res, what);
      };
      for (const value of PATH_VALUES) {
        for (const query of QUERIES) {
          const url = urlFor(route.url, value, query);
          await send(url, undefined, `${route.method} ${url}`);
        }
        for (const body of BODIES) {
          const url = urlFor(route.url, value, '');
          await send(url, body, `${route.method} ${url} ${JSON.stringify(body)?.slice(0, 80)}`);
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

  it('refuses a lone UTF-16 surrogate anywhere in a JSON body with a 400 that says so', async () => {
    for (const [method, url, body] of [
      ['POST', '/api/projects', { title: 'a\ud800b', researchArea: 'Other' }],
      ['POST', '/api/projects', { title: 'Tariffs', researchArea: 'Other', tags: ['\udc00'] }],
      ['PUT', '/api/settings', { profile: { displayName: 'x\udbff' } }],
      ['POST', '/api/datasets', { ['key\ud800']: 1 }],
    ] as const) {
      const res = await call(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ success: false, error: LONE_SURROGATE_MESSAGE });
    }
    // A surrogate pair is a character like any other.
    const pair = await call('POST', '/api/projects', { title: 'Growth 😀', researchArea: 'Other' });
    expect(pair.statusCode).toBe(201);
  });
});

/** Routes that parse multipart/form-data: those that do not answer a form with 415. */
async function multipartRoutes(): Promise<string[]> {
  const found: string[] = [];
  for (const route of routes().filter((r) => r.method === 'POST')) {
    const res = await t.app.inject({
      method: 'POST',
      url: route.url,
      headers: { ...bearer(token), ...MULTIPART_HEADERS },
      payload: multipartBody({ name: 'n' }),
    });
    if (res.statusCode !== 415) found.push(route.url);
  }
  return found;
}

describe('malformed multipart on every upload route', () => {
  it('answers a cut or unbounded form and NUL in a part with a 400, never a 5xx', async () => {
    const uploads = [
      '/api/documents/upload',
      '/api/agents/data-team/upload',
      '/api/agents/data-team/datasets/upload',
    ];
    // Every route that parses forms (the upload routes' neighbours in their scope too).
    const parsing = await multipartRoutes();
    expect(parsing).toEqual(expect.arrayContaining(uploads));
    const file = { name: 'data.csv', content: 'year,gdp\n2020,1.5\n' };
    const whole = multipartBody({ name: 'n' }, [file]);
    const cases: Array<[string, Record<string, string>, Buffer, string]> = [
      ['cut short', MULTIPART_HEADERS, whole.subarray(0, whole.length - 30), MALFORMED_MULTIPART],
      ['cut in a header', MULTIPART_HEADERS, whole.subarray(0, 40), MALFORMED_MULTIPART],
      ['no boundary', { 'content-type': 'multipart/form-data' }, whole, MALFORMED_MULTIPART],
      ['not multipart at all', MULTIPART_HEADERS, Buffer.from('hello'), MALFORMED_MULTIPART],
      [
        'NUL in the file name',
        MULTIPART_HEADERS,
        multipartBody({}, [{ ...file, name: 'da\u0000ta.csv' }]),
        NUL_MESSAGE,
      ],
      [
        'NUL in a field value',
        MULTIPART_HEADERS,
        multipartBody({ name: 'x\u0000y' }, [file]),
        NUL_MESSAGE,
      ],
      [
        'NUL in a field name',
        MULTIPART_HEADERS,
        multipartBody({ ['na\u0000me']: 'x' }, [file]),
        NUL_MESSAGE,
      ],
      [
        'NUL in the file part name',
        MULTIPART_HEADERS,
        multipartBody({}, [{ ...file, field: 'fi\u0000le' }]),
        NUL_MESSAGE,
      ],
    ];
    for (const url of parsing) {
      for (const [what, headers, payload, error] of cases) {
        const res = await t.app.inject({
          method: 'POST',
          url: url.replace(/:[A-Za-z0-9_]+/g, '00000000-0000-4000-8000-000000000000'),
          headers: { ...bearer(token), ...headers },
          payload,
        });
        expectNoCrash(res, `${url}: ${what}`);
        if (!uploads.includes(url)) continue;
        expect(res.statusCode, `${url}: ${what} -> ${res.body}`).toBe(400);
        expect(JSON.parse(res.body), `${url}: ${what}`).toMatchObject({ success: false, error });
      }
    }
  }, 120_000);
});

describe('hostile values in bodies and queries shaped by the OpenAPI document', () => {
  /** What the victim can read of their own things: it must be the same after the attack. */
  async function victimView(victim: string, ids: Record<string, string>) {
    const reads = [
      '/api/auth/profile',
      '/api/settings',
      `/api/projects/${ids.project}`,
      `/api/projects/${ids.project}/members`,
      `/api/documents/${ids.document}`,
      `/api/datasets/${ids.dataset}`,
      '/api/notifications',
    ];
    const out: Record<string, unknown> = {};
    for (const url of reads) {
      const res = await call('GET', url, undefined, victim);
      expect(res.statusCode, url).toBe(200);
      out[url] = JSON.parse(res.body);
    }
    return out;
  }

  it("answers without a 5xx and leaves another user's data as it was", async () => {
    const writable = (method: string, url: string) =>
      operations.find((o) => o.method === method && o.url === url)!.body!;
    const victim = await createUser(t.app, { role: 'researcher' });
    const created = async (url: string, body: unknown) => {
      const res = await call('POST', url, body, victim.accessToken);
      expect(res.statusCode, `${url} ${res.body}`).toBe(201);
      return (JSON.parse(res.body) as { data: Record<string, { id: string }> }).data;
    };
    const ids = {
      project: (await created('/api/projects', { title: 'Victim project', researchArea: 'Other' }))
        .project!.id,
      document: (
        await created('/api/documents', {
          name: 'Victim notes',
          category: (sampleOf(writable('POST', '/api/documents'), []) as { category: string })
            .category,
          content: 'Mine alone.',
        })
      ).document!.id,
      dataset: (await created('/api/datasets', sampleOf(writable('POST', '/api/datasets'), [])))
        .dataset!.id,
      user: victim.id,
    };
    expect(
      (await call('PUT', '/api/settings', { profile: { theme: 'dark' } }, victim.accessToken))
        .statusCode,
    ).toBe(200);
    const before = await victimView(victim.accessToken, ids);

    const attacker = await createUser(t.app, { role: 'researcher' });
    // The attacker's own project too, so creations with a projectId get past the rights check
    // and their hostile fields reach the database.
    const own = await call(
      'POST',
      '/api/projects',
      { title: 'Attacker project', researchArea: 'Other' },
      attacker.accessToken,
    );
    const ownProject = (JSON.parse(own.body) as { data: { project: { id: string } } }).data.project
      .id;
    const targets = operations.filter(
      (o) => o.url.startsWith('/api/') && !SKIPPED.has(`${o.method} ${o.url}`),
    );
    const pathIds = [ownProject, ...Object.values(ids), '00000000-0000-4000-8000-000000000000'];
    const calls: string[] = [];
    await fc.assert(
      fc.asyncProperty(hostileRequest(targets, pathIds), async (req) => {
        const res = await call(req.method, req.url, req.body, attacker.accessToken);
        calls.push(`${req.method} ${req.url.split('?')[0]}`);
        expectNoCrash(res, `${req.method} ${req.url} ${JSON.stringify(req.body)?.slice(0, 200)}`);
      }),
      { numRuns: 600 },
    );
    // The runs reached most operations, not a few over and over.
    expect(new Set(calls).size).toBeGreaterThan(targets.length / 2);
    expect(await victimView(victim.accessToken, ids)).toEqual(before);
  }, 600_000);

  it("answers an administrator's hostile values without a 5xx", async () => {
    const bystander = await createUser(t.app, { role: 'researcher' });
    const targets = operations.filter(
      (o) => o.url.startsWith('/api/') && !SKIPPED.has(`${o.method} ${o.url}`),
    );
    const pathIds = [bystander.id, '00000000-0000-4000-8000-000000000000', 'not-an-id'];
    await fc.assert(
      fc.asyncProperty(hostileRequest(targets, pathIds), async (req) => {
        const res = await call(req.method, req.url, req.body);
        expectNoCrash(res, `${req.method} ${req.url} ${JSON.stringify(req.body)?.slice(0, 200)}`);
      }),
      { numRuns: 400 },
    );
  }, 600_000);
});
