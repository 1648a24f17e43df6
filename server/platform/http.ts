import { createHash } from 'node:crypto';
import { retryAfterMs } from '../../common/retry';
import pLimit, { type LimitFunction } from 'p-limit';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import {
  checkUrlHost,
  createAddressCheck,
  createGuardedLookup,
  findForbiddenAddress,
  describeRange,
} from './ssrf';

/**
 * The one outbound HTTP client every source connector uses (OpenAlex, Crossref, arXiv, World
 * Bank, ...). Per attempt: a timeout, a response size cap and the caller's abort signal; between
 * attempts: exponential backoff that honours Retry-After; per host: a concurrency limit; per
 * client: an optional response cache with a TTL, and the SSRF guard (ssrf.ts) on the literal
 * host, on every address a name resolves to when a connection is made, and after every redirect
 * (redirects are followed here, one hop at a time, at most `maxRedirects`).
 */

export interface HttpClientOptions {
  /** Sent on every request unless the request sets its own. */
  userAgent?: string;
  headers?: Record<string, string>;
  /** Per attempt, from sending to the last body byte. Default 15 s. */
  timeoutMs?: number;
  /** Retries after the first attempt for network errors, timeouts, 408, 425, 429, 5xx. Default 3. */
  retries?: number;
  /** First backoff wait, doubled per retry, capped at maxDelayMs, ±jitter. Default 1 s. */
  baseDelayMs?: number;
  /** Default 30 s. */
  maxDelayMs?: number;
  /** Fraction of the backoff added or removed at random. Default 0.1. */
  jitter?: number;
  /** A Retry-After longer than this fails the call at once instead of waiting. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Requests in flight per host (host:port). Default 4. */
  perHostConcurrency?: number;
  /** Largest response body accepted, in bytes (after decompression). Default 20 MB. */
  maxResponseBytes?: number;
  /** Redirects followed per request, each re-checked by the SSRF guard. Default 5. */
  maxRedirects?: number;
  /** Cache successful GET replies for this long (keyed by method and URL). Off when absent. */
  cache?: { ttlMs: number; maxEntries?: number };
  /**
   * UNSAFE FOR PRODUCTION. Hosts, addresses or CIDR ranges the SSRF guard lets through even when
   * they are loopback or private, so tests and local development can reach fixture servers
   * (e.g. ['127.0.0.1']). Empty by default.
   */
  allowPrivateHosts?: readonly string[];
  /** Injectable for tests: the wait between attempts (must reject when the signal aborts). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Injectable for tests: the clock of the cache and of Retry-After dates. */
  now?: () => number;
  random?: () => number;
}

export interface HttpRequestOptions {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number;
  /** Overrides the client's retry count. POST is retried only when this is set. */
  retries?: number;
  /** Set false to bypass the cache for this call. */
  cache?: boolean;
}

export interface HttpResponse {
  status: number;
  ok: boolean;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string>>;
  /** The URL that answered, after redirects. */
  url: string;
  body: Uint8Array;
  text(): string;
  /** Parses the body as JSON; throws an HttpError of kind 'malformed' when it is not. */
  json(): unknown;
  fromCache: boolean;
}

export type HttpErrorKind =
  | 'status' // a reply with a non-2xx status (after retries)
  | 'timeout'
  | 'too_large'
  | 'refused' // the SSRF guard refused the address
  | 'redirect' // too many redirects, or a redirect to a non-http(s) URL
  | 'network'
  | 'aborted' // the caller's signal aborted
  | 'malformed'; // the body is not what was expected (JSON that does not parse, ...)

export class HttpError extends Error {
  constructor(
    readonly kind: HttpErrorKind,
    message: string,
    readonly url: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HttpError';
  }
}

export interface HttpClient {
  request(url: string | URL, options?: HttpRequestOptions): Promise<HttpResponse>;
  /** GET (or the given method) and parse JSON; non-2xx replies throw HttpError 'status'. */
  getJson(url: string | URL, options?: HttpRequestOptions): Promise<unknown>;
  /** GET and return the body as text; non-2xx replies throw HttpError 'status'. */
  getText(url: string | URL, options?: HttpRequestOptions): Promise<string>;
  /** Drops cached replies (all of them). */
  clearCache(): void;
  close(): Promise<void>;
}

const RETRY_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface CachedReply {
  expires: number;
  status: number;
  headers: Record<string, string>;
  url: string;
  body: Uint8Array;
}

const decoder = new TextDecoder();

function makeResponse(r: Omit<CachedReply, 'expires'>, fromCache: boolean): HttpResponse {
  return {
    status: r.status,
    ok: r.status >= 200 && r.status < 300,
    headers: r.headers,
    url: r.url,
    body: r.body,
    fromCache,
    text: () => decoder.decode(r.body),
    json: () => {
      try {
        return JSON.parse(decoder.decode(r.body)) as unknown;
      } catch (cause) {
        throw new HttpError('malformed', `Reply from ${r.url} is not valid JSON`, r.url, r.status, {
          cause,
        });
      }
    },
  };
}

