import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  notificationGroupsReplySchema,
  notificationListReplySchema,
  notificationReadReplySchema,
  type NotificationGroup,
  type NotificationItem,
} from '../../common/notifications';
import { checkedApi, unwrap } from './client';

/**
 * In-app notifications of the signed-in user (account approved, a session waiting for input,
 * a session completed or failed); contract in common/notifications.ts.
 */
export type AppNotification = NotificationItem;
export type AppNotificationGroup = NotificationGroup;

const NOTIFICATIONS_POLL_MS = 30_000;
export const notificationsKey = ['notifications'] as const;

export function useNotifications(enabled = true) {
  return useQuery({
    queryKey: notificationsKey,
    queryFn: ({ signal }) =>
      unwrap(checkedApi.get(notificationListReplySchema, '/api/notifications?limit=20', signal)),
    enabled,
    refetchInterval: NOTIFICATIONS_POLL_MS,
    // A missing or failing endpoint must not hammer the server with retries every 30 s.
    retry: false,
  });
}

/** The menu's entries: one per session with its counts, newest first. */
export function useNotificationGroups(enabled = true) {
  return useQuery({
    queryKey: [...notificationsKey, 'groups'],
    queryFn: ({ signal }) =>
      unwrap(
        checkedApi.get(notificationGroupsReplySchema, '/api/notifications/groups?limit=20', signal),
      ),
    enabled,
    refetchInterval: NOTIFICATIONS_POLL_MS,
    retry: false,
  });
}

/** Marks every notification about one session read. */
export function useMarkSessionNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) =>
      unwrap(
        checkedApi.post(
          notificationReadReplySchema,
          `/api/notifications/sessions/${encodeURIComponent(sessionId)}/read`,
        ),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsKey }),
  });
}

export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(
        checkedApi.post(
          notificationReadReplySchema,
          `/api/notifications/${encodeURIComponent(id)}/read`,
        ),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsKey }),
  });
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(checkedApi.post(notificationReadReplySchema, '/api/notifications/read-all')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsKey }),
  });
}
