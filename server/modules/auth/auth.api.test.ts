import { and, desc, eq } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createTestApp, createUser, login, type TestApp } from '../../../test/app';
import { emailOutbox, refreshTokens, users } from '../../db/schema';
import { MESSAGES } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });

let counter = 0;
const uniqueEmail = () => `person-${Date.now()}-${++counter}@uni.example`;

async function register(over: Record<string, unknown> = {}) {
  const body = {
    email: uniqueEmail(),
    password: 'correct horse',
    displayName: 'Ada Lovelace',
    reason: 'Macro research',
    ...over,
  };
  return { body, res: await post('/api/auth/register', body) };
}

/** The newest e-mail in the outbox for this address. */
async function mailTo(email: string) {
  const [row] = await t.ctx.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.to, email))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(1);
  return row;
}

async function userRow(email: string) {
  const [row] = await t.ctx.db.select().from(users).where(eq(users.email, email));
  return row;
}

function expectError(res: { statusCode: number; json(): unknown }, status: number) {
  expect(res.statusCode).toBe(status);
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['error', 'message', 'success']);
  expect(body.success).toBe(false);
  expect(typeof body.error).toBe('string');
  return body as { success: false; error: string; message: string };
}

describe('POST /api/auth/register', () => {
  it('creates a pending researcher with a trimmed, lower-cased email', async () => {
    const email = uniqueEmail();
    const { res } = await register({
      email: `  ${email.toUpperCase()}  `,
      displayName: '  Ada Lovelace  ',
      reason: '  I study business cycles  ',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, message: MESSAGES.registered });
    const row = await userRow(email);
    expect(row).toMatchObject({
      email,
      displayName: 'Ada Lovelace',
      reason: 'I study business cycles',
      role: 'researcher',
      status: 'pending',
    });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(res.body).not.toContain('argon2');
  });

  it('refuses an email that is taken, whatever its case, and keeps one row', async () => {
    const { body } = await register();
    const again = await post('/api/auth/register', {
      ...body,
      email: ` ${body.email.toUpperCase()}`,
      displayName: 'Someone Else',
    });
    expect(expectError(again, 409).error).toBe(MESSAGES.emailTaken);
    const rows = await t.ctx.db.select().from(users).where(eq(users.email, body.email));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.displayName).toBe('Ada Lovelace');
  });

  it('registers once when the same email is sent twice at the same moment', async () => {
    const email = uniqueEmail();
    const results = await Promise.all([register({ email }), register({ email })]);
    expect(results.map((r) => r.res.statusCode).sort()).toEqual([201, 409]);
    expect(await t.ctx.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
  });

  it('refuses the admin address in another case', async () => {
    const { res } = await register({ email: ADMIN.email.toUpperCase() });
    expectError(res, 409);
  });

  it('accepts passwords of 8 and 128 characters and refuses 7 and 129', async () => {
    expect((await register({ password: 'x'.repeat(8) })).res.statusCode).toBe(201);
    expect((await register({ password: 'x'.repeat(128) })).res.statusCode).toBe(201);
    const short = expectError((await register({ password: 'x'.repeat(7) })).res, 400);
    expect(short.error).toContain('password must be at least 8 characters');
    const long = expectError((await register({ password: 'x'.repeat(129) })).res, 400);
    expect(long.error).toContain('password must be at most 128 characters');
  });

  it('requires a display name of at most 100 characters', async () => {
    expect(expectError((await register({ displayName: undefined })).res, 400).error).toContain(
      'displayName is required',
    );
    expect(expectError((await register({ displayName: '   ' })).res, 400).error).toContain(
      'displayName is required',
    );
    expect(
      expectError((await register({ displayName: 'n'.repeat(101) })).res, 400).error,
    ).toContain('displayName must be at most 100 characters');
    const ok = await register({ displayName: 'n'.repeat(100) });
    expect(ok.res.statusCode).toBe(201);
  });

  it('treats the reason as optional, at most 2000 characters', async () => {
    const none = await register({ reason: undefined });
    expect(none.res.statusCode).toBe(201);
    expect((await userRow(none.body.email))!.reason).toBeNull();
    const empty = await register({ reason: '   ' });
    expect(empty.res.statusCode).toBe(201);
    expect((await userRow(empty.body.email))!.reason).toBeNull();
    const nul = await register({ reason: null });
    expect(nul.res.statusCode).toBe(201);
    expect((await register({ reason: 'r'.repeat(2000) })).res.statusCode).toBe(201);
    expect(expectError((await register({ reason: 'r'.repeat(2001) })).res, 400).error).toContain(
      'reason must be at most 2000 characters',
    );
  });

  it('validates the email and names the field', async () => {
    for (const email of ['not-an-email', 'a@', '@b.example', '']) {
      const body = expectError((await register({ email })).res, 400);
      expect(body.error).toContain('email');
    }
    expect(expectError((await register({ email: undefined })).res, 400).error).toContain(
      'email is required',
    );
  });

  it('never lets a registration choose its role or status', async () => {
    const { body, res } = await register({ role: 'admin', status: 'approved' });
    expect(res.statusCode).toBe(201);
    expect(await userRow(body.email)).toMatchObject({ role: 'researcher', status: 'pending' });
  });
});

