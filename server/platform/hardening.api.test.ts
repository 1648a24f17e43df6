import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { DrizzleQueryError } from 'drizzle-orm/errors';
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
import { rateLimitHits } from '../db/schema';
import { registerErrorHandling } from './errors';
import { countHit, deleteExpiredHits } from './rate-limit';
import { loggerOptions } from './logging';

type Res = { statusCode: number; headers: Record<string, unknown>; json(): unknown; body: string };

function expectEnvelope(res: Res, status: number) {
  expect(res.statusCode).toBe(status);
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['error', 'message', 'success']);
  expect(body.success).toBe(false);
  expect(typeof body.error).toBe('string');
  expect(typeof body.message).toBe('string');
  expect(res.body).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  return body as { error: string; message: string };
}

/** A log sink the request logger writes JSON lines into. */
function captureLog(level = 'info') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  const options = loggerOptions(level) as pino.LoggerOptions;
  return { log: pino(options, stream) as FastifyBaseLogger, text: () => lines.join('') };
}

describe('rate limits (RATE_LIMIT_MAX=3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
  });
  afterAll(() => t.close());

  const cases: Array<[string, string, Record<string, unknown>]> = [
    ['login', '/api/auth/login', { email: 'nobody@uni.example', password: 'wrong-password' }],
    ['register', '/api/auth/register', { email: 'x', password: 'short', displayName: '' }],
    ['refresh', '/api/auth/refresh', { refreshToken: 'not-a-real-one' }],
    ['waiting list', '/api/waiting-list', { name: '', email: 'bad' }],
  ];

  it.each(cases)(
    'limits %s: the 4th call in the window is 429 with Retry-After',
    async (_n, url, payload) => {
      const remoteAddress = `10.0.0.${cases.findIndex((c) => c[1] === url) + 1}`;
      const call = () => t.app.inject({ method: 'POST', url, payload, remoteAddress });
      for (let i = 0; i < 3; i++) expect((await call()).statusCode).not.toBe(429);
      const limited = await call();
      const body = expectEnvelope(limited, 429);
      expect(body.error).toMatch(/^Too many requests, please try again in \d+ seconds$/);
      const retryAfter = Number(limited.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.headers['content-security-policy']).toBeDefined();
      // Counted per client address: someone else is not affected.
      const other = await t.app.inject({ method: 'POST', url, payload, remoteAddress: '10.9.9.9' });
      expect(other.statusCode).not.toBe(429);
    },
  );

  it('an e-mail that exists answers 409 (the spec’s flow), and probing for more is rate-limited', async () => {
    const call = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: ADMIN.email, password: 'some-password', displayName: 'Probe' },
        remoteAddress: '10.0.7.7',
      });
    for (let i = 0; i < 3; i++) {
      const res = await call();
      expect(expectEnvelope(res, 409).error).toBe('An account with this email already exists');
    }
    expectEnvelope(await call(), 429);
  });

  it('does not limit ordinary signed-in calls', async () => {
    const admin = await login(t.app, ADMIN.email, ADMIN.password);
    for (let i = 0; i < 6; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/auth/profile',
        headers: bearer(admin.accessToken),
      });
      expect(res.statusCode).toBe(200);
    }
  });
});

describe('rate limits shared through the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
  });
  afterAll(() => t.close());

  it('counts calls to every app process on the same database against one limit', async () => {
    // A second process behind the same load balancer: its own app, the same database.
    const sibling = await createSiblingApp(t);
    const app2 = sibling.app;
    try {
      const payload = { email: 'nobody@uni.example', password: 'wrong-password' };
      const call = (app: typeof t.app) =>
        app.inject({ method: 'POST', url: '/api/auth/login', payload, remoteAddress: '10.1.1.1' });
      expect((await call(t.app)).statusCode).toBe(401);
      expect((await call(app2)).statusCode).toBe(401);
      expect((await call(t.app)).statusCode).toBe(401);
      expect((await call(app2)).statusCode).toBe(429);
      // Another route has its own counter.
      const refresh = await app2.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refreshToken: 'not-a-real-one' },
        remoteAddress: '10.1.1.1',
      });
      expect(refresh.statusCode).toBe(401);
    } finally {
      await sibling.close();
    }
  });

  it('starts a new window once the old one has ended, and reports the time left', async () => {
    const first = await countHit(t.ctx.db, 'test window', 400);
    expect(first.current).toBe(1);
    expect(first.ttl).toBeGreaterThan(0);
    expect(first.ttl).toBeLessThanOrEqual(400);
    expect((await countHit(t.ctx.db, 'test window', 400)).current).toBe(2);
    await new Promise((r) => setTimeout(r, 450));
    expect((await countHit(t.ctx.db, 'test window', 400)).current).toBe(1);
  });

  it('counts concurrent hits without losing any', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => countHit(t.ctx.db, 'test concurrent', 60_000)),
    );
    expect(results.map((r) => r.current).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  it('deletes counters whose window ended more than an hour ago, and only those', async () => {
    await t.ctx.db.insert(rateLimitHits).values([
      { key: 'test old', windowEndsAt: new Date(Date.now() - 2 * 3600_000), hits: 9 },
      { key: 'test recent', windowEndsAt: new Date(Date.now() - 60_000), hits: 9 },
    ]);
    expect(await deleteExpiredHits(t.ctx.db)).toBe(1);
    const keys = (await t.ctx.db.select({ key: rateLimitHits.key }).from(rateLimitHits)).map(
      (r) => r.key,
    );
    expect(keys).toContain('test recent');
    expect(keys).not.toContain('test old');
  });
});

