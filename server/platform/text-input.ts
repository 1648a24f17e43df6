import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';

/**
 * Text PostgreSQL cannot store is refused at the edge, for every route, with a 400 that names
 * the problem, before a handler can pass it to an insert or a query (where it would fail as a
 * server error): the NUL character (U+0000), and a lone UTF-16 surrogate (`"\ud800"` in JSON,
 * half of a pair with no other half), which is not a character at all and which UTF-8, and so
 * PostgreSQL's text, cannot encode. Path parameters, the query string and JSON bodies are
 * checked here; uploaded files where they are decoded, multipart parts in platform/multipart.ts.
 */

export const NUL_MESSAGE = 'Text may not contain the NUL character (\\u0000)';
export const LONE_SURROGATE_MESSAGE =
  'Text may not contain a lone UTF-16 surrogate (such as \\ud800): it is not a character';

export function registerTextInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const error = badTextError([request.params, request.query, request.body]);
    if (error) throw error;
  });
}

/** Why a string cannot be stored as text: it holds NUL or a lone surrogate. */
function badString(s: string): 'nul' | 'surrogate' | null {
  if (s.includes('\u0000')) return 'nul';
  // isWellFormed (ES2024, in Node 20) is false exactly when a surrogate has no partner.
  return (s as string & { isWellFormed(): boolean }).isWellFormed() ? null : 'surrogate';
}

/**
 * The first problem of a string anywhere in the value (keys included), or null. Iterative, so
 * however deep the value nests it cannot overflow the stack (bodies are limited to
 * MAX_JSON_DEPTH before they are parsed, but query strings and other parsers' output arrive
 * here too).
 */
export function badText(value: unknown): 'nul' | 'surrogate' | null {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      const bad = badString(current);
      if (bad) return bad;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [key, v] of Object.entries(current)) {
        const bad = badString(key);
        if (bad) return bad;
        pending.push(v);
      }
    }
  }
  return null;
}

/** True when a string anywhere in the value (keys included) holds U+0000. */
export function containsNul(value: unknown): boolean {
  return badText(value) === 'nul';
}

/** The 400 for text that cannot be stored, or null when the value's text is fine. */
export function badTextError(value: unknown) {
  const bad = badText(value);
  if (!bad) return null;
  return badRequest(bad === 'nul' ? NUL_MESSAGE : LONE_SURROGATE_MESSAGE);
}
