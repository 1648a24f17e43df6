import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from '../server/app';
import { closeContext, createContext } from '../server/bootstrap';
import { loadConfig } from '../server/config';
import type { Api, AppContext } from '../server/context';
import { ensureAdmin } from '../server/modules/users/bootstrap-admin';
import { createTestDatabase } from './db';

export const ADMIN = { email: 'admin@test.example', password: 'admin-password-1' };

export interface TestApp {
  app: Api;
  ctx: AppContext;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A whole server on a fresh database (PGlite, or PostgreSQL with TEST_DB=postgres) and a fresh
 * data directory, with one approved admin. Use app.inject() against it.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    RATE_LIMIT_MAX: '1000',
    ...env,
  });
  const database = await createTestDatabase();
  const log = pino({ level: 'silent' }) as FastifyBaseLogger;
  const ctx = await createContext(config, { worker: true, database, log });
  await ensureAdmin(ctx.db, ADMIN.email, ADMIN.password);
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    dataDir,
    async close() {
      await app.close();
      await closeContext(ctx);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the API and returns the tokens. */
export async function login(app: Api, email: string, password: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as {
    data: { tokens: { accessToken: string; refreshToken: string }; user: { id: string } };
  };
  return { ...body.data.tokens, userId: body.data.user.id };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Registers a user, has the admin approve it, and signs it in. */
export async function createUser(
  app: Api,
  opts: {
    email?: string;
    password?: string;
    displayName?: string;
    role?: 'researcher' | 'viewer' | 'admin';
  } = {},
) {
  const email = opts.email ?? `user-${Math.random().toString(36).slice(2, 10)}@test.example`;
  const password = opts.password ?? 'user-password-1';
  const reg = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password, displayName: opts.displayName ?? 'Test User' },
  });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.statusCode} ${reg.body}`);
  const admin = await login(app, ADMIN.email, ADMIN.password);
  const users = (
    await app.inject({ method: 'GET', url: '/api/auth/users', headers: bearer(admin.accessToken) })
  ).json() as { data: { users: Array<{ id: string; email: string }> } };
  const id = users.data.users.find((u) => u.email === email)!.id;
  await app.inject({
    method: 'PUT',
    url: `/api/auth/users/${id}/status`,
    headers: bearer(admin.accessToken),
    payload: { status: 'approved' },
  });
  if (opts.role && opts.role !== 'researcher') {
    await app.inject({
      method: 'PUT',
      url: `/api/auth/users/${id}`,
      headers: bearer(admin.accessToken),
      payload: { role: opts.role },
    });
  }
  const tokens = await login(app, email, password);
  return { id, email, password, ...tokens };
}
