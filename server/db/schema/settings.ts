import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/**
 * Per-user settings. The non-secret values are one JSON document (merged over the defaults on
 * read, so new settings need no migration); API keys are AES-256-GCM sealed, one column each.
 */
export const userSettings = pgTable('user_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  values: jsonb('preferences').$type<Record<string, unknown>>().notNull().default({}),
  llmApiKeySealed: text('llm_api_key_sealed'),
  worldBankApiKeySealed: text('world_bank_api_key_sealed'),
  fredApiKeySealed: text('fred_api_key_sealed'),
  kaggleApiKeySealed: text('kaggle_api_key_sealed'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
});
export type UserSettingsRow = typeof userSettings.$inferSelect;