/** Reads a body stream, refusing it once it passes `max` bytes. */
async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  max: number,
  url: string,
): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new HttpError('too_large', `Reply from ${url} is larger than ${max} bytes`, url);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** Strips credentials and the query from a URL for messages (keys travel in queries). */
export function displayUrl(url: string | URL): string {
  try {
    const u = new URL(url.toString());
    return `${u.origin}${u.pathname}`;
  } catch {
    return String(url);
  }
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxRetries = options.retries ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 1000;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const jitter = options.jitter ?? 0.1;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const perHost = options.perHostConcurrency ?? 4;
  const maxBytes = options.maxResponseBytes ?? 20 * 1024 * 1024;
  const maxRedirects = options.maxRedirects ?? 5;
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const check = createAddressCheck(options.allowPrivateHosts);
  const agent = new Agent({ connect: { lookup: createGuardedLookup(check) } });
  const limits = new Map<string, LimitFunction>();
  const cache = new Map<string, CachedReply>();
  const cacheMax = options.cache?.maxEntries ?? 500;

  const limitFor = (url: URL): LimitFunction => {
    let limit = limits.get(url.host);
    if (!limit) {
      limit = pLimit(perHost);
      limits.set(url.host, limit);
    }
    return limit;
  };

  /** One HTTP exchange (no redirects, no retries) under the host's concurrency limit. */
  const exchange = (
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
    attemptTimeoutMs: number,
  ) =>
    limitFor(url)(async () => {
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), attemptTimeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
      try {
        checkUrlHost(url, check);
        const init: UndiciRequestInit = {
          method,
          headers,
          body,
          redirect: 'manual',
          signal: combined,
          dispatcher: agent,
        };
        const res = await undiciFetch(url, init);
        const replyHeaders: Record<string, string> = {};
        res.headers.forEach((value, name) => {
          replyHeaders[name.toLowerCase()] = value;
        });
        const declared = Number(replyHeaders['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          await res.body?.cancel().catch(() => undefined);
          throw new HttpError(
            'too_large',
            `Reply from ${displayUrl(url)} is larger than ${maxBytes} bytes`,
            url.toString(),
            res.status,
          );
        }
        const bytes =
          method === 'HEAD' || REDIRECT_STATUSES.has(res.status)
            ? (await res.body?.cancel().catch(() => undefined), new Uint8Array())
            : await readCapped(
                res.body as ReadableStream<Uint8Array> | null,
                maxBytes,
                displayUrl(url),
              );
        return { status: res.status, headers: replyHeaders, url: url.toString(), body: bytes };
      } catch (error) {
        throw classify(error, url, signal, timeout.signal, attemptTimeoutMs);
      } finally {
        clearTimeout(timer);
      }
    });

  /** One attempt: the exchange plus up to maxRedirects hops, each checked again. */
  const attempt = async (
    start: URL,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
    attemptTimeoutMs: number,
  ) => {
    let url = start;
    let currentMethod = method;
    let currentBody = body;
    let currentHeaders = headers;
    for (let hop = 0; ; hop++) {
      const reply = await exchange(
        url,
        currentMethod,
        currentHeaders,
        currentBody,
        signal,
        attemptTimeoutMs,
      );
      if (!REDIRECT_STATUSES.has(reply.status) || !reply.headers.location) return reply;
      if (hop >= maxRedirects)
        throw new HttpError(
          'redirect',
          `Too many redirects (more than ${maxRedirects}) from ${displayUrl(start)}`,
          start.toString(),
          reply.status,
        );
      let next: URL;
      try {
        next = new URL(reply.headers.location, url);
      } catch (cause) {
        throw new HttpError(
          'redirect',
          `Bad redirect from ${displayUrl(url)}`,
          url.toString(),
          reply.status,
          { cause },
        );
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:')
        throw new HttpError(
          'redirect',
          `Redirect from ${displayUrl(url)} to a ${next.protocol} URL refused`,
          url.toString(),
          reply.status,
        );
      if (
        reply.status === 303 ||
        ((reply.status === 301 || reply.status === 302) && currentMethod === 'POST')
      ) {
        currentMethod = 'GET';
        currentBody = undefined;
      }
      // Credentials are for the origin they were given to.
      if (next.origin !== url.origin) {
        currentHeaders = Object.fromEntries(
          Object.entries(currentHeaders).filter(
            ([k]) => !['authorization', 'cookie', 'x-api-key'].includes(k.toLowerCase()),
          ),
        );
      }
      url = next;
    }
  };

  const backoff = (retry: number) => {
    const raw = baseDelayMs * 2 ** retry;
    return Math.min(maxDelayMs, Math.max(0, raw * (1 + jitter * (2 * random() - 1))));
  };

  const request = async (
    input: string | URL,
    req: HttpRequestOptions = {},
  ): Promise<HttpResponse> => {
    let url: URL;
    try {
      url = new URL(input.toString());
    } catch (cause) {
      throw new HttpError(
        'network',
        `Not a valid URL: ${String(input)}`,
        String(input),
        undefined,
        { cause },
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new HttpError(
        'network',
        `Only http(s) URLs can be fetched, not ${url.protocol}`,
        url.toString(),
      );
    const method = req.method ?? 'GET';
    // A reply fetched with credentials is only reused for the same credentials: a cached private
    // Kaggle file must not reach a user whose key cannot read it.
    const credentials = Object.entries(req.headers ?? {}).find(
      ([name]) => name.toLowerCase() === 'authorization',
    )?.[1];
    const key =
      `${method} ${url.toString()}` +
      (credentials ? ` ${createHash('sha256').update(credentials).digest('hex')}` : '');
    const useCache = Boolean(options.cache) && req.cache !== false && method === 'GET';
    if (useCache) {
      const hit = cache.get(key);
      if (hit && hit.expires > now()) return makeResponse(hit, true);
      if (hit) cache.delete(key);
    }
    const headers: Record<string, string> = {
      accept: 'application/json, application/xml;q=0.9, */*;q=0.8',
      ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
      ...options.headers,
      ...req.headers,
    };
    const retries = req.retries ?? (method === 'POST' ? 0 : maxRetries);
    const attemptTimeout = req.timeoutMs ?? timeoutMs;
    for (let retry = 0; ; retry++) {
      if (req.signal?.aborted)
        throw new HttpError(
          'aborted',
          `Request to ${displayUrl(url)} was cancelled`,
          url.toString(),
          undefined,
          {
            cause: req.signal.reason,
          },
        );
      let wait: number | undefined;
      let failure: HttpError;
      try {
        const reply = await attempt(url, method, headers, req.body, req.signal, attemptTimeout);
        if (!RETRY_STATUSES.has(reply.status) || retry >= retries) {
          if (useCache && reply.status >= 200 && reply.status < 300 && options.cache) {
            cache.set(key, { ...reply, expires: now() + options.cache.ttlMs });
            while (cache.size > cacheMax) cache.delete(cache.keys().next().value as string);
          }
          return makeResponse(reply, false);
        }
        wait = retryAfterMs(reply.headers['retry-after'], now());
        if (wait !== undefined && wait > maxRetryAfterMs) return makeResponse(reply, false);
        failure = new HttpError('status', `HTTP ${reply.status}`, reply.url, reply.status);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        const transient = error.kind === 'network' || error.kind === 'timeout';
        if (!transient || retry >= retries) throw error;
        failure = error;
      }
      try {
        await sleep(wait ?? backoff(retry), req.signal);
      } catch (cause) {
        throw new HttpError(
          'aborted',
          `Request to ${displayUrl(url)} was cancelled`,
          url.toString(),
          failure.status,
          {
            cause,
          },
        );
      }
    }
  };

  const expectOk = (res: HttpResponse): HttpResponse => {
    if (res.ok) return res;
    throw new HttpError(
      'status',
      `HTTP ${res.status} from ${displayUrl(res.url)}`,
      res.url,
      res.status,
    );
  };

  return {
    request,
    getJson: async (url, req) => expectOk(await request(url, req)).json(),
    getText: async (url, req) => expectOk(await request(url, req)).text(),
    clearCache: () => cache.clear(),
    close: () => agent.close(),
  };
}

/** Turns whatever fetch threw into an HttpError that says what happened. */
function classify(
  error: unknown,
  url: URL,
  callerSignal: AbortSignal | undefined,
  timeoutSignal: AbortSignal,
  timeoutMs: number,
): HttpError {
  const shown = displayUrl(url);
  if (error instanceof HttpError) return error;
  const forbidden = findForbiddenAddress(error);
  if (forbidden)
    return new HttpError(
      'refused',
      `Refused to connect to ${forbidden.host}: it is ${describeRange(forbidden.range)}`,
      url.toString(),
      undefined,
      { cause: forbidden },
    );
  if (callerSignal?.aborted)
    return new HttpError(
      'aborted',
      `Request to ${shown} was cancelled`,
      url.toString(),
      undefined,
      {
        cause: callerSignal.reason,
      },
    );
  if (timeoutSignal.aborted)
    return new HttpError(
      'timeout',
      `No complete reply from ${shown} within ${timeoutMs} ms`,
      url.toString(),
      undefined,
      {
        cause: error,
      },
    );
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail =
    cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return new HttpError(
    'network',
    `Could not reach ${shown} (${detail})`,
    url.toString(),
    undefined,
    {
      cause: error,
    },
  );
}
