import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';

/**
 * One row per model call made through the model layer (server/agents/llm): a logical call, so a
 * structured-output call that needed a repair is one row with the tokens of both requests.
 * Failed calls are recorded too (status 'error') with whatever tokens they consumed.
 * `costUsd` is an estimate from the price table; null when the model's price is unknown.
 */
export const llmCalls = pgTable(
  'llm_calls',
  {
    id: uuid('id').defaultRandom().primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The agent session, when the call belongs to one (text: the runtime owns the id format). */
    sessionId: text('session_id'),
    agent: text('agent').notNull(),
    phase: text('phase').notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    /** 'user' when the user's own key/provider was used, 'server' for the server's. */
    keySource: text('key_source').$type<'user' | 'server'>().notNull(),
    kind: text('kind').$type<'text' | 'object'>().notNull(),
    status: text('status').$type<'ok' | 'error'>().notNull(),
    /** ModelCallError kind when status is 'error'. */
    errorKind: text('error_kind'),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    latencyMs: integer('latency_ms').notNull(),
    /** HTTP requests made (retries and the repair request included). */
    requests: integer('requests').notNull().default(1),
    repaired: boolean('repaired').notNull().default(false),
    costUsd: doublePrecision('cost_usd'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index('llm_calls_session_idx')
      .on(t.sessionId)
      .where(sql`${t.sessionId} is not null`),
    index('llm_calls_user_created_idx').on(t.userId, t.createdAt),
  ],
);
export type LlmCallRow = typeof llmCalls.$inferSelect;
export type NewLlmCallRow = typeof llmCalls.$inferInsert;
