import type { FastifyServerOptions } from 'fastify';

/** Query parameters that carry credentials: removed from every logged URL. */
const SECRET_QUERY_PARAMS = ['token', 'access_token', 'refreshToken', 'apiKey'];

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
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string }) {
        return { method: request.method, url: scrubUrl(request.url), ip: request.ip };
      },
    },
  };
}
