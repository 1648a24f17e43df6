import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  bearer,
  createSiblingApp,
  createTestApp,
  createUser,
  login,
  type TestApp,
} from '../../test/app';
import type { Api } from '../context';
import { postgresOnly, postgresOnlyReason } from '../../test/requirements';

/**
 * Requests take the active user from the process's cache (platform/active-users.ts). A sign-out,
 * a role change and a suspension are still seen by the next request, in this process at once and
 * in every other process as soon as the bus delivers the revocation.
 */

let t: TestApp;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp();
  adminToken = (await login(t.app, ADMIN.email, ADMIN.password)).accessToken;
});

afterAll(async () => {
  await t?.close();
});

const get = (app: Api, token: string, url = '/api/projects') =>
  app.inject({ method: 'GET', url, headers: bearer(token) });

const asAdmin = (method: 'PUT' | 'POST', url: string, payload: Record<string, unknown>) =>
  t.app.inject({ method, url, payload, headers: bearer(adminToken) });

const createProject = (app: Api, token: string) =>
  app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: bearer(token),
    payload: { title: 'Cache check', researchArea: 'Labor' },
  });

describe('in one process', () => {
  it('a sign-out, a role change and a suspension are seen by the next request', async () => {
    const user = await createUser(t.app);
    expect((await get(t.app, user.accessToken)).statusCode).toBe(200);
    expect(t.ctx.activeUsers.has(user.id)).toBe(true);

    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      payload: { refreshToken: user.refreshToken },
    });
    expect(out.statusCode).toBeLessThan(300);
    expect((await get(t.app, user.accessToken)).statusCode).toBe(401);

    // Demoted to viewer: the old token stops, a new one acts as a viewer.
    const again = await login(t.app, user.email, user.password);
    expect((await createProject(t.app, again.accessToken)).statusCode).toBe(201);
    expect(
      (await asAdmin('PUT', `/api/auth/users/${user.id}`, { role: 'viewer' })).statusCode,
    ).toBe(200);
    expect((await get(t.app, again.accessToken)).statusCode).toBe(401);
    const viewer = await login(t.app, user.email, user.password);
    expect((await createProject(t.app, viewer.accessToken)).statusCode).toBe(403);

    // Suspended: refused at once; the suspension lifted, a new sign-in works at once.
    expect((await get(t.app, viewer.accessToken)).statusCode).toBe(200);
    const suspend = await asAdmin('PUT', `/api/auth/users/${user.id}/suspension`, {
      suspended: true,
    });
    expect(suspend.statusCode).toBe(200);
    expect((await get(t.app, viewer.accessToken)).statusCode).toBe(401);
    expect(
      (await asAdmin('PUT', `/api/auth/users/${user.id}/suspension`, { suspended: false }))
        .statusCode,
    ).toBe(200);
    const back = await login(t.app, user.email, user.password);
    expect((await get(t.app, back.accessToken)).statusCode).toBe(200);
  });
});

/** Polls until the request is refused; how long it took after the change was answered (ms). */
async function refusedWithin(app: Api, token: string, limitMs: number): Promise<number> {
  const start = performance.now();
  for (;;) {
    const res = await get(app, token);
    const ms = performance.now() - start;
    if (res.statusCode === 401) return ms;
    expect(res.statusCode).toBe(200);
    if (ms > limitMs) return ms;
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe.skipIf(postgresOnly)(
  `across two instances on one PostgreSQL database${postgresOnlyReason}`,
  () => {
    it('a change made through one instance is seen by the other at once', async () => {
      const sibling = await createSiblingApp(t);
      try {
        const user = await createUser(t.app);
        // The other instance holds the user.
        expect((await get(sibling.app, user.accessToken)).statusCode).toBe(200);
        expect(sibling.ctx.activeUsers.has(user.id)).toBe(true);

        const out = await t.app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          payload: { refreshToken: user.refreshToken },
        });
        expect(out.statusCode).toBeLessThan(300);
        // Well before the cache's time to live (5 s): the revocation came over LISTEN/NOTIFY
        // and the entry holding the old token version was dropped.
        expect(await refusedWithin(sibling.app, user.accessToken, 1000)).toBeLessThan(1000);

        const again = await login(sibling.app, user.email, user.password);
        expect((await createProject(sibling.app, again.accessToken)).statusCode).toBe(201);
        expect(
          (await asAdmin('PUT', `/api/auth/users/${user.id}`, { role: 'viewer' })).statusCode,
        ).toBe(200);
        expect(await refusedWithin(sibling.app, again.accessToken, 1000)).toBeLessThan(1000);
        const viewer = await login(sibling.app, user.email, user.password);
        expect((await createProject(sibling.app, viewer.accessToken)).statusCode).toBe(403);

        expect((await get(sibling.app, viewer.accessToken)).statusCode).toBe(200);
        const suspend = await asAdmin('PUT', `/api/auth/users/${user.id}/suspension`, {
          suspended: true,
        });
        expect(suspend.statusCode).toBe(200);
        expect(await refusedWithin(sibling.app, viewer.accessToken, 1000)).toBeLessThan(1000);

        // And the other way round: a change on the sibling reaches the first instance.
        const other = await createUser(t.app);
        expect((await get(t.app, other.accessToken)).statusCode).toBe(200);
        expect(t.ctx.activeUsers.has(other.id)).toBe(true);
        await sibling.app.inject({
          method: 'POST',
          url: '/api/auth/logout',
          payload: { refreshToken: other.refreshToken },
        });
        expect(await refusedWithin(t.app, other.accessToken, 1000)).toBeLessThan(1000);
      } finally {
        await sibling.close();
      }
    });
  },
);
