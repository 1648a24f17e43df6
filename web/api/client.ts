import type { z } from 'zod';
import { refreshReplySchema } from '../../common/auth';
import { clearSession, getAuth, setAuth } from './session';

/**
 * The one HTTP client of the web app (its error texts: docs/product-rules.md):
 * - JSON bodies and the stored bearer token;
 * - a 401 triggers one token refresh and one retry; a failed refresh clears the stored session;
 * - a non-ok reply becomes `{success:false, error:'HTTP error! status: {code}', message: <server text>}`;
 * - a network error becomes `{success:false, error: <its message> | 'Unknown error'}`.
 * On success `checkedApi` returns the reply parsed by its schema from common/ (a reply that does
 * not match is a failure, never a cast); `api` returns the JSON as is, for replies that have no
 * schema in common/.
 */
export interface ApiFailure {
  success: false;
  /** 'HTTP error! status: {code}', or the network error's message, or 'Unknown error'. */
  error: string;
  /** The server's readable message from the error envelope, when there was one. */
  message?: string;
  status?: number;
  /** The Retry-After header of the reply (seconds or an HTTP date), when it sent one. */
  retryAfter?: string;
}

export type ApiResult<T> = T | ApiFailure;

export function isFailure<T>(result: ApiResult<T>): result is ApiFailure {
  return (
    typeof result === 'object' &&
    result !== null &&
    (result as { success?: unknown }).success === false
  );
}

/** The text to show a user for a failure: the server's message when it gave one. */
export function failureText(failure: ApiFailure): string {
  return failure.message ?? failure.error;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Multipart uploads pass FormData; JSON otherwise. */
  formData?: FormData;
}

const API_BASE = (import.meta.env.VITE_API_BASE as string | undefined) ?? '';

let refreshing: Promise<boolean> | undefined;

/**
 * Runs the refresh under a lock shared by every tab of this site (Web Locks API where there is
 * one): refresh tokens rotate on use, and two tabs refreshing with the same token would look
 * like token theft to the server and sign the user out everywhere.
 */
function withRefreshLock(run: () => Promise<boolean>): Promise<boolean> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  // The DOM typing nests the callback's promise; at run time it is one promise.
  return locks ? locks.request('econagents-token-refresh', run).then((ok) => ok) : run();
}

/**
 * One refresh at a time: concurrent 401s wait for the same refresh. `staleAccessToken` is the
 * token the failed request carried; when the stored one differs by the time the lock is held,
 * another request or tab has already refreshed and there is nothing to do.
 */
