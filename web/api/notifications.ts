import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client';

/**
 * In-app notifications of the signed-in user (account approved, a session waiting for input,
 * a session completed or failed). Contract of the notifications module:
 * GET  /api/notifications             -> {success, data:{notifications, unreadCount}}
 * POST /api/notifications/{id}/read   -> marks one read
 * POST /api/notifications/read-all    -> marks all read
 */
export interface AppNotification {
  id: string;
  kind: string;
  title: string;
  message: string;
  /** In-app path the notification leads to. */
  link?: string | null;
  read: boolean;
  createdAt: string;
}

export interface NotificationsReply {
  success: true;
  data: { notifications: AppNotification[]; unreadCount: number };
}

export const NOTIFICATIONS_POLL_MS = 30_000;
export const notificationsKey = ['notifications'] as const;

export function useNotifications(enabled = true) {
  return useQuery({
    queryKey: notificationsKey,
    queryFn: ({ signal }) => unwrap(api.get<NotificationsReply>('/api/notifications', signal)),
    enabled,
    refetchInterval: NOTIFICATIONS_POLL_MS,
    // A missing or failing endpoint must not hammer the server with retries every 30 s.
    retry: false,
  });
}

export function useMarkNotificationRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.post<{ success: true }>(`/api/notifications/${encodeURIComponent(id)}/read`)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsKey }),
  });
}

export function useMarkAllNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.post<{ success: true }>('/api/notifications/read-all')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationsKey }),
  });
}
