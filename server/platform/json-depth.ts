import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';

/**
 * Deepest nesting of arrays and objects a JSON body (or WebSocket message) may have. Nothing the
 * API accepts comes near it; a recursive walk over much deeper input overflows the stack.
 */
export const MAX_JSON_DEPTH = 64;

export const TOO_DEEP_MESSAGE = `JSON nested deeper than ${MAX_JSON_DEPTH} levels`;

/**
 * True when the JSON text nests arrays and objects deeper than `max`. One pass over the text, no
 * recursion and no parsing: brackets inside strings (escapes included) are not counted. Run it
 * before JSON.parse so that nothing ever walks a deeper value.
 */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

/**
 * Replaces Fastify's JSON body parser with the same parser (prototype-poisoning checks included)
 * behind the depth check: a body nested deeper than MAX_JSON_DEPTH is answered 400 before it is
 * parsed, on every route.
 */
export function registerJsonDepthLimit(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonTooDeep(text)) {
      done(badRequest(TOO_DEEP_MESSAGE), undefined);
      return;
    }
    parse(request, text, done);
  });
}
