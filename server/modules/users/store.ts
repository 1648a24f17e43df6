import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/connect';
import { refreshTokens, users, type UserRow } from '../../db/schema';
import type { UserRole, UserStatus } from '../../../common/constants';

class LastAdminError extends Error {}

/** Administrators who can act: approved and not suspended. */
const activeAdmins = and(
  eq(users.role, 'admin'),
  eq(users.status, 'approved'),
  isNull(users.suspendedAt),
);

/**
 * Serialises changes to who is an administrator: role changes, and the administrator created at
 * a start (bootstrap-admin.ts). Any constant, distinct from the migration lock's.
 */
export const ROLE_CHANGE_LOCK_KEY = 724_311_910;

export function createUsersStore(db: Database) {
  return {
    async list(limit: number, offset: number): Promise<{ rows: UserRow[]; total: number }> {
      const rows = await db
        .select()
        .from(users)
        .orderBy(desc(users.createdAt), desc(users.id))
        .limit(limit)
        .offset(offset);
      const [total] = await db.select({ n: count() }).from(users);
      return { rows, total: total?.n ?? 0 };
    },
    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },
    /**
     * Moves a pending user only; undefined when the user was not pending any more. The token
     * version moves on too (a pending user holds no tokens; this keeps every access decision
     * ending whatever was issued before it).
     */
    async decidePending(
      id: string,
      status: Exclude<UserStatus, 'pending'>,
    ): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ status, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
        .where(and(eq(users.id, id), eq(users.status, 'pending')))
        .returning();
      return row;
    },
    /**
     * Updates name and role in one transaction that also checks that an approved admin remains.
     * The transaction first takes a lock that every role change takes, so two concurrent
     * demotions are serialised: the second one counts after the first has committed and cannot
     * remove the last administrator (a plain count under READ COMMITTED would not see the
     * other, uncommitted demotion).
     */
    async update(
      id: string,
      patch: { displayName?: string; role?: UserRole },
    ): Promise<{ row?: UserRow; lastAdmin?: true }> {
      return db
        .transaction(async (tx) => {
          if (patch.role !== undefined) {
            await tx.execute(sql`select pg_advisory_xact_lock(${ROLE_CHANGE_LOCK_KEY})`);
          }
          const [row] = await tx
            .update(users)
            .set({
              ...patch,
              // A new role ends the tokens issued under the old one: open WebSockets, which
              // acted with the old role, are closed (the service announces it) and reconnect.
              ...(patch.role !== undefined
                ? {
                    tokenVersion: sql`case when ${users.role} = ${patch.role} then ${users.tokenVersion} else ${users.tokenVersion} + 1 end`,
                  }
                : {}),
              updatedAt: new Date(),
            })
            .where(eq(users.id, id))
            .returning();
          if (!row) return {};
          const [admins] = await tx.select({ n: count() }).from(users).where(activeAdmins);
          // Throwing inside the transaction rolls the update back.
          if ((admins?.n ?? 0) === 0) throw new LastAdminError();
          return { row };
        })
        .catch((err: unknown) => {
          if (err instanceof LastAdminError) return { lastAdmin: true as const };
          throw err;
        });
    },
    /**
     * Suspends an approved account (ending all of its sessions: refresh tokens revoked, token
     * version moved on) or lifts the suspension. Undefined when the user is not approved.
     */
    async setSuspended(id: string, suspended: boolean): Promise<UserRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({
            suspendedAt: suspended ? new Date() : null,
            tokenVersion: sql`${users.tokenVersion} + 1`,
            updatedAt: new Date(),
          })
          .where(and(eq(users.id, id), eq(users.status, 'approved')))
          .returning();
        if (row && suspended) {
          await tx
            .update(refreshTokens)
            .set({ revokedAt: new Date(), revokedReason: 'suspended' })
            .where(and(eq(refreshTokens.userId, id), isNull(refreshTokens.revokedAt)));
        }
        return row;
      });
    },
    async counts(): Promise<Array<{ role: UserRole; status: UserStatus; n: number }>> {
      return db
        .select({ role: users.role, status: users.status, n: count() })
        .from(users)
        .groupBy(users.role, users.status);
    },
  };
}
export type UsersStore = ReturnType<typeof createUsersStore>;
