import type { NotificationKindName } from '../../common/notifications';

/**
 * Records a notification for a user (account approved, a session waiting for input, a session
 * completed or failed). The notifications module provides the implementation; other modules
 * only call ctx.notify.
 */
export type NotificationKind = NotificationKindName;

export interface NewNotification {
  kind: NotificationKind;
  title: string;
  message: string;
  /** An in-app path the notification leads to, e.g. /app/literature-team?session=... */
  link?: string;
  /** The agent session it is about: the menu groups a session's notifications in one entry. */
  sessionId?: string;
  /**
   * At most one notification per user and key (e.g. `checkpoint:<session>:<n>`): a second one
   * with the same key is not recorded.
   */
  dedupeKey?: string;
}

export type Notify = (userId: string, notification: NewNotification) => Promise<void>;