describe('POST /api/auth/login', () => {
  it('signs in an approved user with tokens and the user', async () => {
    const res = await post('/api/auth/login', {
      email: `  ${ADMIN.email.toUpperCase()} `,
      password: ADMIN.password,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      message: MESSAGES.loggedIn,
      data: {
        tokens: { accessToken: expect.any(String), refreshToken: expect.any(String) },
        user: {
          email: ADMIN.email,
          role: 'admin',
          status: 'approved',
          displayName: 'Administrator',
        },
      },
    });
    expect(Object.keys(body.data.user).sort()).toEqual([
      'displayName',
      'email',
      'id',
      'role',
      'status',
    ]);
    // A short-lived JWT for this user (15 minutes by default).
    const claims = decodeJwt(body.data.tokens.accessToken);
    expect(claims.sub).toBe(body.data.user.id);
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(res.body).not.toContain('argon2');
  });

  it('gives unknown email and wrong password the same 401', async () => {
    const unknown = await post('/api/auth/login', {
      email: 'nobody@nowhere.example',
      password: 'whatever-1',
    });
    const wrong = await post('/api/auth/login', { email: ADMIN.email, password: 'wrong-password' });
    expect(expectError(unknown, 401)).toEqual(expectError(wrong, 401));
    expect(unknown.json().error).toBe(MESSAGES.invalidCredentials);
  });

  it('refuses a pending account with 403, says why, and gives no tokens', async () => {
    const { body } = await register();
    const res = await post('/api/auth/login', { email: body.email, password: body.password });
    const err = expectError(res, 403);
    expect(err.error).toBe(MESSAGES.pending);
    expect(res.body).not.toContain('Token');
    // A wrong password for a pending account is still just "invalid credentials".
    expectError(await post('/api/auth/login', { email: body.email, password: 'nope-nope' }), 401);
  });

  it('refuses a rejected account with 403 and its own message', async () => {
    const { body } = await register();
    const admin = await login(t.app, ADMIN.email, ADMIN.password);
    const id = (await userRow(body.email))!.id;
    const decided = await t.app.inject({
      method: 'PUT',
      url: `/api/auth/users/${id}/status`,
      headers: bearer(admin.accessToken),
      payload: { status: 'rejected' },
    });
    expect(decided.statusCode).toBe(200);
    const res = await post('/api/auth/login', { email: body.email, password: body.password });
    expect(expectError(res, 403).error).toBe(MESSAGES.rejected);
  });

  it('names missing fields', async () => {
    expect(expectError(await post('/api/auth/login', { email: ADMIN.email }), 400).error).toContain(
      'password is required',
    );
    expect(expectError(await post('/api/auth/login', { password: 'x' }), 400).error).toContain(
      'email is required',
    );
  });
});

