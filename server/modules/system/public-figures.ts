import { count, eq } from 'drizzle-orm';
import { PUBLIC_FIGURES_CACHE_SECONDS, type PublicFigures } from '../../../common/public-figures';
import type { Database } from '../../db/connect';
import { agentSessions, users } from '../../db/schema';

/**
 * The landing page's figures, counted from this install: approved accounts and completed team
 * sessions. Two count queries at most once per cache period, however often the public page is
 * opened (concurrent readers share one pending count).
 */
export function createPublicFigures(
  db: Database,
  options: { ttlMs?: number; now?: () => number } = {},
) {
  const ttlMs = options.ttlMs ?? PUBLIC_FIGURES_CACHE_SECONDS * 1000;
  const now = options.now ?? Date.now;
  let cached: { at: number; value: Promise<PublicFigures> } | undefined;

  async function countNow(): Promise<PublicFigures> {
    const [[researchers], [sessions]] = await Promise.all([
      db.select({ n: count() }).from(users).where(eq(users.status, 'approved')),
      db.select({ n: count() }).from(agentSessions).where(eq(agentSessions.status, 'completed')),
    ]);
    return {
      researchers: Number(researchers?.n ?? 0),
      completedSessions: Number(sessions?.n ?? 0),
    };
  }

  return {
    read(): Promise<PublicFigures> {
      if (cached && now() - cached.at < ttlMs) return cached.value;
      const value = countNow();
      cached = { at: now(), value };
      // A failed count is not kept: the next reader tries again.
      value.catch(() => {
        if (cached?.value === value) cached = undefined;
      });
      return value;
    },
  };
}
