import type { NotificationItem } from '../../../common/notifications';
import type { NotificationRow } from '../../db/schema';
import { notFound } from '../../platform/errors';
import type { NotificationsStore } from './store';

export function toNotification(row: NotificationRow): NotificationItem {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    message: row.message,
    ...(row.link ? { link: row.link } : {}),
    ...(row.sessionId ? { sessionId: row.sessionId } : {}),
    read: row.readAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A user's own notifications; others' answer 404. */
export function createNotificationsService(store: NotificationsStore) {
  return {
    async list(userId: string, q: { unreadOnly: boolean; limit: number; offset: number }) {
      const { rows, total, unreadCount } = await store.list(userId, q);
      return {
        notifications: rows.map(toNotification),
        total,
        unreadCount,
        limit: q.limit,
        offset: q.offset,
      };
    },

    async groups(userId: string, q: { unreadOnly: boolean; limit: number; offset: number }) {
      const { groups, total, unreadCount } = await store.groups(userId, q);
      return {
        groups: groups.map((g) => ({
          key: g.latest.sessionId ?? g.latest.id,
          ...(g.latest.sessionId ? { sessionId: g.latest.sessionId } : {}),
          latest: toNotification(g.latest),
          count: g.count,
          unreadCount: g.unreadCount,
        })),
        total,
        unreadCount,
        limit: q.limit,
        offset: q.offset,
      };
    },

    async markSessionRead(userId: string, sessionId: string) {
      if (!(await store.markSessionRead(userId, sessionId))) throw notFound('Notification');
      return { unreadCount: await store.unreadCount(userId) };
    },

    async markRead(userId: string, id: string) {
      if (!(await store.markRead(userId, id))) throw notFound('Notification');
      return { unreadCount: await store.unreadCount(userId) };
    },

    async markAllRead(userId: string) {
      await store.markAllRead(userId);
      return { unreadCount: await store.unreadCount(userId) };
    },
  };
}
