import { lt, sql } from 'drizzle-orm';
import type { Database } from '../db/connect';
import { usedTokens } from '../db/schema';

/**
 * Spends a single-use token: true the first time its id is seen, false ever after (in every
 * process: the record is in the database). One INSERT ... ON CONFLICT DO NOTHING, so two requests
 * racing with the same token cannot both win. Records of tokens that have expired anyway are
 * removed on the way.
 */
export async function spendToken(db: Database, jti: string, expiresAtSeconds: number) {
  await db.delete(usedTokens).where(lt(usedTokens.expiresAt, sql`now()`));
  const rows = await db
    .insert(usedTokens)
    .values({ jti, expiresAt: new Date(expiresAtSeconds * 1000) })
    .onConflictDoNothing({ target: usedTokens.jti })
    .returning({ jti: usedTokens.jti });
  return rows.length === 1;
}
