import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/app';
import { createDatasetRecord } from '../modules/datasets/service';
import { saveSessionDocument } from '../modules/documents/service';
import { AppError } from './errors';
import { storageUsed } from './storage-quota';

/**
 * Each user's documents and datasets fit in STORAGE_QUOTA_BYTES: a write that would go over it
 * answers 413 with a message saying how much is used and allowed; deleting frees space; other
 * users are not affected; session code storing a dataset meets the same quota.
 */

const QUOTA = 18_000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ STORAGE_QUOTA_BYTES: String(QUOTA) });
});
afterAll(() => t.close());

const describe5k = (tag: string) => `${tag} ${'x'.repeat(4_900)}`;

function dataset(token: string, description: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/datasets',
    headers: bearer(token),
    payload: { name: 'Wages', source: 'custom', dataType: 'panel', description },
  });
}

function expect413(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBe(413);
  const body = res.json() as { success: boolean; error: string };
  expect(body.success).toBe(false);
  expect(body.error).toMatch(
    /^Storage quota exceeded: you use [\d.]+ KB of your 17\.6 KB for documents and datasets, and this needs [\d.]+ KB more\. Delete documents or datasets you no longer need, or ask an administrator for more space\.$/,
  );
  return body;
}

describe('storage quota for datasets', () => {
  it('refuses the dataset that would go over, until space is freed; others are not affected', async () => {
    const user = await createUser(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await dataset(user.accessToken, describe5k(`set ${i}`));
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().data.dataset.id);
    }
    expect(await storageUsed(t.ctx.db, user.id)).toBeGreaterThan(14_800);
    expect413(await dataset(user.accessToken, describe5k('one too many')));

    // Another user has a quota of their own.
    const other = await createUser(t.app);
    expect((await dataset(other.accessToken, describe5k('other'))).statusCode).toBe(201);

    // Shrinking an entry is always allowed and frees space; growing one counts.
    const edit = (id: string, description: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/datasets/${id}`,
        headers: bearer(user.accessToken),
        payload: { description },
      });
    expect((await edit(ids[0]!, 'short now')).statusCode).toBe(200);
    expect((await dataset(user.accessToken, describe5k('in the freed space'))).statusCode).toBe(
      201,
    );
    expect413(await edit(ids[0]!, describe5k('grown again')));

    // Freed space can be used again.
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/datasets/${ids[1]}`,
      headers: bearer(user.accessToken),
    });
    expect(del.statusCode).toBe(200);
    expect((await dataset(user.accessToken, describe5k('fits again'))).statusCode).toBe(201);
  });

  it('applies to datasets an agent session registers, counting their stored file', async () => {
    const user = await createUser(t.app);
    const store = (sizeBytes: number) =>
      createDatasetRecord(t.ctx.db, {
        ownerId: user.id,
        name: 'Uploaded CPI',
        source: 'custom',
        dataType: 'time_series',
        originKind: 'upload',
        sizeBytes,
      });
    await expect(store(QUOTA + 1)).rejects.toThrow(AppError);
    await expect(store(QUOTA + 1)).rejects.toMatchObject({ kind: 'too_large' });
    await store(QUOTA - 100);
    expect(await storageUsed(t.ctx.db, user.id)).toBe(QUOTA - 100);
  });
});

/** One text file as multipart/form-data, as the Documentation page uploads it. */
function uploadBody(name: string, content: string) {
  const boundary = '----quota-test-boundary';
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`,
      ),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function upload(app: TestApp['app'], token: string, name: string, content: string) {
  const body = uploadBody(name, content);
  return app.inject({
    method: 'POST',
    url: '/api/documents/upload',
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload,
  });
}

describe('storage quota for documents', () => {
  const createDoc = (token: string, content: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: bearer(token),
      payload: { name: 'Notes', category: 'research_report', format: 'txt', content },
    });

  it('refuses documents created, uploaded or grown over the quota; counts datasets too', async () => {
    const user = await createUser(t.app);
    const first = await createDoc(user.accessToken, 'a'.repeat(8_000));
    expect(first.statusCode, first.body).toBe(201);
    expect((await dataset(user.accessToken, describe5k('and a dataset'))).statusCode).toBe(201);
    // 8,000 + ~5,000 used: another 8,000 does not fit in 18,000, whichever way it comes.
    expect413(await createDoc(user.accessToken, 'b'.repeat(8_000)));
    expect413(await upload(t.app, user.accessToken, 'notes.txt', 'c'.repeat(8_000)));
    // Editing a document to a longer text counts the difference only.
    const id = first.json().data.document.id as string;
    const edit = (content: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/documents/${id}`,
        headers: bearer(user.accessToken),
        payload: { content },
      });
    expect((await edit('a'.repeat(10_000))).statusCode).toBe(200);
    expect413(await edit('a'.repeat(16_000)));
    // A document a session saves for the user meets the same quota.
    await expect(
      saveSessionDocument(
        { db: t.ctx.db },
        {
          ownerId: user.id,
          name: 'Report',
          category: 'research_report',
          format: 'md',
          content: 'r'.repeat(9_000),
        },
      ),
    ).rejects.toMatchObject({ kind: 'too_large' });
    // Deleting frees the space.
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/documents/${id}`,
      headers: bearer(user.accessToken),
    });
    expect(del.statusCode).toBe(200);
    expect((await createDoc(user.accessToken, 'b'.repeat(8_000))).statusCode).toBe(201);
  });
});

describe('large documents', () => {
  it('are streamed from contentUrl instead of being put inside the JSON (quota 0: no limit)', async () => {
    const own = await createTestApp({ STORAGE_QUOTA_BYTES: '0', LOG_LEVEL: 'error' });
    try {
      const user = await createUser(own.app);
      // 3 MB of text in lines, with multi-byte characters across the read pieces.
      const line = 'Mindestlohn und Beschäftigung: € 12,41 je Stunde — 2024\n';
      const text = line.repeat(Math.ceil(3_000_000 / Buffer.byteLength(line)));
      const up = await upload(own.app, user.accessToken, 'large.txt', text);
      expect(up.statusCode, up.body).toBe(201);
      const id = up.json().data.document.id as string;
      expect(up.json().data.document).toMatchObject({
        content: '',
        contentUrl: `/api/documents/${id}/content`,
      });

      const got = await own.app.inject({
        method: 'GET',
        url: `/api/documents/${id}`,
        headers: bearer(user.accessToken),
      });
      expect(got.statusCode).toBe(200);
      expect(got.body.length).toBeLessThan(10_000);
      const streamed = await own.app.inject({
        method: 'GET',
        url: `/api/documents/${id}/content`,
        headers: bearer(user.accessToken),
      });
      expect(streamed.statusCode, streamed.body.slice(0, 300)).toBe(200);
      expect(streamed.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(Number(streamed.headers['content-length'])).toBe(Buffer.byteLength(text));
      expect(streamed.body === text).toBe(true);

      // Someone who may not see the document gets 404 there too.
      const stranger = await createUser(own.app);
      const hidden = await own.app.inject({
        method: 'GET',
        url: `/api/documents/${id}/content`,
        headers: bearer(stranger.accessToken),
      });
      expect(hidden.statusCode).toBe(404);

      // A small document keeps the JSON shape it always had: the text inside, no contentUrl.
      const small = await upload(own.app, user.accessToken, 'small.txt', 'short text');
      expect(small.json().data.document.content).toBe('short text');
      expect(small.json().data.document.contentUrl).toBeUndefined();
    } finally {
      await own.close();
    }
  });
});
