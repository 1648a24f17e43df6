import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/connect';
import { notifications, type NotificationRow } from '../../db/schema';
import type { NewNotification } from '../../platform/notify';

export function createNotificationsStore(db: Database) {
  const unread = (userId: string) =>
    and(eq(notifications.userId, userId), isNull(notifications.readAt));

  return {
    /** Nothing is recorded when the user already has one with the same dedupe key. */
    async insert(userId: string, n: NewNotification): Promise<void> {
      await db
        .insert(notifications)
        .values({
          userId,
          kind: n.kind,
          title: n.title,
          message: n.message,
          link: n.link ?? null,
          sessionId: n.sessionId ?? null,
          dedupeKey: n.dedupeKey ?? null,
        })
        .onConflictDoNothing({ target: [notifications.userId, notifications.dedupeKey] });
    },

    async list(
      userId: string,
      opts: { unreadOnly: boolean; limit: number; offset: number },
    ): Promise<{ rows: NotificationRow[]; total: number }> {
      const where = opts.unreadOnly ? unread(userId) : eq(notifications.userId, userId);
      const rows = await db
        .select()
        .from(notifications)
        .where(where)
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(opts.limit)
        .offset(opts.offset);
      const [total] = await db.select({ n: count() }).from(notifications).where(where);
      return { rows, total: total?.n ?? 0 };
    },

    /**
     * The user's notifications grouped: one group per session (its notifications together), and
     * each notification without a session alone; newest group first. Each group comes with its
     * newest notification and its counts.
     */
    async groups(
      userId: string,
      opts: { unreadOnly: boolean; limit: number; offset: number },
    ): Promise<{
      groups: { latest: NotificationRow; count: number; unreadCount: number }[];
      total: number;
    }> {
      const where = opts.unreadOnly ? unread(userId) : eq(notifications.userId, userId);
      const key = sql<string>`coalesce(${notifications.sessionId}, ${notifications.id})`;
      const page = await db
        .select({
          key,
          count: count(),
          unreadCount: sql<number>`(count(*) filter (where ${notifications.readAt} is null))::int`,
        })
        .from(notifications)
        .where(where)
        .groupBy(key)
        .orderBy(desc(sql`max(${notifications.createdAt})`), desc(key))
        .limit(opts.limit)
        .offset(opts.offset);
      const [total] = await db
        .select({ n: sql<number>`(count(distinct ${key}))::int` })
        .from(notifications)
        .where(where);
      if (page.length === 0) return { groups: [], total: total?.n ?? 0 };
      const rows = await db
        .select()
        .from(notifications)
        .where(
          and(
            where,
            inArray(
              key,
              page.map((g) => g.key),
            ),
          ),
        )
        .orderBy(desc(notifications.createdAt), desc(notifications.id));
      const latest = new Map<string, NotificationRow>();
      for (const row of rows) {
        const k = row.sessionId ?? row.id;
        if (!latest.has(k)) latest.set(k, row);
      }
      const groups = page.flatMap((g) => {
        const row = latest.get(g.key);
        return row
          ? [{ latest: row, count: Number(g.count), unreadCount: Number(g.unreadCount) }]
          : [];
      });
      return { groups, total: total?.n ?? 0 };
    },

    /** Marks every notification about one session read; false when the user has none. */
    async markSessionRead(userId: string, sessionId: string): Promise<boolean> {
      const [own] = await db
        .select({ id: notifications.id })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.sessionId, sessionId)))
        .limit(1);
      if (!own) return false;
      await db
        .update(notifications)
        .set({ readAt: new Date() })
        .where(and(unread(userId), eq(notifications.sessionId, sessionId)));
      return true;
    },

    async unreadCount(userId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(notifications).where(unread(userId));
      return row?.n ?? 0;
    },

    /** false when the notification does not exist or is not the user's. */
    async markRead(userId: string, id: string): Promise<boolean> {
      const [own] = await db
        .select({ readAt: notifications.readAt })
        .from(notifications)
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
        .limit(1);
      if (!own) return false;
      if (!own.readAt) {
        await db
          .update(notifications)
          .set({ readAt: new Date() })
          .where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
      }
      return true;
    },

    async markAllRead(userId: string): Promise<void> {
      await db.update(notifications).set({ readAt: new Date() }).where(unread(userId));
    },
  };
}
export type NotificationsStore = ReturnType<typeof createNotificationsStore>;
