import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { NotificationKindName } from '../../../common/notifications';
import { users } from './accounts';

/** In-app notifications, newest first per user. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').defaultRandom().primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<NotificationKindName>().notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    link: text('link'),
    /** The agent session it is about (the menu groups by it); null for account and system notices. */
    sessionId: uuid('session_id'),
    /**
     * At most one notification per user and key, e.g. `checkpoint:<session>:<n>`: a checkpoint
     * reached again (after a revision, a resumed phase) adds nothing.
     */
    dedupeKey: text('dedupe_key'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index('notifications_user_created_idx').on(t.userId, t.createdAt),
    index('notifications_user_session_idx').on(t.userId, t.sessionId),
    uniqueIndex('notifications_user_dedupe_idx').on(t.userId, t.dedupeKey),
  ],
);
export type NotificationRow = typeof notifications.$inferSelect;
