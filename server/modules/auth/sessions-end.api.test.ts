import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createTestApp, createUser, login, type TestApp } from '../../../test/app';
import { users } from '../../db/schema';
import { MESSAGES } from './service';

/**
 * Access tokens end with the session they belong to: a password reset or change, signing out,
 * signing out elsewhere, a role change and a suspension refuse every access token issued before,
 * on the next request (not when the token expires). Tokens without an expiry are never accepted.
 */

let t: TestApp;
let adminToken: string;
let adminId: string;
beforeAll(async () => {
  t = await createTestApp();
  const admin = await login(t.app, ADMIN.email, ADMIN.password);
  adminToken = admin.accessToken;
  adminId = admin.userId;
});
afterAll(() => t.close());

const profile = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(token) });

const post = (url: string, payload: Record<string, unknown>, token?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: token ? bearer(token) : {} });

const put = (url: string, payload: Record<string, unknown>, token = adminToken) =>
  t.app.inject({ method: 'PUT', url, payload, headers: bearer(token) });

function expectError(res: { statusCode: number; json(): unknown }, status: number) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  const body = res.json() as { success: boolean; error: string; message: string };
  expect(body.success).toBe(false);
  return body;
}

describe('access tokens issued before the session ended are refused', () => {
  it('a token issued before an admin password reset is refused after it', async () => {
    const user = await createUser(t.app);
    expect((await profile(user.accessToken)).statusCode).toBe(200);
    const reset = await post(
      `/api/auth/users/${user.id}/password`,
      { newPassword: 'the-new-password-1' },
      adminToken,
    );
    expect(reset.statusCode).toBe(200);
    const refused = expectError(await profile(user.accessToken), 401);
    expect(refused.error).toMatch(/no longer valid/);
    // Its refresh token went too; the new password signs in and that token works.
    expectError(await post('/api/auth/refresh', { refreshToken: user.refreshToken }), 401);
    const fresh = await login(t.app, user.email, 'the-new-password-1');
    expect((await profile(fresh.accessToken)).statusCode).toBe(200);
  });

  it('a password change refuses every older token; the kept session refreshes to a working one', async () => {
    const user = await createUser(t.app);
    const other = await login(t.app, user.email, user.password);
    const changed = await post(
      '/api/auth/change-password',
      {
        currentPassword: user.password,
        newPassword: 'changed-password-1',
        refreshToken: user.refreshToken,
      },
      user.accessToken,
    );
    expect(changed.statusCode).toBe(200);
    expectError(await profile(other.accessToken), 401);
    expectError(await profile(user.accessToken), 401);
    // The session that changed the password keeps its refresh token (one refresh, as the web
    // client does on a 401); the other session does not.
    const renewed = await post('/api/auth/refresh', { refreshToken: user.refreshToken });
    expect(renewed.statusCode).toBe(200);
    expect((await profile(renewed.json().data.tokens.accessToken)).statusCode).toBe(200);
    expectError(await post('/api/auth/refresh', { refreshToken: other.refreshToken }), 401);
  });

  it('signing out refuses that session’s access token at once', async () => {
    const user = await createUser(t.app);
    const other = await login(t.app, user.email, user.password);
    const out = await post('/api/auth/logout', { refreshToken: user.refreshToken });
    expect(out.statusCode).toBe(200);
    expectError(await profile(user.accessToken), 401);
    expectError(await post('/api/auth/refresh', { refreshToken: user.refreshToken }), 401);
    // Another device of the same user gets a new access token with its own refresh token.
    expectError(await profile(other.accessToken), 401);
    const renewed = await post('/api/auth/refresh', { refreshToken: other.refreshToken });
    expect(renewed.statusCode).toBe(200);
    expect((await profile(renewed.json().data.tokens.accessToken)).statusCode).toBe(200);
  });

  it('signing out every other session refuses their access tokens at once', async () => {
    const user = await createUser(t.app);
    const other = await login(t.app, user.email, user.password);
    const res = await post(
      '/api/auth/sessions/revoke-others',
      { refreshToken: user.refreshToken },
      user.accessToken,
    );
    expect(res.statusCode).toBe(200);
    expectError(await profile(other.accessToken), 401);
    expectError(await post('/api/auth/refresh', { refreshToken: other.refreshToken }), 401);
  });

  it('reuse of a rotated refresh token ends the access tokens of that user too', async () => {
    const user = await createUser(t.app);
    const first = await post('/api/auth/refresh', { refreshToken: user.refreshToken });
    const current = first.json().data.tokens as { accessToken: string; refreshToken: string };
    expect((await profile(current.accessToken)).statusCode).toBe(200);
    // The old refresh token comes back: someone holds a copy.
    const reused = expectError(
      await post('/api/auth/refresh', { refreshToken: user.refreshToken }),
      401,
    );
    expect(reused.error).toBe(MESSAGES.refreshReused);
    expectError(await profile(current.accessToken), 401);
  });

  it('a role change refuses the tokens issued under the old role', async () => {
    const other = await createUser(t.app, { role: 'admin' });
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/auth/users',
          headers: bearer(other.accessToken),
        })
      ).statusCode,
    ).toBe(200);
    const demoted = await put(`/api/auth/users/${other.id}`, { role: 'researcher' });
    expect(demoted.statusCode).toBe(200);
    expectError(await profile(other.accessToken), 401);
    // A new token (refresh) carries the new role: the admin routes answer 403.
    const renewed = await post('/api/auth/refresh', { refreshToken: other.refreshToken });
    expect(renewed.statusCode).toBe(200);
    const token = renewed.json().data.tokens.accessToken as string;
    expect((await profile(token)).statusCode).toBe(200);
    expectError(
      await t.app.inject({ method: 'GET', url: '/api/auth/users', headers: bearer(token) }),
      403,
    );
    // Saving the same role again ends nothing.
    expect((await put(`/api/auth/users/${other.id}`, { role: 'researcher' })).statusCode).toBe(200);
    expect((await profile(token)).statusCode).toBe(200);
  });

  it('refuses a correctly signed token without an expiry', async () => {
    const user = await createUser(t.app);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
    const claims = { purpose: 'access', ver: row!.tokenVersion };
    const build = () =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.id)
        .setIssuer('econagents');
    const withExp = await build()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 300)
      .sign(t.ctx.secrets.jwtSecret);
    expect((await profile(withExp)).statusCode).toBe(200);
    const noExp = await build().sign(t.ctx.secrets.jwtSecret);
    expectError(await profile(noExp), 401);
    // And a token without the version claim (issued before versions existed, or forged).
    const noVersion = await new SignJWT({ purpose: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('econagents')
      .setExpirationTime(Math.floor(Date.now() / 1000) + 300)
      .sign(t.ctx.secrets.jwtSecret);
    expectError(await profile(noVersion), 401);
  });
});

