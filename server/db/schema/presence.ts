import { index, primaryKey, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { agentSessions } from './agents';

/**
 * Which sessions are on a researcher's screen right now: one row per WebSocket connection and
 * session its team screen says it shows (while the page is visible). Written by the socket hub
 * of whichever process holds the connection, refreshed at every heartbeat, deleted when the
 * screen leaves the session or the connection closes; a row past `expires_at` (its process died)
 * counts for nothing. Read when a checkpoint would notify the owner (docs/architecture.md).
 */
export const sessionWatchers = pgTable(
  'session_watchers',
  {
    connectionId: text('connection_id').notNull(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => agentSessions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.sessionId] }),
    index('session_watchers_user_session_idx').on(t.userId, t.sessionId),
  ],
);
export type SessionWatcherRow = typeof sessionWatchers.$inferSelect;
