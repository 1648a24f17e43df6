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
import type { TeamDefinition } from '../server/agents';

export const ADMIN = { email: 'admin@test.example', password: 'admin-password-1' };

export interface TestApp {
  app: Api;
  ctx: AppContext;
  dataDir: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** A logger to use instead of a silent one (tests that read the request log). */
  log?: FastifyBaseLogger;
  /** Teams to run besides the product's (e.g. the runtime's test team). */
  extraTeams?: TeamDefinition[];
}

/**
 * A whole server on a fresh database (PGlite, or PostgreSQL with TEST_DB=postgres) and a fresh
 * data directory, with one approved admin. Use app.inject() against it.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
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
  const log = options.log ?? (pino({ level: 'silent' }) as FastifyBaseLogger);
  const ctx = await createContext(config, {
    worker: true,
    database,
    log,
    extraTeams: options.extraTeams,
  });
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

/**
 * Another server process on the same database (a second instance behind a load balancer, or the
 * same installation after a restart): its own context and app, sharing `t`'s database.
 */
export async function createSiblingApp(
  t: TestApp,
  options: Pick<TestAppOptions, 'extraTeams'> = {},
): Promise<{
  app: Api;
  ctx: AppContext;
  close(): Promise<void>;
}> {
  const ctx = await createContext(t.ctx.config, {
    worker: false,
    database: t.ctx.database,
    log: pino({ level: 'silent' }) as FastifyBaseLogger,
    extraTeams: options.extraTeams,
  });
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    ctx,
    async close() {
      await app.close();
      // Not closeContext: the database belongs to `t`.
      await ctx.agents.stop();
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

/**
 * The admin's access token per app: signing in costs an argon2 verification, and createUser is
 * called many times per file. A token that stopped working (the admin was changed) is replaced.
 */
const adminTokens = new WeakMap<Api, Promise<string>>();

async function adminRequest(
  app: Api,
  request: { method: 'GET' | 'PUT'; url: string; payload?: Record<string, unknown> },
) {
  for (let attempt = 0; ; attempt++) {
    let token = adminTokens.get(app);
    if (!token) {
      token = login(app, ADMIN.email, ADMIN.password).then((t) => t.accessToken);
      adminTokens.set(app, token);
    }
    const res = await app.inject({ ...request, headers: bearer(await token) });
    if (res.statusCode !== 401 || attempt > 0) return res;
    adminTokens.delete(app);
  }
}

/** Registers a user, has the admin approve it (and set its role), and signs it in. */
export async function createUser(
  app: Api,
  opts: {
    email?: string;
    password?: string;
    displayName?: string;
    role?: 'researcher' | 'viewer' | 'admin';
  } = {},
) {
  const email = (
    opts.email ?? `user-${Math.random().toString(36).slice(2, 10)}@test.example`
  ).toLowerCase();
  const password = opts.password ?? 'user-password-1';
  const reg = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password, displayName: opts.displayName ?? 'Test User' },
  });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.statusCode} ${reg.body}`);
  // Newest first, so the new account is on the first page.
  const list = await adminRequest(app, { method: 'GET', url: '/api/auth/users?limit=500' });
  const users = list.json() as { data: { users: Array<{ id: string; email: string }> } };
  const id = users.data.users.find((u) => u.email === email)?.id;
  if (!id) throw new Error(`registered user ${email} not in the users list: ${list.body}`);
  const approve = await adminRequest(app, {
    method: 'PUT',
    url: `/api/auth/users/${id}/status`,
    payload: { status: 'approved' },
  });
  if (approve.statusCode !== 200) {
    throw new Error(`approval failed: ${approve.statusCode} ${approve.body}`);
  }
  if (opts.role && opts.role !== 'researcher') {
    const role = await adminRequest(app, {
      method: 'PUT',
      url: `/api/auth/users/${id}`,
      payload: { role: opts.role },
    });
    if (role.statusCode !== 200)
      throw new Error(`role change failed: ${role.statusCode} ${role.body}`);
  }
  const tokens = await login(app, email, password);
  return { id, email, password, ...tokens };
}
