import { backoffDelayMs as backoff, retryAfterMs } from '../../../common/retry';
import { abortableSleep } from '../../platform/http';

/**
 * Backoff for transient model failures (docs/product-rules.md, "Waiting and retrying"): up to
 * 5 retries, 1 s doubled per
 * attempt, capped at 30 s, with 10% jitter when the provider gave no Retry-After; a
 * Retry-After (seconds or an HTTP date, or OpenAI's retry-after-ms) is honoured as given.
 */
export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Fraction of the computed delay added or removed at random (0.1 = ±10%). */
  jitter: number;
  /** A provider asking for a longer wait than this fails the call at once instead. */
  maxRetryAfterMs: number;
  /** Multiplies every wait, Retry-After included; tests use a small factor. */
  delayScale: number;
  /** Injectable for tests. Rejects with the signal's reason when it aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  jitter: 0.1,
  maxRetryAfterMs: 120_000,
  delayScale: 1,
  sleep: abortableSleep,
  random: Math.random,
};

function header(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/**
 * The wait a reply asks for, in milliseconds: `retry-after-ms`, else `Retry-After` as seconds
 * or an HTTP date (a date in the past means 0). Undefined when absent or unreadable.
 */
export function parseRetryAfterMs(
  headers: Record<string, string> | undefined,
  now: number = Date.now(),
): number | undefined {
  const ms = header(headers, 'retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Number(ms);
  return retryAfterMs(header(headers, 'retry-after'), now);
}

/** The wait before retry number `retry` (0 for the first retry) when no Retry-After was given. */
export function backoffDelayMs(policy: RetryPolicy, retry: number): number {
  return backoff(policy, retry, policy.random);
}