describe('PUT /api/auth/users/:id/suspension', () => {
  const suspend = (id: string, suspended: unknown, token = adminToken) =>
    put(`/api/auth/users/${id}/suspension`, { suspended } as Record<string, unknown>, token);

  it('suspending ends every session at once and refuses sign-in; lifting it allows sign-in', async () => {
    const user = await createUser(t.app);
    const res = await suspend(user.id, true);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'User suspended. All of their sessions were signed out.',
      data: { user: { id: user.id, status: 'approved', suspended: true } },
    });
    expectError(await profile(user.accessToken), 401);
    expectError(await post('/api/auth/refresh', { refreshToken: user.refreshToken }), 401);
    const signIn = expectError(
      await post('/api/auth/login', { email: user.email, password: user.password }),
      403,
    );
    expect(signIn.error).toBe(MESSAGES.suspended);
    // The admin list shows it.
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/auth/users?limit=500',
      headers: bearer(adminToken),
    });
    const listed = (list.json().data.users as Array<{ id: string; suspended: boolean }>).find(
      (u) => u.id === user.id,
    );
    expect(listed?.suspended).toBe(true);

    const lifted = await suspend(user.id, false);
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json()).toMatchObject({
      message: 'Suspension lifted. The user can sign in again.',
      data: { user: { suspended: false } },
    });
    const back = await login(t.app, user.email, user.password);
    expect((await profile(back.accessToken)).statusCode).toBe(200);
  });

  it('refuses the caller’s own account, a pending account, an unknown id and non-admins', async () => {
    expect(expectError(await suspend(adminId, true), 400).error).toBe(
      'You cannot suspend your own account',
    );
    const email = `pending-${Date.now()}@uni.example`;
    const reg = await post('/api/auth/register', {
      email,
      password: 'pending-password',
      displayName: 'Pending',
    });
    expect(reg.statusCode).toBe(201);
    const [pending] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    expect(expectError(await suspend(pending!.id, true), 409).error).toBe(
      'Only approved accounts can be suspended; this user is pending',
    );
    expectError(await suspend('00000000-0000-4000-8000-000000000000', true), 404);
    expectError(await suspend(adminId, 'yes'), 400);
    const researcher = await createUser(t.app);
    expectError(await suspend(researcher.id, true, researcher.accessToken), 403);
  });
});
