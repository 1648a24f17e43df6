import http from 'node:http';
import dns from 'node:dns';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient, HttpError, type HttpClientOptions } from './http';

/**
 * A local server whose behaviour each test sets per path. It records every request, and can
 * hold replies until the test releases them (to see concurrency and aborts).
 */
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const handlers = new Map<string, Handler>();
const seen: { method: string; path: string; headers: http.IncomingHttpHeaders }[] = [];
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    const handler = handlers.get(path);
    if (handler) return handler(req, res);
    res.writeHead(404).end('no handler');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  handlers.clear();
  seen.length = 0;
});

const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Handler => {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
};

/** A client allowed to reach the fixture server, with waits recorded instead of slept. */
function client(extra: HttpClientOptions = {}) {
  const waits: number[] = [];
  const c = createHttpClient({
    allowPrivateHosts: ['127.0.0.1'],
    random: () => 0.5,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    ...extra,
  });
  return { c, waits };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => {
      if (!(e instanceof HttpError)) throw e;
      return e;
    },
  );

describe('SSRF guard', () => {
  it('refuses the fixture server without the allow-list, before any request', async () => {
    handlers.set('/ok', json({ ok: true }));
    const c = createHttpClient();
    for (const url of [
      `${base}/ok`,
      base.replace('127.0.0.1', 'localhost') + '/ok',
      base.replace('127.0.0.1', '2130706433') + '/ok',
      base.replace('127.0.0.1', '[::ffff:127.0.0.1]') + '/ok',
      base.replace('127.0.0.1', '[::127.0.0.1]') + '/ok',
    ]) {
      const e = await failure(c.getJson(url));
      expect(e.kind, url).toBe('refused');
    }
    expect(seen).toHaveLength(0);
    await c.close();
  });

  it('checks the resolved address at connect time', async () => {
    const name = os.hostname();
    const addresses = await dns.promises.lookup(name, { all: true }).catch(() => []);
    // The machine's own name resolves to a loopback address on Debian and in containers.
    const loopback = addresses.find((a) => a.address.startsWith('127.'));
    if (!loopback) return;
    handlers.set('/ok', json({ ok: true }));
    const c = createHttpClient();
    const port = (server.address() as AddressInfo).port;
    const e = await failure(c.getJson(`http://${name}:${port}/ok`));
    expect(e.kind).toBe('refused');
    expect(e.message).toMatch(/loopback/);
    expect(seen).toHaveLength(0);
    await c.close();
  });

  it('re-checks every redirect target', async () => {
    handlers.set('/to-metadata', (_req, res) =>
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end(),
    );
    handlers.set('/to-private', (_req, res) =>
      res.writeHead(307, { location: 'http://[::ffff:10.0.0.1]/admin' }).end(),
    );
    // The allow-list names 127.0.0.1 only; the IPv6 loopback stays refused.
    handlers.set('/to-loopback6', (_req, res) =>
      res.writeHead(301, { location: 'http://[::1]:1/' }).end(),
    );
    handlers.set('/to-file', (_req, res) =>
      res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
    );
    const { c } = client();
    expect((await failure(c.getJson(`${base}/to-metadata`))).kind).toBe('refused');
    expect((await failure(c.getJson(`${base}/to-private`))).kind).toBe('refused');
    expect((await failure(c.getJson(`${base}/to-loopback6`))).kind).toBe('refused');
    expect((await failure(c.getJson(`${base}/to-file`))).kind).toBe('redirect');
    await c.close();
  });
});

