import type { Database } from '../../db/connect';
import type { Notify } from '../../platform/notify';

/** Placeholder until the notifications module stores them: see the web-platform issue. */
export function createNotifier(_db: Database): Notify {
  return async () => undefined;
}
