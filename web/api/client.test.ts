import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { api, apiRequest, checkedApi, failureText, isFailure, refreshTokens } from './client';
import { getAuth, setAuth, setUser } from './session';

/**
 * A tiny fake server: access tokens 'good-N' are valid, refresh token 'r-N' becomes 'r-(N+1)'
 * with access 'good-(N+1)'; everything else is 401.
 */
function fakeServer(options: { refreshOk?: boolean; delayMs?: number } = {}) {
  const log: string[] = [];
  let generation = 1;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const token = headers.Authorization?.replace('Bearer ', '');
    log.push(`${init?.method ?? 'GET'} ${url.pathname} ${token ?? '-'}`);
    await new Promise((r) => setTimeout(r, options.delayMs ?? 0));
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    if (url.pathname === '/api/auth/refresh') {
      const sent = JSON.parse(String(init?.body)) as { refreshToken: string };
      if (options.refreshOk === false || sent.refreshToken !== `r-${generation}`) {
        return json(401, { success: false, error: 'Invalid', message: 'Refresh token is invalid' });
      }
      generation += 1;
      return json(200, {
        success: true,
        data: { tokens: { accessToken: `good-${generation}`, refreshToken: `r-${generation}` } },
      });
    }
    if (url.pathname === '/api/broken') return new Response('<html>oops</html>', { status: 502 });
    if (token !== `good-${generation}`) {
      return json(401, { success: false, error: 'Expired', message: 'Your session has expired' });
    }
    if (url.pathname === '/api/conflict') {
      return json(409, { success: false, error: 'Conflict', message: 'Already there' });
    }
    return json(200, { success: true, data: { path: url.pathname } });
  }) as typeof fetch;
  return log;
}

describe('api client', () => {
  beforeEach(() => {
    localStorage.clear();
    setAuth({ accessToken: 'expired', refreshToken: 'r-1' });
    setUser({ displayName: 'Ada', email: 'ada@example.org' });
  });
  afterEach(() => localStorage.clear());

  it('refreshes once on 401 and retries once, storing the new pair', async () => {
    const log = fakeServer();
    const reply = await api.get<{ success: true; data: { path: string } }>('/api/things');
    expect(isFailure(reply)).toBe(false);
    expect(log).toEqual([
      'GET /api/things expired',
      'POST /api/auth/refresh -',
      'GET /api/things good-2',
    ]);
    expect(getAuth()).toEqual({ accessToken: 'good-2', refreshToken: 'r-2' });
  });

  it('shares one refresh between parallel requests, also when a 401 arrives late', async () => {
    const log = fakeServer({ delayMs: 5 });
    const replies = await Promise.all([api.get('/api/a'), api.get('/api/b'), api.get('/api/c')]);
    expect(replies.every((r) => !isFailure(r))).toBe(true);
    expect(log.filter((l) => l.startsWith('POST /api/auth/refresh'))).toHaveLength(1);
  });

  it('retries without a second refresh when another request renewed the token meanwhile', async () => {
    const log = fakeServer();
    // This request leaves with the expired token...
    const pending = api.get('/api/late');
    // ...and while it is in flight another request stores the valid pair.
    setAuth({ accessToken: 'good-1', refreshToken: 'r-1' });
    const reply = await pending;
    expect(isFailure(reply)).toBe(false);
    expect(log).toEqual(['GET /api/late expired', 'GET /api/late good-1']);
  });

  it('skips the refresh when the stored token already changed (another tab refreshed)', async () => {
    const log = fakeServer();
    setAuth({ accessToken: 'good-1', refreshToken: 'r-1' });
    await expect(refreshTokens('expired')).resolves.toBe(true);
    expect(log).toEqual([]);
    await expect(refreshTokens('good-1')).resolves.toBe(true);
    expect(log).toEqual(['POST /api/auth/refresh -']);
  });

  it('clears the four items when the refresh is refused, and reports the 401', async () => {
    fakeServer({ refreshOk: false });
    const reply = await api.get('/api/things');
    expect(isFailure(reply) && reply.error).toBe('HTTP error! status: 401');
    expect(isFailure(reply) && failureText(reply)).toBe('Your session has expired');
    for (const key of ['accessToken', 'refreshToken', 'user', 'isAuthenticated']) {
      expect(localStorage.getItem(key)).toBeNull();
    }
  });

  it('never refreshes for a failed login', async () => {
    const log = fakeServer();
    const reply = await api.post('/api/auth/login', { email: 'a', password: 'b' });
    expect(isFailure(reply)).toBe(true);
    expect(log).toEqual(['POST /api/auth/login expired']);
  });

  it("turns non-ok replies into 'HTTP error! status: {code}' with the server message", async () => {
    setAuth({ accessToken: 'good-1', refreshToken: 'r-1' });
    fakeServer();
    const conflict = await apiRequest('/api/conflict');
    expect(conflict).toEqual({
      success: false,
      error: 'HTTP error! status: 409',
      message: 'Already there',
      status: 409,
    });
    const broken = await apiRequest('/api/broken');
    expect(broken).toEqual({ success: false, error: 'HTTP error! status: 502', status: 502 });
    expect(isFailure(broken) && failureText(broken)).toBe('HTTP error! status: 502');
  });

  it("returns the network error's message, or 'Unknown error'", async () => {
    globalThis.fetch = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
    expect(await api.get('/api/x')).toEqual({ success: false, error: 'Failed to fetch' });
    globalThis.fetch = (() => Promise.reject(new Error(''))) as typeof fetch;
    expect(await api.get('/api/x')).toEqual({ success: false, error: 'Unknown error' });
  });

  it('parses replies with their schema: a match is typed data, a mismatch a failure', async () => {
    setAuth({ accessToken: 'good-1', refreshToken: 'r-1' });
    fakeServer();
    const pathReply = z.object({ success: z.literal(true), data: z.object({ path: z.string() }) });
    const ok = await checkedApi.get(pathReply, '/api/things');
    expect(ok).toEqual({ success: true, data: { path: '/api/things' } });

    const countReply = z.object({
      success: z.literal(true),
      data: z.object({ count: z.number() }),
    });
    const wrong = await checkedApi.get(countReply, '/api/things?x=1');
    expect(isFailure(wrong) && wrong.error).toBe('Invalid reply');
    expect(isFailure(wrong) && failureText(wrong)).toMatch(
      /^The server's reply to \/api\/things was not what this page expects \(at data\.count\)/,
    );

    // A server failure stays the server's failure (its message), not a schema complaint.
    const conflict = await checkedApi.post(countReply, '/api/conflict');
    expect(isFailure(conflict) && failureText(conflict)).toBe('Already there');
  });
});
