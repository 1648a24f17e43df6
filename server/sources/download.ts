import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Agent, fetch as undiciFetch } from 'undici';
import { retryAfterMs } from '../../common/retry';
import { abortableSleep, displayUrl, HttpError } from '../platform/http';
import {
  checkUrlHost,
  createAddressCheck,
  createGuardedLookup,
  describeRange,
  findForbiddenAddress,
} from '../platform/ssrf';

/**
 * Downloads a file to disk as a stream (the outbound HTTP client reads replies into memory,
 * which suits API replies but not a 100 MB data file). Same rules as that client: the SSRF guard
 * (ssrf.ts) on the literal host, on every address dialled and after every redirect; a size cap
 * (declared length and counted bytes); a time cap for the whole download; retries for 408, 429
 * and 5xx that honour Retry-After.
 */

export interface DownloaderOptions {
  /** Largest file accepted, in bytes. Default 100 MB. */
  maxBytes?: number;
  /** The whole download, redirects included. Default 120 s. */
  timeoutMs?: number;
  maxRedirects?: number;
  /** Retries after the first attempt. Default 2. */
  retries?: number;
  userAgent?: string;
  /**
   * UNSAFE FOR PRODUCTION. Hosts, addresses or CIDR ranges let through although they are
   * loopback or private (tests' fixture servers). Empty by default.
   */
  allowPrivateHosts?: readonly string[];
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface Downloaded {
  /** The URL that answered, after redirects. */
  url: string;
  contentType: string;
  bytes: number;
  /** From Content-Disposition, else the last path segment of the final URL. */
  fileName: string;
  /** The first bytes, for content checks. */
  head: Buffer;
}

export interface Downloader {
  download(
    url: string,
    file: string,
    options?: { signal?: AbortSignal; headers?: Record<string, string> },
  ): Promise<Downloaded>;
  close(): Promise<void>;
}

const RETRY = new Set([408, 425, 429, 500, 502, 503, 504]);
const REDIRECT = new Set([301, 302, 303, 307, 308]);

function nameFrom(disposition: string | null, url: URL): string {
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition ?? '');
  const plain = /filename="?([^";]+)"?/i.exec(disposition ?? '');
  const raw = star?.[1] ?? plain?.[1];
  if (raw) {
    try {
      return decodeURIComponent(raw.trim());
    } catch {
      return raw.trim();
    }
  }
  const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

export function createDownloader(options: DownloaderOptions = {}): Downloader {
  const maxBytes = options.maxBytes ?? 100 * 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const maxRedirects = options.maxRedirects ?? 5;
  const retries = options.retries ?? 2;
  const sleep = options.sleep ?? abortableSleep;
  const check = createAddressCheck(options.allowPrivateHosts);
  const agent = new Agent({ connect: { lookup: createGuardedLookup(check) } });

  async function once(
    start: URL,
    file: string,
    signal: AbortSignal,
    headers: Record<string, string>,
  ): Promise<Downloaded | { retryAfter: number | undefined; status: number }> {
    let url = start;
    let sendHeaders = headers;
    for (let hop = 0; ; hop++) {
      checkUrlHost(url, check);
      const res = await undiciFetch(url, {
        headers: {
          accept: 'text/csv, application/json, */*;q=0.8',
          ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
          ...sendHeaders,
        },
        redirect: 'manual',
        signal,
        dispatcher: agent,
      });
      const location = res.headers.get('location');
      if (REDIRECT.has(res.status) && location) {
        await res.body?.cancel().catch(() => undefined);
        if (hop >= maxRedirects) {
          throw new HttpError(
            'redirect',
            `Too many redirects from ${displayUrl(start)}`,
            start.toString(),
            res.status,
          );
        }
        const next = new URL(location, url);
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new HttpError(
            'redirect',
            `Redirect to a ${next.protocol} URL refused`,
            url.toString(),
            res.status,
          );
        }
        // Credentials are for the origin they were given to.
        if (next.origin !== url.origin) sendHeaders = {};
        url = next;
        continue;
      }
      if (RETRY.has(res.status)) {
        await res.body?.cancel().catch(() => undefined);
        return {
          retryAfter: retryAfterMs(res.headers.get('retry-after'), Date.now()),
          status: res.status,
        };
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        throw new HttpError(
          'status',
          `HTTP ${res.status} from ${displayUrl(url)}`,
          url.toString(),
          res.status,
        );
      }
      const declared = Number(res.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > maxBytes) {
        await res.body?.cancel().catch(() => undefined);
        throw new HttpError('too_large', tooLarge(maxBytes), url.toString(), res.status);
      }
      let bytes = 0;
      const heads: Buffer[] = [];
      let headBytes = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          if (bytes > maxBytes)
            return done(new HttpError('too_large', tooLarge(maxBytes), url.toString()));
          if (headBytes < 65536) {
            heads.push(chunk);
            headBytes += chunk.length;
          }
          done(null, chunk);
        },
      });
      if (!res.body)
        throw new HttpError('network', `Empty reply from ${displayUrl(url)}`, url.toString());
      await pipeline(
        Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>),
        counter,
        createWriteStream(file),
      );
      return {
        url: url.toString(),
        contentType: (res.headers.get('content-type') ?? '').toLowerCase(),
        bytes,
        fileName: nameFrom(res.headers.get('content-disposition'), url),
        head: Buffer.concat(heads).subarray(0, 65536),
      };
    }
  }

  return {
    async download(raw, file, req = {}) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new HttpError('network', `Not a valid URL: ${raw}`, raw);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new HttpError(
          'network',
          `Only http(s) URLs can be fetched, not ${url.protocol}`,
          raw,
        );
      }
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
      try {
        for (let attempt = 0; ; attempt++) {
          const result = await once(url, file, signal, req.headers ?? {});
          if ('fileName' in result) return result;
          if (attempt >= retries || (result.retryAfter ?? 0) > 30_000) {
            throw new HttpError(
              'status',
              `HTTP ${result.status} from ${displayUrl(url)}`,
              url.toString(),
              result.status,
            );
          }
          await sleep(result.retryAfter ?? 1000 * 2 ** attempt, signal);
        }
      } catch (error) {
        await rm(file, { force: true });
        throw classify(error, url, req.signal, timeout, timeoutMs);
      }
    },
    close: () => agent.close(),
  };
}

const tooLarge = (max: number) => `The file is larger than ${Math.round(max / 1024 / 1024)} MB.`;

function classify(
  error: unknown,
  url: URL,
  callerSignal: AbortSignal | undefined,
  timeout: AbortSignal,
  timeoutMs: number,
): HttpError {
  if (error instanceof HttpError) return error;
  const forbidden = findForbiddenAddress(error);
  if (forbidden) {
    return new HttpError(
      'refused',
      `Refused to connect to ${forbidden.host}: it is ${describeRange(forbidden.range)}. Only public addresses can be fetched.`,
      url.toString(),
    );
  }
  if (callerSignal?.aborted)
    return new HttpError('aborted', 'The download was cancelled', url.toString());
  if (timeout.aborted) {
    return new HttpError(
      'timeout',
      `The download did not finish within ${Math.round(timeoutMs / 1000)} s`,
      url.toString(),
    );
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail =
    cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return new HttpError('network', `Could not reach ${displayUrl(url)} (${detail})`, url.toString());
}
