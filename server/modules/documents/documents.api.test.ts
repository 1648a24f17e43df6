import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createTestApp, createUser, login, type TestApp } from '../../../test/app';
import { client, type Client } from '../../../test/client';
import { statementsOfRequest } from '../../../test/statements';
import { makePdf } from '../../../test/fixtures/literature-sources/pdf';
import { saveSessionDocument } from './service';

let t: TestApp;
let alice: Client;
let bob: Client;
let viewer: Client;
let admin: Client;
let aliceUser: { id: string; accessToken: string };
let bobUser: { id: string; email: string; accessToken: string };
let projectId: string;

const UPLOAD_LIMIT = 4096;

beforeAll(async () => {
  t = await createTestApp({ UPLOAD_LIMIT_BYTES: String(UPLOAD_LIMIT) });
  aliceUser = await createUser(t.app);
  bobUser = await createUser(t.app);
  const v = await createUser(t.app, { role: 'viewer' });
  alice = client(t.app, aliceUser.accessToken);
  bob = client(t.app, bobUser.accessToken);
  viewer = client(t.app, v.accessToken);
  admin = client(t.app, (await login(t.app, ADMIN.email, ADMIN.password)).accessToken);
  projectId = (
    await alice.post('/api/projects', { title: 'Trade Wars Study', researchArea: 'Other' })
  ).body.data.project.id;
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A multipart/form-data body with text fields and one file part. */
function multipart(
  fields: Record<string, string>,
  file?: { field?: string; name: string; content: Buffer | string; type?: string },
) {
  const boundary = '----econagents-test-boundary';
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'text/plain'}\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function upload(
  token: string,
  fields: Record<string, string>,
  file?: Parameters<typeof multipart>[1],
) {
  const body = multipart(fields, file);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/documents/upload',
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

describe('documents: create and read', () => {
  it('starts with no documents (no samples)', async () => {
    const res = await alice.get('/api/documents');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ documents: [], total: 0, categoryCounts: {} });
  });

  it('saves a Markdown document and returns its fields and the content', async () => {
    const content = '# Data dictionary\n\n| var | meaning |\n|---|---|\n| gdp | output |\n';
    const res = await alice.post('/api/documents', {
      name: 'GDP dictionary',
      category: 'data_dictionary',
      content,
      projectId,
    });
    expect(res.status).toBe(201);
    const d = res.body.data.document;
    expect(d).toMatchObject({
      name: 'GDP dictionary',
      category: 'data_dictionary',
      format: 'md',
      size: Buffer.byteLength(content),
      validated: false,
      reproducible: false,
      project: 'Trade Wars Study',
      projectId,
      sessionId: null,
      origin: 'editor',
      canEdit: true,
      content,
    });
    expect(Date.parse(d.created)).not.toBeNaN();
    const got = await alice.get(`/api/documents/${d.id}`);
    expect(got.body.data.document).toEqual(d);
  });

  it('validates with a 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ category: 'research_report', content: 'x' }, 'name'],
      [{ name: 'x', category: 'poetry', content: 'x' }, 'category'],
      [{ name: 'x', category: 'research_report', format: 'docx', content: 'x' }, 'format'],
      [{ name: 'x', category: 'research_report' }, 'content'],
      [{ name: 'x', category: 'research_report', content: 'x', projectId: 'nope' }, 'projectId'],
      [{ name: 'x', category: 'research_report', format: 'json', content: '{oops' }, 'JSON'],
    ];
    for (const [payload, field] of cases) {
      const res = await alice.post('/api/documents', payload);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.error).toContain(field);
    }
  });

  it('refuses content over the 2 MB limit (413) and viewer accounts (403)', async () => {
    const big = await alice.post('/api/documents', {
      name: 'big',
      category: 'research_report',
      content: 'x'.repeat(2 * 1024 * 1024 + 1),
    });
    expect([400, 413]).toContain(big.status);
    expect(big.body.error).toContain('content');
    const v = await viewer.post('/api/documents', {
      name: 'v',
      category: 'research_report',
      content: 'x',
    });
    expect(v.status).toBe(403);
  });

  it('refuses attaching to a project the caller cannot edit', async () => {
    const res = await bob.post('/api/documents', {
      name: 'x',
      category: 'research_report',
      content: 'x',
      projectId,
    });
    expect(res.status).toBe(404);
  });
});

