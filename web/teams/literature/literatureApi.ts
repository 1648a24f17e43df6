import { LITERATURE_MESSAGES, LITERATURE_RETRY } from '../../../common/teams/literature';
import { api, failureText, isFailure, type ApiFailure, type ApiResult } from '../../api/client';
import { retryAfterMs } from '../../../common/retry';
import type { SessionHttp } from '../shared';
import { backoffMs } from './rules';

/**
 * The HTTP the Literature screen's session calls go through: a call answered 429 is tried again
 * up to 5 times, waiting as long as Retry-After says (seconds or a date) or 1 s doubled per
 * retry up to 30 s with 10% jitter; after that it fails with the 'high demand' message. A
 * refused start or feedback without any text of its own gets the screen's fallback text.
 */

export const LITERATURE_BASE = '/api/literature-team';

export interface RetryDeps {
  sleep(ms: number): Promise<void>;
  now(): number;
  random(): number;
}

export const defaultHttp: SessionHttp = {
  get: (path, signal) => api.get<unknown>(path, signal),
  post: (path, body) => api.post<unknown>(path, body),
};

export const defaultRetryDeps: RetryDeps = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => Date.now(),
  random: Math.random,
};

const highDemand = (): ApiFailure => ({
  success: false,
  error: LITERATURE_MESSAGES.highDemand,
  message: LITERATURE_MESSAGES.highDemand,
  status: 429,
});

export async function withRetries(
  call: () => Promise<ApiResult<unknown>>,
  deps: RetryDeps,
): Promise<ApiResult<unknown>> {
  for (let retry = 0; ; retry++) {
    const reply = await call();
    if (!isFailure(reply) || reply.status !== 429) return reply;
    if (retry >= LITERATURE_RETRY.maxRetries) return highDemand();
    await deps.sleep(retryAfterMs(reply.retryAfter, deps.now()) ?? backoffMs(retry, deps.random));
  }
}

/** The fallback text of a refused call that says nothing itself. */
function withFallbackText(path: string, reply: ApiResult<unknown>): ApiResult<unknown> {
  if (!isFailure(reply) || failureText(reply)) return reply;
  const fallback = path.endsWith('/start')
    ? LITERATURE_MESSAGES.startFailed
    : path.endsWith('/feedback')
      ? LITERATURE_MESSAGES.feedbackFailed
      : LITERATURE_MESSAGES.unknown;
  return { ...reply, error: fallback, message: fallback };
}

export function literatureHttp(
  http: SessionHttp = defaultHttp,
  deps: RetryDeps = defaultRetryDeps,
): SessionHttp {
  return {
    get: (path, signal) => withRetries(() => http.get(path, signal), deps),
    post: async (path, body) =>
      withFallbackText(path, await withRetries(() => http.post(path, body), deps)),
  };
}
