import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/connect';
import { refreshTokens, users, type RefreshTokenRow, type UserRow } from '../../db/schema';

export type NewUser = Pick<
  UserRow,
  'email' | 'passwordHash' | 'displayName' | 'role' | 'status'
> & {
  reason: string | null;
};

export function createAuthStore(db: Database) {
  return {
    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      return row;
    },
    async findUserById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },
    /** Inserts the user; returns undefined when the email is taken. */
    async insertUser(user: NewUser): Promise<UserRow | undefined> {
      const [row] = await db
        .insert(users)
        .values(user)
        .onConflictDoNothing({ target: users.email })
        .returning();
      return row;
    },
    async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
      await db
        .update(users)
        .set({ passwordHash, updatedAt: new Date() })
        .where(eq(users.id, userId));
    },
    async insertRefreshToken(row: {
      userId: string;
      familyId: string;
      tokenHash: string;
      expiresAt: Date;
    }) {
      await db.insert(refreshTokens).values(row);
    },
    /**
     * Marks a live token as rotated and returns it; undefined when it is unknown, expired or
     * already revoked. One UPDATE, so two concurrent refreshes cannot both win.
     */
    async claimRefreshToken(tokenHash: string): Promise<RefreshTokenRow | undefined> {
      const [row] = await db
        .update(refreshTokens)
        .set({ revokedAt: new Date(), revokedReason: 'rotated' })
        .where(
          and(
            eq(refreshTokens.tokenHash, tokenHash),
            isNull(refreshTokens.revokedAt),
            gt(refreshTokens.expiresAt, sql`now()`),
          ),
        )
        .returning();
      return row;
    },
    async findRefreshToken(tokenHash: string): Promise<RefreshTokenRow | undefined> {
      const [row] = await db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash))
        .limit(1);
      return row;
    },
    async revokeFamily(familyId: string, reason: string): Promise<void> {
      await db
        .update(refreshTokens)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
    },
    /**
     * Moves the user's token version on: every access (and download) token issued before is
     * refused from the next request on (the service then has open WebSockets closed).
     */
    async bumpTokenVersion(userId: string): Promise<void> {
      await db
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, userId));
    },
    /**
     * Ends the user's sessions: revokes every live refresh token except those of `keepFamilyId`
     * and moves the token version on, so no access token issued before works either (the kept
     * session gets a new one with its refresh token). Returns how many refresh tokens ended.
     */
    async revokeUserTokens(userId: string, reason: string, keepFamilyId?: string): Promise<number> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .update(refreshTokens)
          .set({ revokedAt: new Date(), revokedReason: reason })
          .where(
            and(
              eq(refreshTokens.userId, userId),
              isNull(refreshTokens.revokedAt),
              keepFamilyId ? ne(refreshTokens.familyId, keepFamilyId) : undefined,
            ),
          )
          .returning({ id: refreshTokens.id });
        await tx
          .update(users)
          .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
          .where(eq(users.id, userId));
        return rows.length;
      });
    },
  };
}
export type AuthStore = ReturnType<typeof createAuthStore>;
