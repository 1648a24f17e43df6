import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const waitingListEntries = pgTable('waiting_list_entries', {
  id: uuid('id').defaultRandom().primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  affiliation: text('affiliation'),
  interestArea: text('interest_area'),
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
});
export type WaitingListRow = typeof waitingListEntries.$inferSelect;
