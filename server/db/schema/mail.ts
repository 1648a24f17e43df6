import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Every e-mail the platform sends is recorded here. Without SMTP it stays 'stored' (an
 * administrator can read it); with SMTP it becomes 'sent' or 'failed' with the error.
 */
export const emailOutbox = pgTable('email_outbox', {
  id: uuid('id').defaultRandom().primaryKey(),
  to: text('to_address').notNull(),
  subject: text('subject').notNull(),
  text: text('body_text').notNull(),
  status: text('status').$type<'stored' | 'sent' | 'failed'>().notNull().default('stored'),
  error: text('error'),
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});
export type EmailOutboxRow = typeof emailOutbox.$inferSelect;
