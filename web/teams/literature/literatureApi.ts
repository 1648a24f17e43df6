import type { z } from 'zod';
import {
  LITERATURE_MESSAGES,
  LITERATURE_RETRY,
  literatureFeedbackReplySchema,
  literatureLogsReplySchema,
  literatureStatusReplySchema,
  startLiteratureReplySchema,
  type StartLiteratureRequest,
} from '../../../common/teams/literature';
import { api, isFailure, type ApiFailure, type ApiResult } from '../../api/client';
import { retryAfterMs } from '../../../common/retry';
import { backoffMs } from './rules';

/**
 * The Literature screen's calls (agent-teams.md §7) with the spec's 429 rule (§8, §9): up to 5
 * retries, waiting as long as Retry-After says (seconds or a date) or 1 s doubled per retry up
 * to 30 s with 10% jitter; then the 'high demand' message. Replies are parsed with the contract's
 * schemas.
 */

export const LITERATURE_BASE = '/api/literature-team';

export interface LiteratureHttp {
  get(path: string, signal?: AbortSignal): Promise<ApiResult<unknown>>;
  post(path: string, body?: unknown): Promise<ApiResult<unknown>>;
}

export interface RetryDeps {
  sleep(ms: number): Promise<void>;
  now(): number;
  random(): number;
}

export const defaultHttp: LiteratureHttp = {
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

function parsed<S extends z.ZodType>(schema: S, reply: ApiResult<unknown>): ApiResult<z.output<S>> {
  if (isFailure(reply)) return reply;
  const result = schema.safeParse(reply);
  if (result.success) return result.data;
  return {
    success: false,
    error: 'Invalid reply',
    message: "The server's reply was not what this page expects. Reload the page.",
  };
}

export function literatureApi(
  http: LiteratureHttp = defaultHttp,
  deps: RetryDeps = defaultRetryDeps,
) {
  const id = (sessionId: string) => encodeURIComponent(sessionId);
  return {
    start: async (body: StartLiteratureRequest) =>
      parsed(
        startLiteratureReplySchema,
        await withRetries(() => http.post(`${LITERATURE_BASE}/start`, body), deps),
      ),
    status: async (sessionId: string, signal?: AbortSignal) =>
      parsed(
        literatureStatusReplySchema,
        await withRetries(
          () => http.get(`${LITERATURE_BASE}/status/${id(sessionId)}`, signal),
          deps,
        ),
      ),
    logs: async (sessionId: string, signal?: AbortSignal) =>
      parsed(
        literatureLogsReplySchema,
        await withRetries(() => http.get(`${LITERATURE_BASE}/logs/${id(sessionId)}`, signal), deps),
      ),
    feedback: async (sessionId: string, feedback: string) =>
      parsed(
        literatureFeedbackReplySchema,
        await withRetries(
          () => http.post(`${LITERATURE_BASE}/feedback`, { feedback, sessionId }),
          deps,
        ),
      ),
    /** Stops a running session on the server (the runtime's generic reset). */
    reset: (sessionId: string) => http.post(`/api/agents/sessions/${id(sessionId)}/reset`, {}),
  };
}
export type LiteratureApi = ReturnType<typeof literatureApi>;
