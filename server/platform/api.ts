import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * The Fastify instance every module registers its routes on (zod schemas, typed replies). Kept
 * in a types-only file so the runtime's types do not import the application context (which
 * imports the runtime: the cycle the dependency rules forbid).
 */
export type Api = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;
