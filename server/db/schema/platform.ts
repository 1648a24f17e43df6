import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Rate-limit counters (server/platform/rate-limit.ts), one row per route and client address, in
 * the database so that every process behind a load balancer counts against the same limit.
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  /** When the current counting window ends; the next hit after it starts a new one. */
  windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
  hits: integer('hits').notNull(),
});
