import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/connect';
import { notifications, type NotificationRow } from '../../db/schema';
import type { NewNotification } from '../../platform/notify';

export function createNotificationsStore(db: Database) {
  const unread = (userId: string) =>
    and(eq(notifications.userId, userId), isNull(notifications.readAt));

  return {
    async insert(userId: string, n: NewNotification): Promise<void> {
      await db.insert(notifications).values({
        userId,
        kind: n.kind,
        title: n.title,
        message: n.message,
        link: n.link ?? null,
      });
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