describe('documents: upload', () => {
  it('accepts a .bib file, sanitises its name and stores the text', async () => {
    const bib = '@article{smith2020, title={Trade}, year={2020}}\n';
    const res = await upload(
      aliceUser.accessToken,
      { category: 'literature_review', projectId },
      { name: '../../etc/<refs>.bib', content: bib },
    );
    expect(res.status).toBe(201);
    expect(res.body.data.document).toMatchObject({
      name: '_refs_.bib',
      format: 'bib',
      category: 'literature_review',
      origin: 'upload',
      project: 'Trade Wars Study',
      size: Buffer.byteLength(bib),
      content: bib,
    });
  });

  it('uses a given name and the default category', async () => {
    const res = await upload(
      aliceUser.accessToken,
      { name: 'Survey codebook' },
      { name: 'codebook.csv', content: 'var,label\nage,Age in years\n' },
    );
    expect(res.status).toBe(201);
    expect(res.body.data.document).toMatchObject({
      name: 'Survey codebook',
      format: 'csv',
      category: 'research_report',
    });
  });

  it('refuses other extensions, binary content, bad JSON, missing files and bad fields', async () => {
    const exe = await upload(aliceUser.accessToken, {}, { name: 'run.exe', content: 'MZ' });
    expect(exe.status).toBe(400);
    expect(exe.body.error).toContain('.md .txt .json .csv .tex .bib .pdf');
    const pdf = await upload(aliceUser.accessToken, {}, { name: 'paper.pdf', content: '%PDF' });
    expect(pdf.status).toBe(400);
    expect(pdf.body.error).toContain('not a PDF');
    const binary = await upload(
      aliceUser.accessToken,
      {},
      { name: 'notes.txt', content: Buffer.from([0xff, 0xfe, 0x00, 0x41]) },
    );
    expect(binary.status).toBe(400);
    expect(binary.body.error).toContain('file');
    const json = await upload(aliceUser.accessToken, {}, { name: 'a.json', content: '{nope' });
    expect(json.status).toBe(400);
    expect(json.body.error).toContain('JSON');
    const none = await upload(aliceUser.accessToken, { category: 'research_report' });
    expect(none.status).toBe(400);
    expect(none.body.error).toContain('file');
    const badCategory = await upload(
      aliceUser.accessToken,
      { category: 'poetry' },
      { name: 'a.md', content: '# a' },
    );
    expect(badCategory.status).toBe(400);
    expect(badCategory.body.error).toContain('category');
    const notMultipart = await alice.post('/api/documents/upload', { file: 'x' });
    expect(notMultipart.status).toBe(400);
  });

  it('refuses files over the upload limit with 413', async () => {
    const res = await upload(
      aliceUser.accessToken,
      {},
      { name: 'big.txt', content: 'a'.repeat(UPLOAD_LIMIT + 10) },
    );
    expect(res.status).toBe(413);
    expect(res.body.success).toBe(false);
  });

  it('refuses uploads by viewer accounts', async () => {
    const v = await createUser(t.app, { role: 'viewer' });
    const res = await upload(v.accessToken, {}, { name: 'a.md', content: '# a' });
    expect(res.status).toBe(403);
  });
});

