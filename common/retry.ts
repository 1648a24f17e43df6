/**
 * The retry arithmetic shared by the server's outbound HTTP client, its model calls and the
 * browser's 429 handling (docs/product-rules.md): how long a Retry-After header asks to wait, and
 * the doubling backoff with jitter used when it asks nothing. Pure functions: callers bring the
 * clock and the random source, so tests can fix both.
 */

/** What the doubling backoff needs: the first wait, the cap and the jitter fraction. */
export interface BackoffShape {
  baseDelayMs: number;
  maxDelayMs: number;
  /** Fraction of the computed delay added or removed at random (0.1 = ±10%). */
  jitter: number;
}

/**
 * The wait a Retry-After value asks for, in milliseconds: seconds, or an HTTP date (a date in the
 * past means 0). Undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined | null, now: number): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v) * 1000;
  // Every HTTP-date form starts with the day's name; this keeps '-3' from being read
  // as a year by Date.parse.
  if (!/^[A-Za-z]/.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait before retry number `retry` (0 for the first) when no Retry-After was given. */
export function backoffDelayMs(shape: BackoffShape, retry: number, random: () => number): number {
  const raw = shape.baseDelayMs * 2 ** retry;
  const jittered = raw * (1 + shape.jitter * (2 * random() - 1));
  return Math.min(shape.maxDelayMs, Math.max(0, jittered));
}
