import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorReply } from '../../common/api';

/**
 * Domain errors. Services throw these without knowing about HTTP; the error handler below maps
 * the kind to a status and writes the one envelope `{ success: false, error, message }`
 * (docs/architecture.md §4).
 */
export type ErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'unprocessable'
  | 'too_many_requests'
  | 'unavailable';

const STATUS: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unprocessable: 422,
  too_many_requests: 429,
  unavailable: 503,
};

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Optional longer explanation; the envelope's `message` field. */
    readonly detail?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
  get status(): number {
    return STATUS[this.kind];
  }
}

export const badRequest = (m: string) => new AppError('bad_request', m);
export const unauthorized = (m = 'Authentication required') => new AppError('unauthorized', m);
export const forbidden = (m = 'You are not allowed to do this') => new AppError('forbidden', m);
export const notFound = (what = 'Resource') => new AppError('not_found', `${what} not found`);
export const conflict = (m: string) => new AppError('conflict', m);

export function errorReply(error: string, message = error): ErrorReply {
  return { success: false, error, message };
}

interface ZodLikeIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string } };
}

/** Turns a schema validation failure into one readable sentence that names the field. */
function describeValidation(error: FastifyError): string {
  const issues = (error.validation ?? []) as ZodLikeIssue[];
  const parts = issues.slice(0, 5).map((issue) => {
    const p = issue.params?.issue?.path;
    const field =
      p && p.length > 0 ? p.map(String).join('.') : (issue.instancePath ?? '').replace(/^\//, '');
    const msg = issue.params?.issue?.message ?? issue.message ?? 'is invalid';
    if (!field) return msg;
    // Our schema messages usually start with the field name already.
    return msg.toLowerCase().startsWith(field.toLowerCase()) ? msg : `${field}: ${msg}`;
  });
  const where = error.validationContext ? ` in ${error.validationContext}` : '';
  return parts.length > 0 ? `Invalid request${where}: ${parts.join('; ')}` : 'Invalid request';
}

export function registerErrorHandling(app: FastifyInstance): void {
  // The API speaks JSON (and multipart where a module registers it). Fastify would also parse
  // text/plain into a string, turning a wrong content type into a confusing 400 about the body
  // shape; without that parser it is the 415 below, like every other unsupported type.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      if (err.retryAfterSeconds !== undefined)
        reply.header('Retry-After', String(err.retryAfterSeconds));
      return reply.status(err.status).send(errorReply(err.message, err.detail ?? err.message));
    }
    if (hasZodFastifySchemaValidationErrors(err) || err.validation) {
      const text = describeValidation(err as FastifyError);
      return reply.status(400).send(errorReply(text));
    }
    const status = err.statusCode ?? 500;
    if (status === 429) {
      return reply
        .status(429)
        .send(errorReply(err.message || 'Too many requests, please try again later'));
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
      return reply.status(413).send(errorReply('Request body is too large'));
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
      return reply.status(415).send(errorReply('Unsupported content type: send application/json'));
    }
    if (
      err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      err.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
    ) {
      return reply.status(400).send(errorReply('Request body is not valid JSON'));
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send(errorReply(err.message || 'Bad request'));
    }
    request.log.error({ err }, 'unhandled error');
    return reply
      .status(500)
      .send(
        errorReply(
          'Internal server error',
          'Something went wrong on the server; the error has been logged.',
        ),
      );
  });
}
