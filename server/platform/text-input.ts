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

/**
 * True when a string anywhere in the value (keys included) holds U+0000. Iterative, so however
 * deep the value nests it cannot overflow the stack (bodies are limited to MAX_JSON_DEPTH before
 * they are parsed, but query strings and other parsers' output arrive here too).
 */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [key, v] of Object.entries(current)) {
        if (key.includes('\u0000')) return true;
        pending.push(v);
      }
    }
  }
  return false;
}
