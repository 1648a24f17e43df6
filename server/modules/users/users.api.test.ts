import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, createTestApp, createUser, login, type TestApp } from '../../../test/app';
import { emailOutbox, users } from '../../db/schema';
import { createTestDatabase } from '../../../test/db';
import { createUsersStore } from './store';

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://econagents.example/' });
  adminToken = (await login(t.app, ADMIN.email, ADMIN.password)).accessToken;
});
afterAll(() => t.close());

let counter = 0;
async function registerPending(displayName = 'Pending Person') {
  const email = `pending-${Date.now()}-${++counter}@uni.example`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password: 'pending-password', displayName, reason: 'Labour economics' },
  });
  expect(res.statusCode).toBe(201);
  const [row] = await t.ctx.db.select().from(users).where(eq(users.email, email));
  return { id: row!.id, email, password: 'pending-password' };
}

const setStatus = (id: string, status: unknown, token = adminToken) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/auth/users/${id}/status`,
    headers: bearer(token),
    payload: { status },
  });

const update = (id: string, payload: Record<string, unknown>, token = adminToken) =>
  t.app.inject({ method: 'PUT', url: `/api/auth/users/${id}`, headers: bearer(token), payload });

function expectError(res: { statusCode: number; json(): unknown }, status: number) {
  expect(res.statusCode).toBe(status);
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['error', 'message', 'success']);
  expect(body.success).toBe(false);
  return body as { error: string; message: string };
}

async function outboxFor(email: string) {
  return t.ctx.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.to, email))
    .orderBy(desc(emailOutbox.createdAt));
}

describe('GET /api/auth/users', () => {
  it('lists every user, newest first, without password hashes', async () => {
    const pending = await registerPending('Listed Person');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/users',
      headers: bearer(adminToken),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.users[0]).toEqual({
      id: pending.id,
      email: pending.email,
      displayName: 'Listed Person',
      role: 'researcher',
      status: 'pending',
      reason: 'Labour economics',
      suspended: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(body.data.users.some((u: { email: string }) => u.email === ADMIN.email)).toBe(true);
    expect(body.data.total).toBe(body.data.users.length);
    expect(res.body).not.toMatch(/argon2|passwordHash|password_hash/);
  });

  it('pages with limit and offset and validates them', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/api/auth/users?limit=1&offset=1',
      headers: bearer(adminToken),
    });
    expect(page.json().data.users).toHaveLength(1);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/auth/users?limit=0',
      headers: bearer(adminToken),
    });
    expect(expectError(bad, 400).error).toContain('limit');
  });

  it('is for admins only', async () => {
    const researcher = await createUser(t.app);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/users',
      headers: bearer(researcher.accessToken),
    });
    expect(expectError(res, 403).error).toBe('Admin privileges required');
    expectError(await t.app.inject({ method: 'GET', url: '/api/auth/users' }), 401);
  });
});

describe('PUT /api/auth/users/:id/status', () => {
  it('approves a pending user, sends the approval e-mail, and the user can sign in', async () => {
    const p = await registerPending('Joan Robinson');
    const res = await setStatus(p.id, 'approved');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'User approved successfully',
      data: { user: { id: p.id, status: 'approved' } },
    });
    const mails = await outboxFor(p.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      to: p.email,
      subject: 'Your EconAgents account has been approved',
      status: 'stored',
    });
    expect(mails[0]!.text).toContain('Hello Joan Robinson');
    expect(mails[0]!.text).toMatch(/sign in/i);
    expect(mails[0]!.text).toContain('https://econagents.example/login');
    await login(t.app, p.email, p.password);
  });

  it('records an in-app notification for the approved user', async () => {
    const p = await registerPending();
    await setStatus(p.id, 'approved');
    const tokens = await login(t.app, p.email, p.password);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: bearer(tokens.accessToken),
    });
    // The notifications module owns the reply shape; the approval must be in it.
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Account approved');
  });

  it('rejects a pending user without an e-mail; the user cannot sign in', async () => {
    const p = await registerPending();
    const res = await setStatus(p.id, 'rejected');
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('User rejected successfully');
    expect(await outboxFor(p.email)).toHaveLength(0);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: p.email, password: p.password },
    });
    expectError(signIn, 403);
  });

  it('moves only pending users: anything else is 409 and changes nothing', async () => {
    const approved = await registerPending();
    await setStatus(approved.id, 'approved');
    const rejected = await registerPending();
    await setStatus(rejected.id, 'rejected');
    for (const [id, status, now] of [
      [approved.id, 'approved', 'approved'],
      [approved.id, 'rejected', 'approved'],
      [rejected.id, 'approved', 'rejected'],
      [rejected.id, 'rejected', 'rejected'],
    ] as const) {
      const res = await setStatus(id, status);
      expect(expectError(res, 409).error).toBe(
        `Only pending users can be approved or rejected; this user is ${now}`,
      );
      const [row] = await t.ctx.db.select().from(users).where(eq(users.id, id));
      expect(row!.status).toBe(now);
    }
    // The admin's own (approved) account cannot be rejected either.
    const me = (await login(t.app, ADMIN.email, ADMIN.password)).userId;
    expectError(await setStatus(me, 'rejected'), 409);
    expect(await outboxFor(approved.email)).toHaveLength(1);
  });

  it('approves once when two admins click at the same moment', async () => {
    const p = await registerPending();
    const results = await Promise.all([setStatus(p.id, 'approved'), setStatus(p.id, 'approved')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await outboxFor(p.email)).toHaveLength(1);
  });

  it('validates the id and the status and answers 404 for an unknown user', async () => {
    const p = await registerPending();
    expect(expectError(await setStatus('not-a-uuid', 'approved'), 400).error).toContain('id');
    expect(expectError(await setStatus(p.id, 'pending'), 400).error).toContain(
      'status must be approved or rejected',
    );
    expect(expectError(await setStatus(p.id, undefined), 400).error).toContain('status');
    expect(
      expectError(await setStatus('00000000-0000-4000-8000-000000000000', 'approved'), 404).error,
    ).toBe('User not found');
  });

  it('is for admins only', async () => {
    const p = await registerPending();
    const researcher = await createUser(t.app);
    expectError(await setStatus(p.id, 'approved', researcher.accessToken), 403);
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, p.id));
    expect(row!.status).toBe('pending');
  });
});

describe('PUT /api/auth/users/:id', () => {
  it('changes display name and role', async () => {
    const u = await createUser(t.app);
    const res = await update(u.id, { displayName: '  Elinor Ostrom ', role: 'viewer' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'User updated successfully',
      data: { user: { id: u.id, displayName: 'Elinor Ostrom', role: 'viewer', email: u.email } },
    });
    expect(res.body).not.toContain('argon2');
  });

  it('never changes the email: a different one is 400, the same one is accepted', async () => {
    const u = await createUser(t.app);
    const changed = await update(u.id, { email: 'new@uni.example', displayName: 'X' });
    expect(expectError(changed, 400).error).toBe('email cannot be changed');
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, u.id));
    expect(row!.email).toBe(u.email);
    expect(row!.displayName).toBe('Test User');
    const same = await update(u.id, { email: ` ${u.email.toUpperCase()}`, displayName: 'Same' });
    expect(same.statusCode).toBe(200);
    expect(expectError(await update(u.id, { email: 42, role: 'viewer' }), 400).error).toContain(
      'email',
    );
  });

  it('validates the body', async () => {
    const u = await createUser(t.app);
    expect(expectError(await update(u.id, {}), 400).error).toContain('nothing to update');
    expect(expectError(await update(u.id, { role: 'owner' }), 400).error).toContain('role');
    expect(expectError(await update(u.id, { displayName: ' ' }), 400).error).toContain(
      'displayName is required',
    );
    expect(
      expectError(await update('00000000-0000-4000-8000-000000000000', { role: 'viewer' }), 404)
        .error,
    ).toBe('User not found');
  });

  it('a demoted admin loses admin access with the token already in hand', async () => {
    const second = await createUser(t.app, { role: 'admin' });
    const list = (token: string) =>
      t.app.inject({ method: 'GET', url: '/api/auth/users', headers: bearer(token) });
    expect((await list(second.accessToken)).statusCode).toBe(200);
    expect((await update(second.id, { role: 'researcher' })).statusCode).toBe(200);
    // The token issued under the old role is refused outright; a new one has the new role.
    expectError(await list(second.accessToken), 401);
    const again = await login(t.app, second.email, second.password);
    expectError(await list(again.accessToken), 403);
  });

  it('never demotes the last administrator', async () => {
    // A fresh app so that the admin count is known: only ADMIN.
    const own = await createTestApp();
    try {
      const token = (await login(own.app, ADMIN.email, ADMIN.password)).accessToken;
      const me = (await login(own.app, ADMIN.email, ADMIN.password)).userId;
      const put = (id: string, payload: Record<string, unknown>, tk = token) =>
        own.app.inject({
          method: 'PUT',
          url: `/api/auth/users/${id}`,
          headers: bearer(tk),
          payload,
        });
      const res = await put(me, { role: 'viewer' });
      expect(expectError(res, 409).error).toBe('The last administrator cannot be demoted');
      const [row] = await own.ctx.db.select().from(users).where(eq(users.id, me));
      expect(row!.role).toBe('admin');
      // Renaming the last admin is fine.
      expect((await put(me, { displayName: 'Chief', role: 'admin' })).statusCode).toBe(200);

      // With a second admin, one may go; then the other is the last one again.
      const other = await createUser(own.app, { role: 'admin' });
      expect((await put(other.id, { role: 'researcher' })).statusCode).toBe(200);
      expectError(await put(me, { role: 'researcher' }), 409);

      // Two admins demoting each other at the same moment: one succeeds; the other is refused
      // (401 when its author's token was already ended by their demotion, 403 when the demotion
      // came between the token check and the role check, 409 when both passed the role check).
      const third = await createUser(own.app, { role: 'admin' });
      const results = await Promise.all([
        put(third.id, { role: 'researcher' }, token),
        put(me, { role: 'researcher' }, third.accessToken),
      ]);
      const codes = results.map((r) => r.statusCode).sort();
      expect(codes[0]).toBe(200);
      expect([401, 403, 409]).toContain(codes[1]);
      const admins = await own.ctx.db.select().from(users).where(eq(users.role, 'admin'));
      expect(admins.filter((a) => a.status === 'approved')).toHaveLength(1);

      const remaining = admins;

      // A pending account given the admin role does not count as an administrator.
      const pending = await own.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: 'later-admin@uni.example', password: 'pending-pass', displayName: 'L' },
      });
      expect(pending.statusCode).toBe(201);
      const [p] = await own.ctx.db
        .select()
        .from(users)
        .where(eq(users.email, 'later-admin@uni.example'));
      const survivor = remaining.find((a) => a.status === 'approved')!;
      const survivorPassword = survivor.email === ADMIN.email ? ADMIN.password : 'user-password-1';
      const survivorToken = (await login(own.app, survivor.email, survivorPassword)).accessToken;
      expect((await put(p!.id, { role: 'admin' }, survivorToken)).statusCode).toBe(200);
      expectError(await put(survivor.id, { role: 'viewer' }, survivorToken), 409);
    } finally {
      await own.close();
    }
  });
});

describe('users store', () => {
  it('serialises role changes: of two admins demoted at once, exactly one goes', async () => {
    // Below the HTTP layer, where both role checks have passed. On PostgreSQL the two updates
    // really run in parallel; a plain count under READ COMMITTED would let both through.
    const database = await createTestDatabase();
    try {
      const store = createUsersStore(database.db);
      for (let round = 0; round < 5; round++) {
        await database.db.delete(users);
        const [a, b] = await database.db
          .insert(users)
          .values(
            ['a', 'b'].map((n) => ({
              email: `${n}${round}@race.example`,
              passwordHash: 'not-used',
              displayName: n,
              role: 'admin' as const,
              status: 'approved' as const,
            })),
          )
          .returning();
        const raced = await Promise.all([
          store.update(a!.id, { role: 'researcher' }),
          store.update(b!.id, { role: 'viewer' }),
        ]);
        expect(raced.filter((r) => r.lastAdmin)).toHaveLength(1);
        expect(raced.filter((r) => r.row)).toHaveLength(1);
        const left = await database.db.select().from(users).where(eq(users.role, 'admin'));
        expect(left).toHaveLength(1);
      }
    } finally {
      await database.close();
    }
  });
});
