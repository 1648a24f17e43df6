import { APICallError } from 'ai';
import { findForbiddenAddress, parseUserBaseUrl, refusalFor } from './base-url-guard';
import {
  details,
  formatSeconds,
  modelName,
  originOf,
  type Resolved,
  type Tally,
  type Transient,
} from './call-state';
import { ModelCallError } from './errors';
import { parseRetryAfterMs } from './retry';

/**
 * Error classification: what a failed request means (retry it, or which ModelCallError with
 * which user-readable message), with the provider's own text and never a key.
 */

const MAX_PROVIDER_MESSAGE = 300;
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Transient failures come back to be retried; every other failure is thrown here. */
export function classifyFailure(
  error: unknown,
  r: Resolved,
  tally: Tally,
  timedOut: boolean,
  timeoutMs: number,
): Transient {
  const forbidden = findForbiddenAddress(error);
  if (forbidden && r.target.baseUrl) {
    throw refusalFor(parseUserBaseUrl(r.target.baseUrl).origin, forbidden);
  }
  if (timedOut) {
    return { kind: 'timeout', message: `no answer within ${formatSeconds(timeoutMs)}` };
  }
  const where = modelName(r.target);
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const providerMessage = scrub(providerMessageOf(error), r.target.apiKey);
    if (status === 429) {
      return {
        kind: 'rate_limited',
        status,
        retryAfterMs: parseRetryAfterMs(error.responseHeaders),
        message: providerMessage,
      };
    }
    if (status === 408) return { kind: 'timeout', status, message: providerMessage };
    if (status !== undefined && status >= 500) {
      return {
        kind: 'server_error',
        status,
        retryAfterMs: parseRetryAfterMs(error.responseHeaders),
        message: providerMessage,
      };
    }
    if (status === 401 || status === 403) {
      const fix =
        r.target.source === 'user'
          ? 'Check your API key under Settings > API Keys.'
          : 'An administrator needs to check the API key configured on the server.';
      throw new ModelCallError(
        'auth',
        `The model provider (${where}) refused the API key (HTTP ${status}): ${providerMessage}. ${fix}`,
        details(r.target, tally, status),
        { cause: error },
      );
    }
    if (status === 404) {
      throw new ModelCallError(
        'bad_request',
        `The model provider (${where}) does not know this model or endpoint (HTTP 404): ` +
          `${providerMessage}. Check the model under Settings > AI (or LLM_MODEL on the server).`,
        details(r.target, tally, status),
        { cause: error },
      );
    }
    if (status !== undefined) {
      throw new ModelCallError(
        'bad_request',
        `The model provider (${where}) rejected the request (HTTP ${status}): ${providerMessage}`,
        details(r.target, tally, status),
        { cause: error },
      );
    }
    // No status: the server could not be reached or the connection broke.
    const code = errorCode(error);
    if (code && TRANSIENT_NETWORK_CODES.has(code)) {
      return { kind: 'network', message: `connection failed (${code})` };
    }
    throw new ModelCallError(
      'network',
      `Could not reach the model server (${where}${originOf(r.target)}): ${providerMessage}`,
      details(r.target, tally),
      { cause: error },
    );
  }
  const message = scrub(error instanceof Error ? error.message : String(error), r.target.apiKey);
  throw new ModelCallError(
    'server_error',
    `The model server (${where}) sent a reply that could not be read: ${truncate(message)}`,
    details(r.target, tally),
    { cause: error },
  );
}

/** The error of a transient failure that is not retried again (retries used up, long wait). */
export function finalError(
  t: Transient,
  r: Resolved,
  tally: Tally,
  retries: number,
  waitMs: number,
  maxRetryAfterMs: number,
): ModelCallError {
  const where = modelName(r.target);
  const after = retries > 0 ? `, also after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '';
  const d = {
    ...details(r.target, tally, t.status),
    ...(t.retryAfterMs !== undefined
      ? { retryAfterSeconds: Math.ceil(t.retryAfterMs / 1000) }
      : {}),
  };
  switch (t.kind) {
    case 'rate_limited': {
      const longWait =
        waitMs > maxRetryAfterMs ? ` The provider asked to wait ${formatSeconds(waitMs)}.` : '';
      return new ModelCallError(
        'rate_limited',
        `The model provider (${where}) is rate-limiting requests (HTTP 429)${after}.${longWait} ` +
          'Service temporarily unavailable due to high demand. Please try again in a few minutes.',
        d,
      );
    }
    case 'server_error':
      return new ModelCallError(
        'server_error',
        `The model provider (${where}) failed with HTTP ${t.status}${after}: ${t.message}. ` +
          'Please try again later.',
        d,
      );
    case 'timeout':
      return new ModelCallError(
        'timeout',
        `The model (${where}) did not answer within ${formatSeconds(
          r.settings.requestTimeoutSeconds * 1000,
        )}${after}. Try again later, or raise the request timeout under Settings > API Keys.`,
        d,
      );
    case 'network':
      return new ModelCallError(
        'network',
        `The connection to the model server (${where}${originOf(r.target)}) failed${after}: ` +
          `${t.message}.`,
        d,
      );
  }
}

/**
 * A 400/422 to a JSON-schema request that names the feature: the server does not take
 * response_format json_schema (older LM Studio, llama.cpp builds, some proxies).
 */
export function isSchemaRejection(error: unknown): boolean {
  return (
    error instanceof ModelCallError &&
    error.kind === 'bad_request' &&
    (error.details.status === 400 || error.details.status === 422) &&
    /response_format|json_schema|json schema|structured|guided/i.test(error.message)
  );
}

const truncate = (text: string) =>
  text.length > MAX_PROVIDER_MESSAGE ? `${text.slice(0, MAX_PROVIDER_MESSAGE)}…` : text;

/** Removes the key (and long key-like tokens) from provider messages before they go anywhere. */
function scrub(text: string, apiKey: string | undefined): string {
  let out = text;
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join('***');
  out = out.replace(/\b(sk|sk-ant|sk-proj)-[A-Za-z0-9_*-]{8,}/g, '***');
  return truncate(out);
}

/** The provider's own error message (OpenAI-style `{error:{message}}`), else the SDK's. */
function providerMessageOf(error: APICallError): string {
  const data = error.data as { error?: { message?: unknown } } | undefined;
  if (typeof data?.error?.message === 'string') return data.error.message;
  if (error.responseBody) {
    try {
      const body = JSON.parse(error.responseBody) as { error?: { message?: unknown } | string };
      if (typeof body.error === 'string') return body.error;
      if (typeof body.error?.message === 'string') return body.error.message;
    } catch {
      // not JSON: fall through
    }
  }
  const causeCode = errorCode(error);
  return causeCode ? `${error.message} (${causeCode})` : error.message;
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