describe('POST /api/auth/refresh', () => {
  it('rotates the refresh token on every use', async () => {
    const user = await createUser(t.app);
    const first = await post('/api/auth/refresh', { refreshToken: user.refreshToken });
    expect(first.statusCode).toBe(200);
    const tokens = first.json().data.tokens;
    expect(first.json()).toEqual({ success: true, data: { tokens: expect.any(Object) } });
    expect(tokens.refreshToken).not.toBe(user.refreshToken);
    expect(decodeJwt(tokens.accessToken).sub).toBe(user.id);
    const second = await post('/api/auth/refresh', { refreshToken: tokens.refreshToken });
    expect(second.statusCode).toBe(200);
    expect(second.json().data.tokens.refreshToken).not.toBe(tokens.refreshToken);
    // The new access token works.
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: bearer(second.json().data.tokens.accessToken),
    });
    expect(profile.statusCode).toBe(200);
  });

  it('revokes the whole family when a rotated token comes back, and only that family', async () => {
    const user = await createUser(t.app);
    const otherDevice = await login(t.app, user.email, user.password);
    const rotated = await post('/api/auth/refresh', { refreshToken: user.refreshToken });
    const current = rotated.json().data.tokens.refreshToken as string;

    const reuse = await post('/api/auth/refresh', { refreshToken: user.refreshToken });
    expect(expectError(reuse, 401).error).toBe(MESSAGES.refreshReused);
    // The token the legitimate holder got from the rotation is gone too.
    expect(expectError(await post('/api/auth/refresh', { refreshToken: current }), 401).error).toBe(
      MESSAGES.refreshInvalid,
    );
    // Another sign-in of the same user is a different family and still works.
    expect(
      (await post('/api/auth/refresh', { refreshToken: otherDevice.refreshToken })).statusCode,
    ).toBe(200);
  });

  it('lets exactly one of two concurrent refreshes with the same token win', async () => {
    const user = await createUser(t.app);
    const results = await Promise.all([
      post('/api/auth/refresh', { refreshToken: user.refreshToken }),
      post('/api/auth/refresh', { refreshToken: user.refreshToken }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('refuses unknown, expired and empty tokens', async () => {
    expect(
      expectError(await post('/api/auth/refresh', { refreshToken: 'made-up' }), 401).error,
    ).toBe(MESSAGES.refreshInvalid);
    expect(expectError(await post('/api/auth/refresh', {}), 400).error).toContain(
      'refreshToken is required',
    );
    const user = await createUser(t.app);
    await t.ctx.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.userId, user.id));
    expect(
      expectError(await post('/api/auth/refresh', { refreshToken: user.refreshToken }), 401).error,
    ).toBe(MESSAGES.refreshInvalid);
  });

  it('refuses a user who is no longer approved and ends the family', async () => {
    const user = await createUser(t.app);
    await t.ctx.db.update(users).set({ status: 'rejected' }).where(eq(users.id, user.id));
    expectError(await post('/api/auth/refresh', { refreshToken: user.refreshToken }), 401);
    const live = await t.ctx.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, user.id)));
    expect(live.every((r) => r.revokedAt !== null)).toBe(true);
    // The access token still in the browser stops working at once, not only at the next refresh.
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: bearer(user.accessToken),
    });
    expectError(profile, 401);
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the refresh token and leaves other sessions alone', async () => {
    const user = await createUser(t.app);
    const other = await login(t.app, user.email, user.password);
    const res = await post('/api/auth/logout', { refreshToken: user.refreshToken });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Signed out' });
    expectError(await post('/api/auth/refresh', { refreshToken: user.refreshToken }), 401);
    expect((await post('/api/auth/refresh', { refreshToken: other.refreshToken })).statusCode).toBe(
      200,
    );
  });

  it('succeeds for an unknown token (sign-out never fails) and validates the body', async () => {
    expect((await post('/api/auth/logout', { refreshToken: 'unknown' })).statusCode).toBe(200);
    expectError(await post('/api/auth/logout', {}), 400);
  });
});

describe('GET /api/auth/profile', () => {
  it('returns the signed-in user without a password hash', async () => {
    const user = await createUser(t.app, { displayName: 'Grace Hopper' });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: bearer(user.accessToken),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        user: {
          id: user.id,
          email: user.email,
          displayName: 'Grace Hopper',
          role: 'researcher',
          status: 'approved',
          reason: null,
          suspended: false,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      },
    });
    expect(res.body).not.toMatch(/argon2|passwordHash/);
  });

  it('refuses missing, malformed, expired, foreign and wrong-purpose tokens', async () => {
    const user = await createUser(t.app);
    const get = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/api/auth/profile', headers });
    expect(expectError(await get({}), 401).error).toBe('Authentication required');
    expectError(await get(bearer('not.a.jwt')), 401);
    expectError(await get({ authorization: `Basic ${user.accessToken}` }), 401);
    const expired = await t.ctx.signer.sign({ sub: user.id, purpose: 'access' }, -60);
    expectError(await get(bearer(expired)), 401);
    const download = await t.ctx.signer.sign(
      { sub: user.id, purpose: 'download', scope: '/api/auth/profile' },
      60,
    );
    expectError(await get(bearer(download)), 401);
    const foreign = await new SignJWT({ purpose: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('econagents')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    expectError(await get(bearer(foreign)), 401);
    // alg "none": an unsigned token with the right claims.
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const unsigned = `${b64({ alg: 'none' })}.${b64({
      sub: user.id,
      purpose: 'access',
      iss: 'econagents',
      exp: Math.floor(Date.now() / 1000) + 600,
    })}.`;
    expectError(await get(bearer(unsigned)), 401);
    // A valid token for a user that no longer exists.
    const ghost = await t.ctx.signer.sign(
      { sub: '00000000-0000-4000-8000-000000000000', purpose: 'access' },
      60,
    );
    expectError(await get(bearer(ghost)), 401);
  });
});

