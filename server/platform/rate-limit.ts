import rateLimit from '@fastify/rate-limit';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';

/**
 * Rate limits for the calls that attackers like: login, register, refresh and the public
 * waiting list. Counted per client address, in memory per process.
 */
export async function registerRateLimits(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    addHeadersOnExceeding: {
      'x-ratelimit-limit': true,
      'x-ratelimit-remaining': true,
      'x-ratelimit-reset': true,
    },
    addHeaders: {
      'x-ratelimit-limit': true,
      'x-ratelimit-remaining': true,
      'x-ratelimit-reset': true,
      'retry-after': true,
    },
    errorResponseBuilder: (_req, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      const err = new Error(
        `Too many requests, please try again in ${seconds} seconds`,
      ) as Error & {
        statusCode: number;
      };
      err.statusCode = 429;
      return err;
    },
  });
}

/** Route config for a rate-limited route. */
export function limited(
  max: number,
  windowSeconds: number,
): Pick<FastifyContextConfig, 'rateLimit'> {
  return { rateLimit: { max, timeWindow: windowSeconds * 1000 } };
}