describe('request bodies and errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BODY_LIMIT_BYTES: '2048' });
  });
  afterAll(() => t.close());

  it('refuses a body over the limit with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        email: 'big@uni.example',
        password: 'long-enough',
        displayName: 'B',
        reason: 'r'.repeat(4000),
      },
    });
    expect(expectEnvelope(res, 413).error).toBe('Request body is too large');
  });

  it('refuses invalid JSON with 400', async () => {
    for (const payload of ['{"email": "a@b.example",', '{]', 'null x']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(expectEnvelope(res, 400).error).toBe('Request body is not valid JSON');
    }
  });

  it('refuses a body that is JSON but not an object with 400', async () => {
    for (const payload of ['[]', '"text"', '42', 'null']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expectEnvelope(res, 400);
    }
  });

  it('refuses other content types with 415', async () => {
    for (const [type, payload] of [
      ['text/plain', 'email=a&password=b'],
      ['application/x-www-form-urlencoded', 'email=a%40b.example&password=secret-1'],
      ['application/xml', '<login/>'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': type },
        payload,
      });
      expect(expectEnvelope(res, 415).error).toBe(
        'Unsupported content type: send application/json',
      );
    }
  });

  it('names the field in a 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/waiting-list',
      payload: { name: 'N', email: 'x@uni.example', interestArea: 'Astrology' },
    });
    expect(expectEnvelope(res, 400).error).toMatch(
      /^Invalid request in body: interestArea must be one of/,
    );
    const query = await t.app.inject({
      method: 'GET',
      url: '/api/auth/users?limit=abc',
      headers: bearer((await login(t.app, ADMIN.email, ADMIN.password)).accessToken),
    });
    expect(expectEnvelope(query, 400).error).toMatch(/querystring.*limit/);
  });

  it('answers unknown routes and methods with 404 in the envelope', async () => {
    for (const [method, url] of [
      ['GET', '/api/does-not-exist'],
      ['POST', '/api/auth/nothing'],
      ['DELETE', '/api/auth/login'],
      ['GET', '/api'],
      ['GET', '/no-such-page'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(expectEnvelope(res, 404).error).toBe(`Route ${method} ${url} not found`);
      expect(res.headers['content-security-policy']).toBeDefined();
    }
  });

  it('sends security headers with a CSP on every reply', async () => {
    const researcher = await createUser(t.app);
    for (const res of [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'GET', url: '/version.json' }),
      await t.app.inject({ method: 'GET', url: '/api/auth/profile' }),
      await t.app.inject({
        method: 'GET',
        url: '/api/auth/users',
        headers: bearer(researcher.accessToken),
      }),
      await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: {} }),
    ]) {
      const csp = String(res.headers['content-security-policy']);
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
      ]) {
        expect(csp).toContain(directive);
      }
      expect(csp).not.toContain('unsafe-eval');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });
});

describe('Content-Security-Policy connect-src', () => {
  const connectSrc = (res: Res) =>
    String(res.headers['content-security-policy'])
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('connect-src'));

  it('allows WebSockets to the app’s own host only, never to any ws:/wss: host', async () => {
    const own = await createTestApp();
    try {
      const res = await own.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { host: 'econ.example.org:8443' },
      });
      expect(connectSrc(res)).toBe(
        "connect-src 'self' ws://econ.example.org:8443 wss://econ.example.org:8443",
      );
      // A Host header that is not a host name adds nothing.
      const odd = await own.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { host: 'evil.example/ x' },
      });
      expect(connectSrc(odd)).toBe("connect-src 'self' 'self'");
    } finally {
      await own.close();
    }
  });

  it('uses PUBLIC_URL’s host when it is set, whatever Host the request names', async () => {
    const own = await createTestApp({ PUBLIC_URL: 'https://research.example.edu/' });
    try {
      const res = await own.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { host: 'attacker.example' },
      });
      expect(connectSrc(res)).toBe(
        "connect-src 'self' ws://research.example.edu wss://research.example.edu",
      );
    } finally {
      await own.close();
    }
  });
});

