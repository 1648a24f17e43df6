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

/**
 * Single-use tokens that were spent (the waiting-list download token): a second use of the same
 * token id is refused. Rows are kept until the token would have expired anyway.
 */
export const usedTokens = pgTable('used_tokens', {
  jti: text('jti').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
