import type { Database } from '../db/connect';
import { loadActiveUser, type ActiveUser, type ActiveUserCache } from './access';

/**
 * The active user behind each access token, kept in this process so that a request costs no
 * query for it (docs/architecture.md §3, "Access").
 *
 * An entry is dropped:
 * - when a user's access changes in this process (`invalidate`, called before the change is
 *   announced), and when any process announces one on the `user_access_revoked` bus channel
 *   (sign-out, password change or reset, suspension, role change, a reused refresh token);
 * - all at once when the PostgreSQL bus connection was lost and is back (`clear`): messages sent
 *   meanwhile never arrive;
 * - after `ttlMs` at the latest, for writes nobody announces (a display name, the admin command
 *   line run beside the server, SQL by hand).
 *
 * A read racing an invalidation is not stored (the generation moved on while it ran), so a row
 * read before a change cannot outlive the change's message. Users that are not active are not
 * kept: they are refused from the database, and a lifted suspension is seen at once.
 */
export type { ActiveUserCache };

/**
 * The bus channel on which a change of a user's access (sign-out, password, suspension, role) is
 * announced to every process: the user cache here, the socket hub, the command line's reset.
 */
export const ACCESS_REVOKED_CHANNEL = 'user_access_revoked';

/** Longest an entry lives without any message. */
export const ACTIVE_USER_TTL_MS = 5000;
/** More users than this in one process: the cache starts over (bounded memory). */
const MAX_ENTRIES = 10_000;

export function createActiveUserCache(
  db: Database,
  opts: {
    ttlMs?: number;
    now?: () => number;
    /** The read behind a miss (tests replace it). */
    load?: (id: string) => Promise<ActiveUser | undefined>;
  } = {},
): ActiveUserCache {
  const ttlMs = opts.ttlMs ?? ACTIVE_USER_TTL_MS;
  const now = opts.now ?? Date.now;
  const load = opts.load ?? ((id: string) => loadActiveUser(db, id));
  const entries = new Map<string, { user: ActiveUser; until: number }>();
  /** Moves on with every invalidation: a read that started before it is not stored. */
  let generation = 0;

  return {
    async get(id, minVersion) {
      const hit = entries.get(id);
      // A token newer than the row kept: the user signed in after a change not heard of yet.
      if (
        hit &&
        hit.until > now() &&
        (minVersion === undefined || hit.user.tokenVersion >= minVersion)
      ) {
        return hit.user;
      }
      const started = generation;
      const user = await load(id);
      if (!user) {
        entries.delete(id);
        return undefined;
      }
      if (started === generation) {
        if (entries.size >= MAX_ENTRIES) entries.clear();
        entries.set(id, { user, until: now() + ttlMs });
      }
      return user;
    },
    invalidate(id) {
      generation++;
      entries.delete(id);
    },
    clear() {
      generation++;
      entries.clear();
    },
    has: (id) => {
      const hit = entries.get(id);
      return hit !== undefined && hit.until > now();
    },
  };
}
