import {
  LogController,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import pino from 'pino';

/** Query parameters that carry credentials: removed from every logged URL. */
const SECRET_QUERY_PARAMS = [
  'token',
  'access_token',
  'accessToken',
  'refresh_token',
  'refreshToken',
  'apiKey',
  'api_key',
  'password',
];

/**
 * Errors are logged without the values of a failed query: drizzle's error carries them in
 * `params` and in its message (password hashes, token hashes, e-mail addresses).
 */
export function serializeError(err: Error): pino.SerializedError;
export function serializeError(err: unknown): unknown;
export function serializeError(err: unknown): unknown {
  // Many callers log `{ err: error.message }`: a string is kept, without a failed query's values
  // (spreading it as an error threw inside the logger, which crashed the process on an 'error'
  // event, e.g. when the database ended a connection).
  if (typeof err === 'string') return err.replace(/\nparams: [\s\S]*$/, '');
  if (!(err instanceof Error)) return err;
  const out = { ...pino.stdSerializers.err(err) };
  delete out.params;
  out.message = out.message.replace(/\nparams: [\s\S]*$/, '');
  out.stack = out.stack.replace(/\nparams: [\s\S]*?(\n {4}at )/, '$1');
  return out;
}

export function scrubUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const name of SECRET_QUERY_PARAMS) if (params.has(name)) params.set(name, '[redacted]');
  const rest = params.toString();
  return rest ? `${url.slice(0, q)}?${rest}` : url.slice(0, q);
}

/**
 * Request logs: method, scrubbed URL, status and timing. Bodies are never logged, and the
 * Authorization header and cookies are redacted in case anything logs headers.
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.refreshToken',
        '*.accessToken',
        '*.apiKey',
        '*.newPassword',
        '*.currentPassword',
        '*.passwordHash',
      ],
      censor: '[redacted]',
    },
    serializers: {
      err: serializeError,
      req(request: { method: string; url: string; ip?: string }) {
        return { method: request.method, url: scrubUrl(request.url), ip: request.ip };
      },
    },
  };
}

/**
 * Whether a request is one of the API's (or the WebSocket upgrade): those are logged at info.
 * Everything else is the web app's files (scripts, styles, fonts, index.html), a few dozen per
 * page load: logged at debug, so the info log is about what users did.
 */
export function isApiRequest(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return path === '/api' || path.startsWith('/api/') || path === '/ws';
}

/**
 * Fastify's request lines: "incoming request" and "request completed" at info for API requests
 * (as Fastify writes them), one "request completed" at debug for the web app's files. Errors are
 * logged as Fastify logs them, whatever the URL.
 */
export class RequestLogController extends LogController {
  override incomingRequest(
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (isApiRequest(request.url)) super.incomingRequest(request, reply, metadata);
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (error || isApiRequest(request.url)) {
      super.requestCompleted(error, request, reply, metadata);
      return;
    }
    if (this.isLogDisabled(request)) return;
    request.log.debug(
      { req: request, res: reply, responseTime: reply.elapsedTime },
      'request completed',
    );
  }
}
