import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { agentSessions, users } from '../../db/schema';
import { createPublicFigures } from './public-figures';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function register(email: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password: 'figure-password-1', displayName: 'Figure Person' },
  });
  expect(res.statusCode).toBe(201);
  const [row] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
}

describe('GET /api/public/figures', () => {
  it('counts approved accounts and completed sessions of this install, without an account', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/public/figures' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=600');
    // A fresh install: the administrator, and no session yet.
    expect(res.json()).toEqual({ success: true, data: { researchers: 1, completedSessions: 0 } });
  });

  it('counts only approved accounts and completed sessions, re-counting once the cache expires', async () => {
    let clock = 0;
    const figures = createPublicFigures(t.ctx.db, { ttlMs: 1000, now: () => clock });
    const before = await figures.read();
    const pending = await register('pending.figures@test.example');
    const approved = await register('approved.figures@test.example');
    await t.ctx.db.update(users).set({ status: 'approved' }).where(eq(users.id, approved));
    await t.ctx.db.insert(agentSessions).values([
      { teamId: 'literature', ownerId: approved, status: 'completed' },
      { teamId: 'literature', ownerId: approved, status: 'error' },
      { teamId: 'code', ownerId: pending, status: 'processing' },
    ]);
    // Within the cache period the stored answer is given (no query).
    clock = 999;
    expect(await figures.read()).toEqual(before);
    clock = 1000;
    expect(await figures.read()).toEqual({
      researchers: before.researchers + 1,
      completedSessions: before.completedSessions + 1,
    });
  });
});
