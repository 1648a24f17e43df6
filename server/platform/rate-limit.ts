import rateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db/connect';
import { rateLimitHits } from '../db/schema';

/**
 * Rate limits for the calls that attackers like: login, register, refresh and the public
 * waiting list. Counted per route and client address in the database, so several processes
 * behind a load balancer share one limit and a restart does not reset it.
 */
export async function registerRateLimits(app: FastifyInstance, db: Database): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    store: databaseStore(db),
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

/** Counters whose window ended this long ago are deleted (now and then, by any process). */
const EXPIRED_ROW_GRACE = sql`interval '1 hour'`;
const CLEANUP_EVERY_N_HITS = 200;

/**
 * Counts one hit for `key` in a fixed window of `windowMs` and says how many hits the window
 * holds and how long it has left. One statement, so concurrent processes cannot lose a hit; the
 * database's clock decides, so processes with skewed clocks agree.
 */
export async function countHit(
  db: Database,
  key: string,
  windowMs: number,
): Promise<{ current: number; ttl: number }> {
  const newWindowEnd = sql`now() + ${windowMs} * interval '1 millisecond'`;
  const expired = sql`${rateLimitHits.windowEndsAt} <= now()`;
  const [row] = await db
    .insert(rateLimitHits)
    .values({ key, windowEndsAt: newWindowEnd, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimitHits.key,
      set: {
        hits: sql`case when ${expired} then 1 else ${rateLimitHits.hits} + 1 end`,
        windowEndsAt: sql`case when ${expired} then ${newWindowEnd} else ${rateLimitHits.windowEndsAt} end`,
      },
    })
    .returning({
      hits: rateLimitHits.hits,
      leftMs: sql<string>`greatest(0, extract(epoch from (${rateLimitHits.windowEndsAt} - now())) * 1000)`,
    });
  if (!row) throw new Error('rate limit counter was not written');
  return { current: row.hits, ttl: Math.ceil(Number(row.leftMs)) };
}

/** Deletes counters whose window ended more than an hour ago. */
export async function deleteExpiredHits(db: Database): Promise<number> {
  const gone = await db
    .delete(rateLimitHits)
    .where(lt(rateLimitHits.windowEndsAt, sql`now() - ${EXPIRED_ROW_GRACE}`))
    .returning({ key: rateLimitHits.key });
  return gone.length;
}

/** @fastify/rate-limit's store interface over countHit; one child per route. */
function databaseStore(db: Database): FastifyRateLimitStoreCtor {
  let hitsSinceCleanup = 0;
  class DatabaseStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = '',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      if (++hitsSinceCleanup >= CLEANUP_EVERY_N_HITS) {
        hitsSinceCleanup = 0;
        void deleteExpiredHits(db).catch(() => undefined);
      }
      countHit(db, this.prefix + key, timeWindow).then(
        (result) => callback(null, result),
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    }

    // At run time the plugin passes the merged route settings with the route in `routeInfo`
    // (its type declarations say RouteOptions).
    child(routeOptions: object): DatabaseStore {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      return new DatabaseStore(
        undefined,
        `${String(route?.method ?? '')} ${String(route?.url ?? '')} `,
      );
    }
  }
  return DatabaseStore as unknown as FastifyRateLimitStoreCtor;
}
