import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';

/**
 * PostgreSQL text cannot hold the NUL character (U+0000): a string carrying one would make the
 * insert or the query fail with a server error. Such input is refused at the edge, for every
 * route, with a 400 that names the problem. (Uploaded files are checked where they are decoded.)
 */
export function registerTextInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      throw badRequest('Text may not contain the NUL character (\\u0000)');
    }
  });
}

/** True when a string anywhere in the value (keys included) holds U+0000. */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    return Object.entries(value).some(([key, v]) => key.includes('\u0000') || containsNul(v));
  }
  return false;
}