describe('documents: PDF upload', () => {
  const PAPER = makePdf({
    title: 'Border discontinuities',
    pages: [
      ['Minimum wages and teen employment', 'We compare contiguous county pairs.'],
      ['The employment elasticity is close to zero.'],
    ],
  });
  const asPdf = (name: string, content: Buffer | Uint8Array) => ({
    name,
    content: Buffer.from(content),
    type: 'application/pdf',
  });

  it('keeps the PDF, extracts its text for the viewer and for search, and hands it back', async () => {
    const res = await upload(
      aliceUser.accessToken,
      { category: 'literature_review', projectId },
      asPdf('Card & Krueger (1994).pdf', PAPER),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const d = res.body.data.document;
    expect(d).toMatchObject({
      name: 'Card _ Krueger (1994).pdf',
      format: 'pdf',
      category: 'literature_review',
      origin: 'upload',
      size: PAPER.length,
    });
    expect(d.content).toContain('We compare contiguous county pairs.');
    expect(d.content).toContain('The employment elasticity is close to zero.');
    const read = await alice.get(`/api/documents/${d.id}`);
    expect(read.body.data.document.content).toBe(d.content);

    // Found by what it says, not only by its name.
    const found = await alice.get('/api/documents?search=contiguous%20county');
    expect(found.body.data.documents.map((x: { id: string }) => x.id)).toEqual([d.id]);
    // A project member finds it too; a stranger does not.
    const members = await bob.get('/api/documents?search=elasticity');
    expect(members.body.data.documents).toHaveLength(0);

    const file = await t.app.inject({
      method: 'GET',
      url: `/api/documents/${d.id}/download`,
      headers: bearer(aliceUser.accessToken),
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toContain('filename="Card _ Krueger (1994).pdf"');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(file.rawPayload, Buffer.from(PAPER))).toBe(0);

    // The text comes from the file: it cannot be edited on its own; the metadata can.
    const edit = await alice.put(`/api/documents/${d.id}`, { content: 'made up' });
    expect(edit.status).toBe(400);
    expect(edit.body.error).toContain('upload the changed PDF');
    const flags = await alice.put(`/api/documents/${d.id}`, { validated: true });
    expect(flags.status).toBe(200);
    expect(flags.body.data.document.content).toBe(d.content);
  });

  it('refuses a file that is not a PDF by its content, whatever its name', async () => {
    const before = (await alice.get('/api/documents')).body.data.total;
    const cases: Array<[string, Buffer, RegExp]> = [
      ['fake.pdf', Buffer.from('# Just Markdown, renamed\n'), /not a PDF/],
      ['setup.pdf', Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), /not a PDF/],
      [
        'broken.pdf',
        Buffer.from('%PDF-1.7\nnot really a PDF at all\n%%EOF\n'),
        /could not be read/,
      ],
    ];
    for (const [name, content, message] of cases) {
      const res = await upload(aliceUser.accessToken, {}, asPdf(name, content));
      expect(res.status, name).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error, name).toMatch(message);
    }
    // A PDF under a text name is not text either.
    const renamed = await upload(aliceUser.accessToken, {}, asPdf('paper.txt', PAPER));
    expect(renamed.status).toBe(400);
    expect(renamed.body.error).toContain('this is a PDF');
    expect((await alice.get('/api/documents')).body.data.total).toBe(before);
  });

  it('refuses viewer accounts and read-only projects before reading the file', async () => {
    const v = await createUser(t.app, { role: 'viewer' });
    const res = await upload(v.accessToken, {}, asPdf('a.pdf', PAPER));
    expect(res.status).toBe(403);
    const foreign = await upload(bobUser.accessToken, { projectId }, asPdf('b.pdf', PAPER));
    expect(foreign.status).toBe(404);
  });

  it('makes PDFs only from uploaded files', async () => {
    const res = await alice.post('/api/documents', {
      name: 'x',
      category: 'research_report',
      format: 'pdf',
      content: 'text',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('format');
  });
});

describe('documents: list, search, filter', () => {
  let u: Client;
  let uProject: string;
  beforeAll(async () => {
    const user = await createUser(t.app);
    u = client(t.app, user.accessToken);
    uProject = (await u.post('/api/projects', { title: 'Housing Bubble', researchArea: 'Other' }))
      .body.data.project.id;
    const add = async (name: string, category: string, project?: string) => {
      const r = await u.post('/api/documents', {
        name,
        category,
        content: `content of ${name}`,
        ...(project ? { projectId: project } : {}),
      });
      expect(r.status).toBe(201);
      await sleep(5);
    };
    await add('Codebook', 'data_dictionary', uProject);
    await add('Final report', 'research_report');
    await add('Replication steps', 'reproducibility_guide', uProject);
  });

  const names = (r: { body: { data: { documents: Array<{ name: string }> } } }) =>
    r.body.data.documents.map((d) => d.name);

  it('lists newest first without content, with per-category counts', async () => {
    const r = await u.get('/api/documents');
    expect(names(r)).toEqual(['Replication steps', 'Final report', 'Codebook']);
    expect(r.body.data.documents[0].content).toBeUndefined();
    expect(r.body.data.categoryCounts).toEqual({
      data_dictionary: 1,
      research_report: 1,
      reproducibility_guide: 1,
    });
  });

  it('searches over document name and project title', async () => {
    expect(names(await u.get('/api/documents?search=final'))).toEqual(['Final report']);
    expect(names(await u.get('/api/documents?search=housing'))).toEqual([
      'Replication steps',
      'Codebook',
    ]);
  });

  it('filters by category and project', async () => {
    const cat = await u.get('/api/documents?category=data_dictionary');
    expect(names(cat)).toEqual(['Codebook']);
    expect(cat.body.data.categoryCounts.research_report).toBe(1);
    expect(names(await u.get(`/api/documents?projectId=${uProject}`))).toEqual([
      'Replication steps',
      'Codebook',
    ]);
    expect((await u.get('/api/documents?category=poetry')).status).toBe(400);
    expect(names(await u.get('/api/documents?category=all&limit=1&offset=2'))).toEqual([
      'Codebook',
    ]);
  });

  it('filters by several categories at once, paged and counted on the server', async () => {
    const group = await u.get(
      '/api/documents?category=reproducibility_guide,%20data_dictionary&limit=1&offset=1',
    );
    expect(group.status).toBe(200);
    expect(names(group)).toEqual(['Codebook']);
    expect(group.body.data.total).toBe(2);
    const bad = await u.get('/api/documents?category=data_dictionary,poetry');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('category');
    expect((await u.get('/api/documents?category=data_dictionary,')).status).toBe(400);
  });
});

describe('documents: access, update, delete, download', () => {
  it('hides documents from others (404) and shares project documents with members', async () => {
    const d = (
      await alice.post('/api/documents', {
        name: 'Shared notes',
        category: 'research_report',
        content: 'notes',
        projectId,
      })
    ).body.data.document;
    const own = (
      await alice.post('/api/documents', {
        name: 'Private',
        category: 'research_report',
        content: 'p',
      })
    ).body.data.document;
    expect((await bob.get(`/api/documents/${d.id}`)).status).toBe(404);
    expect((await bob.del(`/api/documents/${d.id}`)).status).toBe(404);
    await alice.post(`/api/projects/${projectId}/members`, {
      email: bobUser.email,
      role: 'viewer',
    });
    const seen = await bob.get(`/api/documents/${d.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.data.document.canEdit).toBe(false);
    expect((await bob.put(`/api/documents/${d.id}`, { validated: true })).status).toBe(403);
    expect((await bob.del(`/api/documents/${d.id}`)).status).toBe(403);
    expect((await bob.get(`/api/documents/${own.id}`)).status).toBe(404);
    expect(
      (await bob.get('/api/documents')).body.data.documents.map((x: { id: string }) => x.id),
    ).not.toContain(own.id);
    // Admins read everything but change nothing of others'.
    expect((await admin.get(`/api/documents/${own.id}`)).status).toBe(200);
    expect((await admin.del(`/api/documents/${own.id}`)).status).toBe(403);
  });

  it('updates flags, name and content; recomputes the size', async () => {
    const d = (
      await alice.post('/api/documents', {
        name: 'Draft',
        category: 'research_report',
        content: 'a',
      })
    ).body.data.document;
    const res = await alice.put(`/api/documents/${d.id}`, {
      name: 'Draft v2',
      validated: true,
      reproducible: true,
      category: 'validation_report',
      content: 'ééé',
      projectId,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.document).toMatchObject({
      name: 'Draft v2',
      validated: true,
      reproducible: true,
      category: 'validation_report',
      content: 'ééé',
      size: 6,
      project: 'Trade Wars Study',
    });
    const detach = await alice.patch(`/api/documents/${d.id}`, { projectId: null });
    expect(detach.body.data.document.project).toBeNull();
    expect((await alice.put(`/api/documents/${d.id}`, {})).status).toBe(400);
  });

  it('downloads the raw file as an attachment', async () => {
    const d = (
      await alice.post('/api/documents', {
        name: 'Résumé "final"',
        category: 'research_report',
        content: '# Hi',
      })
    ).body.data.document;
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/documents/${d.id}/download`,
      headers: bearer(aliceUser.accessToken),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('# Hi');
    expect(res.headers['content-type']).toContain('text/markdown');
    expect(res.headers['content-disposition']).toContain(
      'attachment; filename="R_sum_ _final_.md"',
    );
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''R%C3%A9sum%C3%A9");
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/documents/${d.id}/download`,
      headers: bearer(bobUser.accessToken),
    });
    expect(other.statusCode).toBe(404);
  });

  it('deletes, and keeps documents (without project) when their project is deleted', async () => {
    const p = (await alice.post('/api/projects', { title: 'Temp', researchArea: 'Other' })).body
      .data.project;
    const d = (
      await alice.post('/api/documents', {
        name: 'Keep me',
        category: 'research_report',
        content: 'k',
        projectId: p.id,
      })
    ).body.data.document;
    await alice.del(`/api/projects/${p.id}`);
    const after = await alice.get(`/api/documents/${d.id}`);
    expect(after.status).toBe(200);
    expect(after.body.data.document.project).toBeNull();
    expect((await alice.del(`/api/documents/${d.id}`)).status).toBe(200);
    expect((await alice.get(`/api/documents/${d.id}`)).status).toBe(404);
  });
});

describe('saveSessionDocument', () => {
  it('saves a session artifact that then appears in the owner’s list', async () => {
    const sessionId = '6f1c2a3b-0000-4000-8000-000000000001';
    const saved = await saveSessionDocument(
      { db: t.ctx.db },
      {
        ownerId: aliceUser.id,
        projectId,
        sessionId,
        name: 'Literature review: trade wars',
        category: 'literature_review',
        format: 'md',
        content: '## Findings\n',
      },
    );
    expect(saved).toMatchObject({ origin: 'session', sessionId, project: 'Trade Wars Study' });
    const list = await alice.get('/api/documents?category=literature_review');
    expect(list.body.data.documents.map((d: { id: string }) => d.id)).toContain(saved.id);
    const unknownProject = await saveSessionDocument(
      { db: t.ctx.db },
      {
        ownerId: aliceUser.id,
        projectId: '00000000-0000-4000-8000-000000000000',
        name: 'x',
        category: 'research_report',
        format: 'txt',
        content: 'x',
      },
    );
    expect(unknownProject.projectId).toBeNull();
  });
});

describe('documents: the list in one statement (docs/performance.md, API reads)', () => {
  it('runs one statement per request, whatever the filters', async () => {
    const u = await createUser(t.app);
    const c = client(t.app, u.accessToken);
    expect(
      (
        await c.post('/api/documents', {
          name: 'GDP dictionary',
          category: 'data_dictionary',
          content: 'GDP: gross domestic product',
        })
      ).status,
    ).toBe(201);
    for (const url of [
      '/api/documents',
      '/api/documents?search=gdp&category=data_dictionary,research_report',
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