describe('POST /api/auth/change-password and /api/auth/sessions/revoke-others', () => {
  it('changes the password, keeps the current session and signs out the others', async () => {
    const user = await createUser(t.app);
    const other = await login(t.app, user.email, user.password);
    const wrong = await post(
      '/api/auth/change-password',
      { currentPassword: 'not-it-at-all', newPassword: 'a-new-password' },
      bearer(user.accessToken),
    );
    expect(expectError(wrong, 400).error).toContain('currentPassword');
    const short = await post(
      '/api/auth/change-password',
      { currentPassword: user.password, newPassword: 'short' },
      bearer(user.accessToken),
    );
    expect(expectError(short, 400).error).toContain('at least 8');
    const res = await post(
      '/api/auth/change-password',
      {
        currentPassword: user.password,
        newPassword: 'a-new-password',
        refreshToken: user.refreshToken,
      },
      bearer(user.accessToken),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Password changed. 1 other session signed out.');
    expectError(await post('/api/auth/refresh', { refreshToken: other.refreshToken }), 401);
    expect((await post('/api/auth/refresh', { refreshToken: user.refreshToken })).statusCode).toBe(
      200,
    );
    expectError(await post('/api/auth/login', { email: user.email, password: user.password }), 401);
    await login(t.app, user.email, 'a-new-password');
    const mail = await mailTo(user.email);
    expect(mail?.subject).toBe('Your EconAgents password was changed');
    expect(mail?.text).toContain('your other sessions were signed out');
    expect(mail?.text).not.toContain('a-new-password');
  });

  it('signs out of every other session', async () => {
    const user = await createUser(t.app);
    const a = await login(t.app, user.email, user.password);
    const b = await login(t.app, user.email, user.password);
    const res = await post(
      '/api/auth/sessions/revoke-others',
      { refreshToken: user.refreshToken },
      bearer(user.accessToken),
    );
    expect(res.json().message).toBe('Signed out of 2 other sessions.');
    for (const s of [a, b]) {
      expectError(await post('/api/auth/refresh', { refreshToken: s.refreshToken }), 401);
    }
    expect((await post('/api/auth/refresh', { refreshToken: user.refreshToken })).statusCode).toBe(
      200,
    );
  });
});

describe('POST /api/auth/users/{id}/password (an administrator sets a lost password)', () => {
  it('sets the password and ends every session of that user', async () => {
    const admin = await login(t.app, ADMIN.email, ADMIN.password);
    const user = await createUser(t.app);
    const other = await login(t.app, user.email, user.password);
    const res = await post(
      `/api/auth/users/${user.userId}/password`,
      { newPassword: 'handed-over-in-person' },
      bearer(admin.accessToken),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(
      'New password set. 2 of their sessions were signed out. Give them the password in person or by phone.',
    );
    for (const s of [user, other]) {
      expectError(await post('/api/auth/refresh', { refreshToken: s.refreshToken }), 401);
    }
    expectError(await post('/api/auth/login', { email: user.email, password: user.password }), 401);
    await login(t.app, user.email, 'handed-over-in-person');
    const mail = await mailTo(user.email);
    expect(mail?.subject).toBe('Your EconAgents password was changed');
    expect(mail?.text).toContain('An administrator set a new password');
    expect(mail?.text).not.toContain('handed-over-in-person');
    // The administrator's own session is untouched.
    expect((await post('/api/auth/refresh', { refreshToken: admin.refreshToken })).statusCode).toBe(
      200,
    );
  });

  it('refuses non-admins, weak passwords, unknown users and the caller themselves', async () => {
    const admin = await login(t.app, ADMIN.email, ADMIN.password);
    const user = await createUser(t.app);
    const victim = await createUser(t.app);
    const url = `/api/auth/users/${victim.userId}/password`;
    expectError(await post(url, { newPassword: 'long-enough-1' }), 401);
    expectError(await post(url, { newPassword: 'long-enough-1' }, bearer(user.accessToken)), 403);
    expect(
      expectError(await post(url, { newPassword: 'short' }, bearer(admin.accessToken)), 400).error,
    ).toContain('at least 8');
    expectError(
      await post(
        '/api/auth/users/00000000-0000-4000-8000-000000000000/password',
        { newPassword: 'long-enough-1' },
        bearer(admin.accessToken),
      ),
      404,
    );
    const own = await post(
      `/api/auth/users/${admin.userId}/password`,
      { newPassword: 'long-enough-1' },
      bearer(admin.accessToken),
    );
    expect(expectError(own, 400).error).toBe('Change your own password under Settings > Security.');
    // Nothing changed for the victim.
    await login(t.app, victim.email, victim.password);
  });
});
