import { eq } from 'drizzle-orm';
import type { Database } from '../../db/connect';
import { userSettings, users, type UserSettingsRow } from '../../db/schema';

export type SealedKeyColumn =
  'llmApiKeySealed' | 'worldBankApiKeySealed' | 'fredApiKeySealed' | 'kaggleApiKeySealed';

export interface SettingsWrite {
  values: Record<string, unknown>;
  /** undefined: keep; null: clear; string: the new sealed value. */
  keys: Partial<Record<SealedKeyColumn, string | null>>;
  displayName?: string;
}

export function createSettingsStore(db: Database) {
  return {
    async find(userId: string): Promise<UserSettingsRow | undefined> {
      const [row] = await db
        .select()
        .from(userSettings)
        .where(eq(userSettings.userId, userId))
        .limit(1);
      return row;
    },

    async account(userId: string) {
      const [row] = await db
        .select({ displayName: users.displayName, email: users.email, role: users.role })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      return row;
    },

    /** Writes the settings row (and the profile name) in one transaction. */
    async save(userId: string, write: SettingsWrite): Promise<void> {
      const now = new Date();
      await db.transaction(async (tx) => {
        await tx
          .insert(userSettings)
          .values({ userId, values: write.values, ...write.keys, updatedAt: now })
          .onConflictDoUpdate({
            target: userSettings.userId,
            set: { values: write.values, ...write.keys, updatedAt: now },
          });
        if (write.displayName !== undefined) {
          await tx
            .update(users)
            .set({ displayName: write.displayName, updatedAt: now })
            .where(eq(users.id, userId));
        }
      });
    },
  };
}
export type SettingsStore = ReturnType<typeof createSettingsStore>;
