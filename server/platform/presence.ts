import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/connect';
import { sessionWatchers } from '../db/schema';

/**
 * Which sessions researchers have on screen, shared by every process through the database
 * (table session_watchers). The WebSocket hub of the process that holds a connection writes it
 * (watch, refresh at each heartbeat, unwatch); the notifier of whichever process reaches a
 * checkpoint reads it. Times are the database's clock, so processes need not agree on theirs;
 * a row outlives a dead process by its time to live at most.
 */
export interface SessionPresence {
  watch(connectionId: string, userId: string, sessionId: string, ttlMs: number): Promise<void>;
  /** One session of a connection, or all of them. */
  unwatch(connectionId: string, sessionId?: string): Promise<void>;
  /** Extends the rows of these connections (the hub's heartbeat). */
  refresh(connectionIds: readonly string[], ttlMs: number): Promise<void>;
  /** Whether the user has the session on a screen now (a fresh row of any connection). */
  isWatching(userId: string, sessionId: string): Promise<boolean>;
}

const until = (ttlMs: number) =>
  sql`now() + make_interval(secs => ${Math.max(1, Math.ceil(ttlMs / 1000))})`;

export function createSessionPresence(db: Database): SessionPresence {
  return {
    async watch(connectionId, userId, sessionId, ttlMs) {
      await db
        .insert(sessionWatchers)
        .values({ connectionId, userId, sessionId, expiresAt: until(ttlMs) })
        .onConflictDoUpdate({
          target: [sessionWatchers.connectionId, sessionWatchers.sessionId],
          set: { expiresAt: until(ttlMs) },
        });
    },

    async unwatch(connectionId, sessionId) {
      await db
        .delete(sessionWatchers)
        .where(
          sessionId
            ? and(
                eq(sessionWatchers.connectionId, connectionId),
                eq(sessionWatchers.sessionId, sessionId),
              )
            : eq(sessionWatchers.connectionId, connectionId),
        );
    },

    async refresh(connectionIds, ttlMs) {
      if (connectionIds.length === 0) return;
      await db
        .update(sessionWatchers)
        .set({ expiresAt: until(ttlMs) })
        .where(inArray(sessionWatchers.connectionId, [...connectionIds]));
      // Rows of dead processes are cleared on the way.
      await db.delete(sessionWatchers).where(sql`${sessionWatchers.expiresAt} < now()`);
    },

    async isWatching(userId, sessionId) {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(sessionWatchers)
        .where(
          and(
            eq(sessionWatchers.userId, userId),
            eq(sessionWatchers.sessionId, sessionId),
            gt(sessionWatchers.expiresAt, sql`now()`),
          ),
        )
        .limit(1);
      return row !== undefined;
    },
  };
}
