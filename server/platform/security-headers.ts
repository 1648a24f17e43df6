import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers on every reply. Its middleware is built once here: @fastify/helmet
 * built it again for every request (parsing the Content-Security-Policy's directives each time,
 * a few percent of a list read's CPU, docs/performance.md "API reads"). Directives that are
 * functions (connect-src's WebSocket host) are still evaluated per request by helmet itself.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const apply = helmet(options);
  app.addHook('onRequest', (request, reply, done) => {
    apply(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}
