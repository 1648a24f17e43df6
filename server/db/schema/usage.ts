import { doublePrecision, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/**
 * A user's own model prices (Settings > Usage), in US dollars per million tokens, over the
 * built-in defaults (common/usage.ts) and the server's LLM_PRICES_JSON. `model` is the model id
 * as sent to the provider, lower-cased. Costs are computed when read, from llm_calls' tokens, so
 * a changed price applies to past calls too.
 */
export const userModelPrices = pgTable(
  'user_model_prices',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    model: text('model').notNull(),
    inputUsdPerMillion: doublePrecision('input_usd_per_million').notNull(),
    outputUsdPerMillion: doublePrecision('output_usd_per_million').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.model] })],
);
export type UserModelPriceRow = typeof userModelPrices.$inferSelect;
