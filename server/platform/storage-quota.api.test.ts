import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, type TestApp } from '../../test/app';
import { createDatasetRecord } from '../modules/datasets/service';
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
