import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { UserRole, UserStatus } from '../../../common/constants';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
};

export const users = pgTable('users', {
  id: uuid('id').defaultRandom().primaryKey(),
  /** Stored trimmed and lower-cased: uniqueness ignores case. */
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  displayName: text('display_name').notNull(),
  role: text('role').$type<UserRole>().notNull().default('researcher'),
  status: text('status').$type<UserStatus>().notNull().default('pending'),
  reason: text('reason'),
  /**
   * Every access token carries the version it was issued under and is refused once this moves
   * on: signing out, a password change or reset, a role change, rejection and suspension bump it,
   * so those take effect on the next request instead of when the token expires.
   */
  tokenVersion: integer('token_version').notNull().default(0),
  /** Set while an administrator has suspended the (approved) account: it cannot sign in. */
  suspendedAt: timestamp('suspended_at', { withTimezone: true }),
  ...timestamps,
});
export type UserRow = typeof users.$inferSelect;

/**
 * Opaque refresh tokens, stored as SHA-256 hashes. Every rotation keeps the family id, so reuse
 * of a rotated token can revoke the whole family.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').defaultRandom().primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Why it was revoked: rotated, logout, reuse, status, password, password-reset, signed-out-elsewhere. */
    revokedReason: text('revoked_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index('refresh_tokens_user_idx').on(t.userId),
    index('refresh_tokens_family_idx').on(t.familyId),
  ],
);
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
