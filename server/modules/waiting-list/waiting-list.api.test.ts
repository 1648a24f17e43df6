import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createTestApp, createUser, login, type TestApp } from '../../../test/app';
import { INTEREST_AREAS } from '../../../common/constants';
import { users, waitingListEntries } from '../../db/schema';
import { EXPORT_PATH } from './routes';

let t: TestApp;
let adminToken: string;
let adminId: string;
beforeAll(async () => {
  t = await createTestApp({ DOWNLOAD_TOKEN_TTL_SECONDS: '30' });
  const admin = await login(t.app, ADMIN.email, ADMIN.password);
  adminToken = admin.accessToken;
  adminId = admin.userId;
});
afterAll(() => t.close());

const join = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/waiting-list', payload });

function expectError(res: { statusCode: number; json(): unknown }, status: number) {
  expect(res.statusCode).toBe(status);
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['error', 'message', 'success']);
  expect(body.success).toBe(false);
  return body as { error: string; message: string };
}

async function rows(email: string) {
  return t.ctx.db.select().from(waitingListEntries).where(eq(waitingListEntries.email, email));
}

/** A strict RFC 4180 reader: CRLF records, quoted fields with doubled quotes. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
      } else {
        field += c;
        i++;
      }
    } else if (c === '"') {
      if (field !== '') throw new Error(`quote inside an unquoted field at ${i}`);
      quoted = true;
      i++;
    } else if (c === ',') {
      record.push(field);
      field = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
    } else if (c === '\n' || c === '\r') {
      throw new Error(`bare line break at ${i}`);
    } else {
      field += c;
      i++;
    }
  }
  if (quoted) throw new Error('unterminated quote');
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

describe('POST /api/waiting-list', () => {
  it('adds an entry with trimmed fields and the spec message', async () => {
    const res = await join({
      name: '  Amartya Sen  ',
      email: '  Amartya.Sen@Uni.Example ',
      affiliation: '  Trinity College  ',
      interestArea: 'Development Economics',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      success: true,
      message: 'Successfully joined the waiting list!',
      data: {
        entry: {
          id: expect.any(String),
          name: 'Amartya Sen',
          email: 'amartya.sen@uni.example',
          affiliation: 'Trinity College',
          interestArea: 'Development Economics',
          createdAt: expect.any(String),
        },
      },
    });
    expect(await rows('amartya.sen@uni.example')).toHaveLength(1);
  });

  it('omits empty optional fields', async () => {
    for (const [i, extra] of [
      {},
      { affiliation: '', interestArea: '' },
      { affiliation: '   ', interestArea: '  ' },
      { affiliation: null, interestArea: null },
    ].entries()) {
      const email = `optional-${i}@uni.example`;
      const res = await join({ name: 'N', email, ...extra });
      expect(res.statusCode).toBe(201);
      const entry = res.json().data.entry;
      expect(entry).not.toHaveProperty('affiliation');
      expect(entry).not.toHaveProperty('interestArea');
      const [row] = await rows(email);
      expect(row).toMatchObject({ affiliation: null, interestArea: null });
    }
  });

  it('accepts every interest area of the spec and nothing else', async () => {
    for (const [i, area] of INTEREST_AREAS.entries()) {
      const res = await join({ name: 'N', email: `area-${i}@uni.example`, interestArea: area });
      expect(res.statusCode).toBe(201);
    }
    for (const area of ['Astrology', 'macroeconomics', 'Other ']) {
      // Exact options only: the form's select sends one of them verbatim.
      const res = await join({ name: 'N', email: 'bad-area@uni.example', interestArea: area });
      expect(expectError(res, 400).error).toContain('interestArea must be one of');
    }
    expect(await rows('bad-area@uni.example')).toHaveLength(0);
  });

  it('requires name and a valid email and names the field', async () => {
    expect(expectError(await join({ email: 'x@uni.example' }), 400).error).toContain(
      'name is required',
    );
    expect(expectError(await join({ name: '   ', email: 'x@uni.example' }), 400).error).toContain(
      'name is required',
    );
    expect(expectError(await join({ name: 'N' }), 400).error).toContain('email is required');
    for (const email of ['nope', 'a@b', 'two@@at.example', '   ']) {
      expect(expectError(await join({ name: 'N', email }), 400).error).toContain('email');
    }
    expect(
      expectError(await join({ name: 'n'.repeat(201), email: 'long@uni.example' }), 400).error,
    ).toContain('name must be at most 200 characters');
    expect(
      expectError(
        await join({ name: 'N', email: 'long@uni.example', affiliation: 'a'.repeat(301) }),
        400,
      ).error,
    ).toContain('affiliation must be at most 300 characters');
  });

  it('refuses a repeated email, whatever its case, with 409 and no second row', async () => {
    expect((await join({ name: 'First', email: 'twice@uni.example' })).statusCode).toBe(201);
    const again = await join({ name: 'Second', email: ' TWICE@uni.example ' });
    expect(expectError(again, 409).error).toBe('This email is already on the waiting list');
    const stored = await rows('twice@uni.example');
    expect(stored).toHaveLength(1);
    expect(stored[0]!.name).toBe('First');
  });

  it('keeps one row when the same email is sent twice at the same moment', async () => {
    const results = await Promise.all([
      join({ name: 'A', email: 'race@uni.example' }),
      join({ name: 'B', email: 'race@uni.example' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await rows('race@uni.example')).toHaveLength(1);
  });
});

describe('GET /api/waiting-list', () => {
  it('lists the entries for an admin, newest first', async () => {
    await join({ name: 'Newest', email: 'newest@uni.example' });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/waiting-list',
      headers: bearer(adminToken),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.entries[0]).toMatchObject({ name: 'Newest', email: 'newest@uni.example' });
    expect(body.data.total).toBe(body.data.entries.length);
    const page = await t.app.inject({
      method: 'GET',
      url: '/api/waiting-list?limit=2&offset=1',
      headers: bearer(adminToken),
    });
    expect(page.json().data.entries).toHaveLength(2);
    expect(page.json().data.entries[0].id).toBe(body.data.entries[1].id);
  });

  it('is for admins only', async () => {
    const researcher = await createUser(t.app);
    expectError(await t.app.inject({ method: 'GET', url: '/api/waiting-list' }), 401);
    expectError(
      await t.app.inject({
        method: 'GET',
        url: '/api/waiting-list',
        headers: bearer(researcher.accessToken),
      }),
      403,
    );
  });
});

describe('GET /api/waiting-list/export.csv', () => {
  const hostile = [
    { name: '=HYPERLINK("http://evil.example","x")', affiliation: '+1+2', email: 'f1@uni.example' },
    { name: '-2+3', affiliation: '@SUM(A1:A2)', email: 'f2@uni.example' },
    { name: '\tTabbed', affiliation: '\rCarriage', email: 'f3@uni.example' },
  ];

  beforeAll(async () => {
    for (const h of hostile) {
      // Straight into the table: the API trims leading tabs and returns, a later import might not.
      await t.ctx.db.insert(waitingListEntries).values(h);
    }
    const res = await join({
      name: 'Zoë "Zed" Ørsted, Jr.',
      email: 'zoe@uni.example',
      affiliation: '東京大学\nEconomics',
      interestArea: 'Behavioral Economics',
    });
    expect(res.statusCode).toBe(201);
  });

  async function exportWith(headers: Record<string, string>, query = '') {
    return t.app.inject({ method: 'GET', url: `${EXPORT_PATH}${query}`, headers });
  }

  it('is RFC 4180 CSV in UTF-8 with a header row and every entry', async () => {
    const res = await exportWith(bearer(adminToken));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="waiting-list-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.endsWith('\r\n')).toBe(true);
    const records = parseCsv(res.body);
    expect(records[0]).toEqual(['id', 'name', 'email', 'affiliation', 'interestArea', 'createdAt']);
    const total = (
      await t.app.inject({ method: 'GET', url: '/api/waiting-list', headers: bearer(adminToken) })
    ).json().data.total;
    expect(records).toHaveLength(total + 1);
    for (const r of records) expect(r).toHaveLength(6);
    const zoe = records.find((r) => r[2] === 'zoe@uni.example')!;
    expect(zoe[1]).toBe('Zoë "Zed" Ørsted, Jr.');
    expect(zoe[3]).toBe('東京大学\nEconomics');
    expect(zoe[4]).toBe('Behavioral Economics');
    expect(new Date(zoe[5]!).toISOString()).toBe(zoe[5]);
    // Raw UTF-8 bytes, not escapes.
    expect(res.rawPayload.includes(Buffer.from('東京大学', 'utf8'))).toBe(true);
    // Empty optional fields are empty cells.
    const plain = records.find((r) => r[2] === 'newest@uni.example')!;
    expect(plain.slice(3, 5)).toEqual(['', '']);
  });

  it('neutralises every cell that could run as a formula', async () => {
    const records = parseCsv((await exportWith(bearer(adminToken))).body);
    const cell = (email: string, col: number) => records.find((r) => r[2] === email)![col];
    expect(cell('f1@uni.example', 1)).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(cell('f1@uni.example', 3)).toBe(`'+1+2`);
    expect(cell('f2@uni.example', 1)).toBe(`'-2+3`);
    expect(cell('f2@uni.example', 3)).toBe(`'@SUM(A1:A2)`);
    expect(cell('f3@uni.example', 1)).toBe(`'\tTabbed`);
    expect(cell('f3@uni.example', 3)).toBe(`'\rCarriage`);
    for (const r of records.slice(1)) {
      for (const c of r) expect(c).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('refuses researchers and anonymous callers', async () => {
    const researcher = await createUser(t.app);
    expectError(await exportWith({}), 401);
    expectError(await exportWith(bearer(researcher.accessToken)), 403);
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/api/waiting-list/export-token',
        headers: bearer(researcher.accessToken),
      }),
      403,
    );
  });

  it('opens with a short-lived download token the admin asks for first', async () => {
    const issued = await t.app.inject({
      method: 'POST',
      url: '/api/waiting-list/export-token',
      headers: bearer(adminToken),
    });
    expect(issued.statusCode).toBe(200);
    const { token, url, expiresInSeconds } = issued.json().data;
    expect(expiresInSeconds).toBe(30);
    expect(url).toBe(`${EXPORT_PATH}?token=${encodeURIComponent(token)}`);
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(parseCsv(res.body)[0]![0]).toBe('id');
    // Single use: the same link does not open the list a second time, within its lifetime too.
    const again = expectError(await t.app.inject({ method: 'GET', url }), 401);
    expect(again.error).toBe('Authentication required');
  });

  it('refuses download tokens that are expired, for another path, forged or misused', async () => {
    const [admin] = await t.ctx.db.select().from(users).where(eq(users.id, adminId));
    const sign = (claims: { purpose: 'access' | 'download'; scope?: string }, ttl: number) =>
      t.ctx.signer.sign({ sub: adminId, ver: admin!.tokenVersion, ...claims }, ttl);
    const viaQuery = (token: string) => exportWith({}, `?token=${encodeURIComponent(token)}`);

    // Another path.
    expectError(
      await viaQuery(await sign({ purpose: 'download', scope: '/api/auth/users' }, 30)),
      401,
    );
    expectError(
      await viaQuery(await sign({ purpose: 'download', scope: `${EXPORT_PATH}x` }, 30)),
      401,
    );
    expectError(await viaQuery(await sign({ purpose: 'download' }, 30)), 401);
    // Expired.
    expectError(await viaQuery(await sign({ purpose: 'download', scope: EXPORT_PATH }, -5)), 401);
    // An access token is not a download token.
    expectError(await viaQuery(adminToken), 401);
    // A download token is not an access token, not even for the export itself.
    const download = await sign({ purpose: 'download', scope: EXPORT_PATH }, 30);
    expectError(await exportWith(bearer(download)), 401);
    expectError(
      await t.app.inject({ method: 'GET', url: '/api/waiting-list', headers: bearer(download) }),
      401,
    );
    // Only the export accepts ?token=: the list does not.
    expectError(
      await t.app.inject({
        method: 'GET',
        url: `/api/waiting-list?token=${encodeURIComponent(download)}`,
      }),
      401,
    );
    // Signed with another secret.
    const forged = await new SignJWT({ purpose: 'download', scope: EXPORT_PATH })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(adminId)
      .setIssuer('econagents')
      .setExpirationTime('1m')
      .sign(new TextEncoder().encode('x'.repeat(48)));
    expectError(await viaQuery(forged), 401);
    // The real one works, so the refusals above are about the token, not the route.
    expect((await viaQuery(download)).statusCode).toBe(200);
  });

  it('a download token dies with its admin rights', async () => {
    const second = await createUser(t.app, { role: 'admin' });
    const issued = await t.app.inject({
      method: 'POST',
      url: '/api/waiting-list/export-token',
      headers: bearer(second.accessToken),
    });
    const { url } = issued.json().data;
    const demote = await t.app.inject({
      method: 'PUT',
      url: `/api/auth/users/${second.id}`,
      headers: bearer(adminToken),
      payload: { role: 'researcher' },
    });
    expect(demote.statusCode).toBe(200);
    // Issued under the admin role: the role change ends it like every token issued before.
    expectError(await t.app.inject({ method: 'GET', url }), 401);
  });
});
