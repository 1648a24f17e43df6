import { z } from 'zod';
import { pageQuerySchema } from './api';

/** In-app notifications (the shell's notifications menu), newest first. */

export const NOTIFICATION_KINDS = [
  'account_approved',
  'session_waiting',
  'session_completed',
  'session_failed',
  'system',
] as const;
export type NotificationKindName = (typeof NOTIFICATION_KINDS)[number];

export const notificationSchema = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  message: z.string(),
  /** In-app path to open, e.g. /app/literature-team?session=... */
  link: z.string().optional(),
  /** The agent session it is about (account and system notices have none). */
  sessionId: z.string().optional(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type NotificationItem = z.infer<typeof notificationSchema>;

export const notificationListQuerySchema = pageQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  unreadOnly: z.preprocess(
    (v) => (v === 'true' ? true : v === 'false' || v === '' ? false : v),
    z.boolean({ message: 'unreadOnly must be true or false' }).default(false),
  ),
});
export type NotificationListQuery = z.input<typeof notificationListQuerySchema>;

export const notificationListReplySchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.object({
    notifications: z.array(notificationSchema),
    total: z.number(),
    unreadCount: z.number(),
    limit: z.number(),
    offset: z.number(),
  }),
});
export type NotificationListReply = z.infer<typeof notificationListReplySchema>;

/**
 * The menu's entries: one per session (all its notifications together, the newest shown, with
 * counts), and each notification without a session on its own; newest first.
 */
export const notificationGroupSchema = z.object({
  /** The session id, or the notification's id for a notification without a session. */
  key: z.string(),
  sessionId: z.string().optional(),
  latest: notificationSchema,
  count: z.number(),
  unreadCount: z.number(),
});
export type NotificationGroup = z.infer<typeof notificationGroupSchema>;

export const notificationGroupsReplySchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.object({
    groups: z.array(notificationGroupSchema),
    /** Groups in all (for paging). */
    total: z.number(),
    /** Unread notifications in all (not groups). */
    unreadCount: z.number(),
    limit: z.number(),
    offset: z.number(),
  }),
});
export type NotificationGroupsReply = z.infer<typeof notificationGroupsReplySchema>;

export const notificationReadReplySchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  data: z.object({ unreadCount: z.number() }),
});
export type NotificationReadReply = z.infer<typeof notificationReadReplySchema>;

/**
 * Routes (`user` access; a user sees only their own):
 * GET  /api/notifications             notificationListQuerySchema -> notificationListReplySchema
 * GET  /api/notifications/groups      notificationListQuerySchema -> notificationGroupsReplySchema
 * POST /api/notifications/sessions/{id}/read  -> notificationReadReplySchema (every notification
 *                                      about that session; 404 if the caller has none)
 * POST /api/notifications/{id}/read   -> notificationReadReplySchema (404 if not the caller's)
 * POST /api/notifications/read-all    -> notificationReadReplySchema
 */