export function refreshTokens(staleAccessToken?: string): Promise<boolean> {
  refreshing ??= withRefreshLock(async () => {
    const auth = getAuth();
    if (!auth) return false;
    if (staleAccessToken !== undefined && auth.accessToken !== staleAccessToken) return true;
    try {
      const res = await fetch(`${API_BASE}/api/auth/refresh`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ refreshToken: auth.refreshToken }),
      });
      if (!res.ok) {
        clearSession();
        return false;
      }
      const reply = refreshReplySchema.safeParse(await res.json());
      if (!reply.success) {
        clearSession();
        return false;
      }
      setAuth(reply.data.data.tokens);
      return true;
    } catch {
      return false;
    }
  }).finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = {};
  const auth = getAuth();
  if (auth) headers.Authorization = `Bearer ${auth.accessToken}`;
  let body: BodyInit | undefined;
  if (options.formData) {
    body = options.formData;
  } else if (options.body !== undefined) {
    // No Content-Type without a body: Fastify refuses an empty JSON body.
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  return fetch(`${API_BASE}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body,
    signal: options.signal,
  });
}

async function failureFrom(res: Response): Promise<ApiFailure> {
  let message: string | undefined;
  try {
    const data = (await res.json()) as { message?: unknown; error?: unknown };
    if (typeof data.message === 'string') message = data.message;
    else if (typeof data.error === 'string') message = data.error;
  } catch {
    // not JSON: keep the status text only
  }
  const retryAfter = res.headers.get('retry-after');
  return {
    success: false,
    error: `HTTP error! status: ${res.status}`,
    status: res.status,
    ...(message ? { message } : {}),
    ...(retryAfter ? { retryAfter } : {}),
  };
}

export async function apiRequest<T>(
  path: string,
  options: RequestOptions = {},
): Promise<ApiResult<T>> {
  try {
    const sentWith = getAuth()?.accessToken;
    let res = await send(path, options);
    if (res.status === 401 && getAuth() && !path.startsWith('/api/auth/login')) {
      // Parallel requests that all carried the expired token share one refresh: a request whose
      // 401 arrives after another one already stored a new token just retries with it.
      const current = getAuth()?.accessToken;
      const renewed = current !== sentWith ? true : await refreshTokens(sentWith);
      if (renewed) res = await send(path, options);
    }
    if (!res.ok) return failureFrom(res);
    if (res.status === 204) return { success: true } as T;
    return (await res.json()) as T;
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    return {
      success: false,
      error: err instanceof Error && err.message ? err.message : 'Unknown error',
    };
  }
}

/** A reply that does not match its schema: a failure the screen shows, not a crash later. */
function invalidReply(path: string, error: z.ZodError): ApiFailure {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? ` (at ${issue.path.map(String).join('.')})` : '';
  return {
    success: false,
    error: 'Invalid reply',
    message:
      `The server's reply to ${path.split('?')[0]} was not what this page expects${where}. ` +
      'Reload the page; the application may have been updated.',
  };
}

/** apiRequest with the reply parsed by `schema` (from common/). */
export async function apiCall<S extends z.ZodType>(
  schema: S,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResult<z.output<S>>> {
  const reply = await apiRequest<unknown>(path, options);
  if (isFailure(reply)) return reply;
  const parsed = schema.safeParse(reply);
  return parsed.success ? parsed.data : invalidReply(path, parsed.error);
}

/** The calls of `api` with each reply checked by its schema from common/. */
export const checkedApi = {
  get: <S extends z.ZodType>(schema: S, path: string, signal?: AbortSignal) =>
    apiCall(schema, path, { signal }),
  post: <S extends z.ZodType>(schema: S, path: string, body?: unknown) =>
    apiCall(schema, path, { method: 'POST', body: body ?? {} }),
  put: <S extends z.ZodType>(schema: S, path: string, body?: unknown) =>
    apiCall(schema, path, { method: 'PUT', body: body ?? {} }),
  patch: <S extends z.ZodType>(schema: S, path: string, body?: unknown) =>
    apiCall(schema, path, { method: 'PATCH', body: body ?? {} }),
  delete: <S extends z.ZodType>(schema: S, path: string) =>
    apiCall(schema, path, { method: 'DELETE' }),
  upload: <S extends z.ZodType>(schema: S, path: string, formData: FormData) =>
    apiCall(schema, path, { method: 'POST', formData }),
};

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => apiRequest<T>(path, { signal }),
  post: <T>(path: string, body?: unknown) =>
    apiRequest<T>(path, { method: 'POST', body: body ?? {} }),
  put: <T>(path: string, body?: unknown) =>
    apiRequest<T>(path, { method: 'PUT', body: body ?? {} }),
  patch: <T>(path: string, body?: unknown) =>
    apiRequest<T>(path, { method: 'PATCH', body: body ?? {} }),
  delete: <T>(path: string) => apiRequest<T>(path, { method: 'DELETE' }),
  upload: <T>(path: string, formData: FormData) =>
    apiRequest<T>(path, { method: 'POST', formData }),
};

/**
 * For TanStack Query: returns the success reply or throws an Error whose message is the text to
 * show (server message first).
 */
export async function unwrap<T>(result: Promise<ApiResult<T>>): Promise<T> {
  const r = await result;
  if (isFailure(r)) {
    const err = new Error(failureText(r)) as Error & { status?: number };
    err.status = r.status;
    throw err;
  }
  return r;
}
