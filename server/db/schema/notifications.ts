import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [index('notifications_user_created_idx').on(t.userId, t.createdAt)],
);
export type NotificationRow = typeof notifications.$inferSelect;