describe('redirects', () => {
  it('follows up to 5 hops and reports the final URL', async () => {
    for (let i = 0; i < 5; i++)
      handlers.set(`/hop${i}`, (_req, res) =>
        res.writeHead(302, { location: i === 4 ? '/done' : `/hop${i + 1}` }).end(),
      );
    handlers.set('/done', json({ done: true }));
    const { c } = client();
    const res = await c.request(`${base}/hop0`);
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${base}/done`);
    expect(res.json()).toEqual({ done: true });
    await c.close();
  });

  it('stops after 5 redirects', async () => {
    handlers.set('/loop', (_req, res) => res.writeHead(302, { location: '/loop' }).end());
    const { c } = client();
    const e = await failure(c.getJson(`${base}/loop`));
    expect(e.kind).toBe('redirect');
    expect(seen).toHaveLength(6);
    await c.close();
  });

  it('turns a POST into a GET after a 303 and drops credentials across origins', async () => {
    handlers.set('/post', (_req, res) => res.writeHead(303, { location: '/after' }).end());
    handlers.set('/after', json({ after: true }));
    const { c } = client();
    const res = await c.request(`${base}/post`, { method: 'POST', body: '{}' });
    expect(res.json()).toEqual({ after: true });
    expect(seen.map((s) => s.method)).toEqual(['POST', 'GET']);

    seen.length = 0;
    const other = base.replace('127.0.0.1', 'localhost');
    handlers.set('/cross', (_req, res) => res.writeHead(302, { location: `${other}/after` }).end());
    const { c: c2 } = client({ allowPrivateHosts: ['127.0.0.1', 'localhost'] });
    await c2.request(`${base}/cross`, { headers: { authorization: 'Bearer secret' } });
    expect(seen[0]?.headers.authorization).toBe('Bearer secret');
    expect(seen[1]?.headers.authorization).toBeUndefined();
    await c.close();
    await c2.close();
  });
});

describe('retries', () => {
  it('waits as long as a 429 Retry-After in seconds asks, then succeeds', async () => {
    let calls = 0;
    handlers.set('/busy', (req, res) =>
      ++calls === 1
        ? json({ error: 'slow down' }, 429, { 'retry-after': '2' })(req, res)
        : json({ ok: calls })(req, res),
    );
    const { c, waits } = client();
    expect(await c.getJson(`${base}/busy`)).toEqual({ ok: 2 });
    expect(waits).toEqual([2000]);
    await c.close();
  });

  it('honours a Retry-After HTTP date against the client clock', async () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    let calls = 0;
    handlers.set('/busy', (req, res) =>
      ++calls === 1
        ? json({}, 503, { 'retry-after': 'Tue, 01 Jan 2030 00:00:07 GMT' })(req, res)
        : json({ ok: true })(req, res),
    );
    const { c, waits } = client({ now: () => now });
    expect(await c.getJson(`${base}/busy`)).toEqual({ ok: true });
    expect(waits).toEqual([7000]);
    await c.close();
  });

  it('backs off exponentially without Retry-After and gives up after the retries', async () => {
    handlers.set('/down', json({ error: 'down' }, 503));
    const { c, waits } = client({ retries: 3 });
    const e = await failure(c.getJson(`${base}/down`));
    expect(e.kind).toBe('status');
    expect(e.status).toBe(503);
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(seen).toHaveLength(4);
    await c.close();
  });

  it('fails at once when Retry-After asks for longer than allowed', async () => {
    handlers.set('/later', json({}, 429, { 'retry-after': '3600' }));
    const { c, waits } = client({ maxRetryAfterMs: 10_000 });
    const res = await c.request(`${base}/later`);
    expect(res.status).toBe(429);
    expect(waits).toEqual([]);
    await c.close();
  });

  it('does not retry a 404 or a POST by default', async () => {
    handlers.set('/post', json({}, 503));
    const { c } = client();
    expect((await c.request(`${base}/missing`)).status).toBe(404);
    expect((await c.request(`${base}/post`, { method: 'POST', body: 'x' })).status).toBe(503);
    expect(seen).toHaveLength(2);
    await c.close();
  });
});

describe('limits', () => {
  it('times out an attempt that gets no reply, retrying it first', async () => {
    handlers.set('/hang', () => undefined);
    const { c, waits } = client({ timeoutMs: 100, retries: 1 });
    const e = await failure(c.getJson(`${base}/hang`));
    expect(e.kind).toBe('timeout');
    expect(seen).toHaveLength(2);
    expect(waits).toHaveLength(1);
    await c.close();
  });

  it('times out a body that stalls after the headers', async () => {
    handlers.set('/stall', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    });
    const { c } = client({ timeoutMs: 150, retries: 0 });
    expect((await failure(c.getJson(`${base}/stall`))).kind).toBe('timeout');
    await c.close();
  });

  it('refuses a body over the size cap, declared or streamed', async () => {
    const big = 'x'.repeat(5000);
    handlers.set('/declared', (_req, res) => res.writeHead(200).end(big));
    handlers.set('/chunked', (_req, res) => {
      res.writeHead(200);
      for (let i = 0; i < 5; i++) res.write('y'.repeat(1000));
      res.end();
    });
    const { c } = client({ maxResponseBytes: 2000 });
    expect((await failure(c.getText(`${base}/declared`))).kind).toBe('too_large');
    expect((await failure(c.getText(`${base}/chunked`))).kind).toBe('too_large');
    const { c: roomy } = client({ maxResponseBytes: 10_000 });
    expect(await roomy.getText(`${base}/declared`)).toBe(big);
    await c.close();
    await roomy.close();
  });

  it('keeps at most perHostConcurrency requests in flight per host', async () => {
    const held: http.ServerResponse[] = [];
    handlers.set('/slow', (_req, res) => held.push(res));
    const { c } = client({ perHostConcurrency: 2 });
    const all = Promise.all(
      Array.from({ length: 5 }, (_, i) => c.getJson(`${base}/slow?i=${i}`, { cache: false })),
    );
    let maxHeld = 0;
    let done = 0;
    while (done < 5) {
      await vi.waitFor(() => expect(held.length).toBeGreaterThan(0));
      // Give the client a chance to (wrongly) start more requests before releasing one.
      await new Promise((r) => setTimeout(r, 30));
      maxHeld = Math.max(maxHeld, held.length);
      expect(held.length).toBeLessThanOrEqual(2);
      json({ n: done++ })(undefined as never, held.shift() as http.ServerResponse);
    }
    expect(await all).toHaveLength(5);
    expect(maxHeld).toBe(2);
    await c.close();
  });
});

describe('cache', () => {
  it('answers a repeated GET from the cache until the TTL passes', async () => {
    let t = 1_000_000;
    let calls = 0;
    handlers.set('/works', (req, res) => json({ calls: ++calls })(req, res));
    const { c } = client({ cache: { ttlMs: 60_000 }, now: () => t });
    const first = await c.request(`${base}/works?q=a`);
    const second = await c.request(`${base}/works?q=a`);
    expect(first.fromCache).toBe(false);
    expect(second.fromCache).toBe(true);
    expect(second.json()).toEqual({ calls: 1 });
    // Another query is another key; cache:false bypasses.
    expect(await c.getJson(`${base}/works?q=b`)).toEqual({ calls: 2 });
    expect(await c.getJson(`${base}/works?q=a`, { cache: false })).toEqual({ calls: 3 });
    t += 60_001;
    expect(await c.getJson(`${base}/works?q=a`)).toEqual({ calls: 4 });
    expect(seen).toHaveLength(4);
    await c.close();
  });

  it('reuses a reply fetched with credentials only for the same credentials', async () => {
    let calls = 0;
    handlers.set('/private', (req, res) => json({ calls: ++calls })(req, res));
    const { c } = client({ cache: { ttlMs: 60_000 } });
    const as = (who: string) => ({ headers: { Authorization: `Basic ${who}` } });
    expect(await c.getJson(`${base}/private`, as('alice'))).toEqual({ calls: 1 });
    expect(await c.getJson(`${base}/private`, as('alice'))).toEqual({ calls: 1 });
    expect(await c.getJson(`${base}/private`, as('bob'))).toEqual({ calls: 2 });
    expect(await c.getJson(`${base}/private`)).toEqual({ calls: 3 });
    expect(seen).toHaveLength(3);
    await c.close();
  });

  it('does not cache failures', async () => {
    handlers.set('/bad', json({}, 400));
    const { c } = client({ cache: { ttlMs: 60_000 } });
    await c.request(`${base}/bad`);
    await c.request(`${base}/bad`);
    expect(seen).toHaveLength(2);
    await c.close();
  });
});

describe('abort and bad replies', () => {
  it('stops when the caller aborts mid-request', async () => {
    handlers.set('/hang', () => undefined);
    const { c } = client();
    const controller = new AbortController();
    const pending = failure(c.getJson(`${base}/hang`, { signal: controller.signal }));
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    controller.abort();
    expect((await pending).kind).toBe('aborted');
    expect(seen).toHaveLength(1);
    await c.close();
  });

  it('stops when the caller aborts during a backoff wait', async () => {
    handlers.set('/busy', json({}, 429, { 'retry-after': '30' }));
    const c = createHttpClient({ allowPrivateHosts: ['127.0.0.1'] });
    const controller = new AbortController();
    const pending = failure(c.getJson(`${base}/busy`, { signal: controller.signal }));
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    controller.abort();
    expect((await pending).kind).toBe('aborted');
    await c.close();
  });

  it('reports a body that is not JSON as malformed and a closed port as a network error', async () => {
    handlers.set('/html', (_req, res) => res.writeHead(200).end('<html>oops</html>'));
    const { c } = client({ retries: 0 });
    expect((await failure(c.getJson(`${base}/html`))).kind).toBe('malformed');
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const e = await failure(c.getJson(`http://127.0.0.1:${port}/`));
    expect(e.kind).toBe('network');
    expect(e.message).toMatch(/ECONNREFUSED/);
    await c.close();
  });

  it('names the status and the URL without its query (keys travel in queries)', async () => {
    handlers.set('/secret', json({}, 403));
    const { c } = client();
    const e = await failure(c.getJson(`${base}/secret?api_key=abc`));
    expect(e.message).toBe(`HTTP 403 from ${base}/secret`);
    await c.close();
  });
});
