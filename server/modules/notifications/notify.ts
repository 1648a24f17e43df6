import type { Database } from '../../db/connect';
import type { NotificationKind, Notify } from '../../platform/notify';
import type { Settings } from '../../../common/settings';
import { createSessionPresence } from '../../platform/presence';
import { createSettingsStore } from '../settings/store';
import { effectiveSections, readChoices } from '../settings/values';
import { createNotificationsStore } from './store';

/** Which setting switches each kind; 'system' notices cannot be turned off. */
const SWITCH: Record<NotificationKind, keyof Settings['notifications'] | null> = {
  account_approved: 'accountApproved',
  session_waiting: 'sessionWaiting',
  session_completed: 'sessionCompleted',
  session_failed: 'sessionFailed',
  system: null,
};

/** Whether a user's settings let a notification of this kind through. */
export function wantsNotification(values: unknown, kind: NotificationKind): boolean {
  const key = SWITCH[kind];
  if (key === null) return true;
  const s = effectiveSections(readChoices(values));
  return s.profile.notifications && s.notifications[key];
}

/**
 * Records in-app notifications, honouring the user's settings (the master switch under User
 * Profile and the per-event switches under Notifications). A checkpoint of a session the user
 * has on screen right now (server/platform/presence.ts) is not notified: they see it happen.
 * One notification per dedupe key (a checkpoint reached again adds nothing).
 */
export function createNotifier(db: Database): Notify {
  const settings = createSettingsStore(db);
  const store = createNotificationsStore(db);
  const presence = createSessionPresence(db);
  return async (userId, notification) => {
    const row = await settings.find(userId);
    if (!wantsNotification(row?.values, notification.kind)) return;
    if (
      notification.kind === 'session_waiting' &&
      notification.sessionId &&
      (await presence.isWatching(userId, notification.sessionId))
    ) {
      return;
    }
    await store.insert(userId, notification);
  };
}