describe('request logs', () => {
  it('log the web app’s files at debug and API requests at info', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>x</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
    const requests = async (level: string) => {
      const sink = captureLog(level);
      const own = await createTestApp({ WEB_DIST_DIR: dist }, { log: sink.log });
      try {
        for (const url of ['/assets/app-1234.js', '/projects', '/api/health']) {
          expect((await own.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
        }
      } finally {
        await own.close();
      }
      return sink
        .text()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { level: number; msg: string; req?: { url: string } })
        .filter((l) => l.req);
    };
    try {
      const info = await requests('info');
      expect(info.map((l) => [l.level, l.req!.url])).toEqual([[30, '/api/health']]);
      const debug = await requests('debug');
      const assetLines = debug.filter((l) => !l.req!.url.startsWith('/api'));
      expect(assetLines.map((l) => [l.level, l.msg, l.req!.url])).toEqual([
        [20, 'request completed', '/assets/app-1234.js'],
        [20, 'request completed', '/projects'],
      ]);
      expect(debug.filter((l) => l.req!.url === '/api/health').every((l) => l.level === 30)).toBe(
        true,
      );
    } finally {
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it('never contain passwords or tokens', async () => {
    const sink = captureLog();
    const t = await createTestApp({}, { log: sink.log });
    try {
      const password = 'Pa55-word-that-must-not-leak';
      const reg = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: 'leak@uni.example', password, displayName: 'Leak Test' },
      });
      expect(reg.statusCode).toBe(201);
      const signIn = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: ADMIN.email, password: ADMIN.password },
      });
      const { accessToken, refreshToken } = signIn.json().data.tokens;
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'x@uni.example', password },
      });
      const refreshed = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refreshToken },
      });
      const downloadToken = (
        await t.app.inject({
          method: 'POST',
          url: '/api/waiting-list/export-token',
          headers: bearer(accessToken),
        })
      ).json().data.token as string;
      const queryTokenRes = await t.app.inject({
        method: 'GET',
        url: `/api/waiting-list/export.csv?token=${encodeURIComponent(downloadToken)}&x=1`,
      });
      expect(queryTokenRes.statusCode).toBe(200);
      await t.app.inject({
        method: 'GET',
        url: '/api/auth/profile?access_token=query-secret-123&refreshToken=query-secret-456',
        headers: bearer(accessToken),
      });
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: bearer(accessToken),
        payload: { currentPassword: ADMIN.password, newPassword: 'new-secret-password-789' },
      });

      const log = sink.text();
      // The requests were logged (so the test can fail)...
      expect(log).toContain('"url":"/api/auth/login"');
      expect(log).toContain('/api/waiting-list/export.csv?token=%5Bredacted%5D&x=1');
      expect(log).toContain('"statusCode":200');
      // ...and no secret made it in.
      for (const secret of [
        password,
        ADMIN.password,
        accessToken,
        refreshToken,
        refreshed.json().data.tokens.refreshToken,
        refreshed.json().data.tokens.accessToken,
        downloadToken,
        'query-secret-123',
        'query-secret-456',
        'new-secret-password-789',
        'argon2id',
      ]) {
        expect(log).not.toContain(secret);
      }
    } finally {
      await t.close();
    }
  });

  it('an unexpected error is a 500 envelope, logged without query values or a stack in the reply', async () => {
    const sink = captureLog();
    const app = Fastify({ loggerInstance: sink.log });
    registerErrorHandling(app);
    app.get('/api/boom', async () => {
      throw new DrizzleQueryError(
        'insert into users (email, password_hash) values ($1, $2)',
        ['someone@uni.example', '$argon2id$v=19$secret-hash'],
        new Error('connection terminated'),
      );
    });
    const res = await app.inject({ method: 'GET', url: '/api/boom' });
    const body = expectEnvelope(res, 500);
    expect(body).toEqual({
      error: 'Internal server error',
      message: 'Something went wrong on the server; the error has been logged.',
      success: false,
    });
    const log = sink.text();
    expect(log).toContain('unhandled error');
    expect(log).toContain('insert into users');
    expect(log).not.toContain('secret-hash');
    expect(log).not.toContain('someone@uni.example');
    await app.close();
  });
});
