import crypto from 'node:crypto';
import type {
  LoginRequest,
  RegisterRequest,
  SessionUser,
  Tokens,
  User,
} from '../../../common/auth';
import type { UserRow } from '../../db/schema';
import { AppError, conflict, notFound, unauthorized } from '../../platform/errors';
import { randomToken, sha256 } from '../../platform/secrets';
import type { Mailer, MailMessage } from '../../platform/mailer';
import type { TokenSigner } from '../../platform/tokens';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';
import type { AuthStore } from './store';

export const MESSAGES = {
  registered:
    'Registration successful. Your account is pending approval by an administrator; you will receive an e-mail when it is approved.',
  emailTaken: 'An account with this email already exists',
  invalidCredentials: 'Invalid email or password',
  pending:
    'Your account is pending approval by an administrator. You will receive an e-mail when it is approved.',
  rejected:
    'Your registration was not approved, so this account cannot sign in. Contact the administrators if you think this is a mistake.',
  loggedIn: 'Login successful',
  refreshInvalid: 'Refresh token is invalid or expired. Please sign in again.',
  suspended:
    'This account is suspended by an administrator, so it cannot sign in. Contact the administrators if you think this is a mistake.',
  refreshReused:
    'This refresh token was already used; all sessions that came from it have been signed out.',
} as const;

export function toSessionUser(row: UserRow): SessionUser {
  return {
    id: row.id,
    displayName: row.displayName,
    email: row.email,
    role: row.role,
    status: row.status,
  };
}

/** Whether the account may sign in and use its sessions now. */
function isActive(row: UserRow): boolean {
  return row.status === 'approved' && row.suspendedAt === null;
}

export function toUser(row: UserRow): User {
  return {
    ...toSessionUser(row),
    reason: row.reason,
    suspended: row.suspendedAt !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export interface AuthServiceDeps {
  store: AuthStore;
  signer: TokenSigner;
  /** Tells account owners when their password changes. */
  mailer: Mailer;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  /**
   * Called after a user's token version moved on (sign-out, password, reused refresh token):
   * the agent runtime closes that user's open WebSockets at once, in every process.
   */
  onAccessRevoked?: (userId: string) => Promise<void>;
}

/**
 * The e-mail that tells the owner their password changed: if they did not do it (or did not ask
 * an administrator to), they learn that someone else did.
 */
export function passwordChangedMail(user: UserRow, by: 'owner' | 'administrator'): MailMessage {
  const when = new Date().toISOString().replace('T', ' ').slice(0, 16);
  return {
    to: user.email,
    subject: 'Your EconAgents password was changed',
    text: [
      `Hello ${user.displayName},`,
      '',
      by === 'administrator'
        ? `An administrator set a new password for your EconAgents account (${user.email}) on ${when} UTC, and all of your sessions were signed out.`
        : `The password of your EconAgents account (${user.email}) was changed on ${when} UTC, and your other sessions were signed out.`,
      '',
      'If you did not expect this, tell an administrator of your EconAgents site at once.',
      '',
      'The EconAgents team',
    ].join('\n'),
  };
}

/**
 * Sets a user's password without asking for the old one (an administrator, or the command line,
 * for someone who lost theirs) and ends every session of that user. Returns how many ended.
 */
export async function replacePassword(
  store: AuthStore,
  userId: string,
  newPassword: string,
): Promise<number> {
  await store.setPasswordHash(userId, await hashPassword(newPassword));
  return store.revokeUserTokens(userId, 'password-reset');
}

export function createAuthService(deps: AuthServiceDeps) {
  const { store, signer } = deps;
  const accessRevoked = (userId: string) => deps.onAccessRevoked?.(userId) ?? Promise.resolve();

  async function issueTokens(user: UserRow, familyId: string): Promise<Tokens> {
    const userId = user.id;
    const refreshToken = randomToken(32);
    await store.insertRefreshToken({
      userId,
      familyId,
      tokenHash: sha256(refreshToken),
      expiresAt: new Date(Date.now() + deps.refreshTokenTtlDays * 86_400_000),
    });
    const accessToken = await signer.sign(
      { sub: userId, purpose: 'access', ver: user.tokenVersion },
      deps.accessTokenTtlSeconds,
    );
    return { accessToken, refreshToken };
  }

  return {
    async register(input: RegisterRequest): Promise<UserRow> {
      const row = await store.insertUser({
        email: input.email,
        passwordHash: await hashPassword(input.password),
        displayName: input.displayName,
        reason: input.reason && input.reason.length > 0 ? input.reason : null,
        role: 'researcher',
        status: 'pending',
      });
      if (!row) throw conflict(MESSAGES.emailTaken);
      return row;
    },

    async login(input: LoginRequest): Promise<{ tokens: Tokens; user: SessionUser }> {
      const row = await store.findUserByEmail(input.email);
      const ok = await verifyPassword(
        row?.passwordHash ?? (await dummyPasswordHash()),
        input.password,
      );
      if (!row || !ok) throw unauthorized(MESSAGES.invalidCredentials);
      if (row.status === 'pending') throw new AppError('forbidden', MESSAGES.pending);
      if (row.status === 'rejected') throw new AppError('forbidden', MESSAGES.rejected);
      if (row.suspendedAt !== null) throw new AppError('forbidden', MESSAGES.suspended);
      const tokens = await issueTokens(row, crypto.randomUUID());
      return { tokens, user: toSessionUser(row) };
    },

    async refresh(refreshToken: string): Promise<Tokens> {
      const hash = sha256(refreshToken);
      const claimed = await store.claimRefreshToken(hash);
      if (!claimed) {
        const known = await store.findRefreshToken(hash);
        if (known?.revokedReason === 'rotated') {
          // A rotated token came back: someone holds a copy. End the whole family.
          // Its access tokens go too: whoever holds the copy may hold one of those.
          await store.revokeFamily(known.familyId, 'reuse');
          await store.bumpTokenVersion(known.userId);
          await accessRevoked(known.userId);
          throw unauthorized(MESSAGES.refreshReused);
        }
        throw unauthorized(MESSAGES.refreshInvalid);
      }
      const user = await store.findUserById(claimed.userId);
      if (!user || !isActive(user)) {
        await store.revokeFamily(claimed.familyId, 'status');
        throw unauthorized(MESSAGES.refreshInvalid);
      }
      return issueTokens(user, claimed.familyId);
    },

    /**
     * Revokes the token's family and the access tokens of that user: the signed-out session's
     * access token stops working at once. (The user's other sessions each get a new access token
     * with their own refresh token, which the client does by itself on the next 401.) Unknown
     * tokens are ignored: sign-out always succeeds.
     */
    async logout(refreshToken: string): Promise<void> {
      const known = await store.findRefreshToken(sha256(refreshToken));
      if (!known) return;
      await store.revokeFamily(known.familyId, 'logout');
      await store.bumpTokenVersion(known.userId);
      await accessRevoked(known.userId);
    },

    async profile(userId: string): Promise<User> {
      const row = await store.findUserById(userId);
      if (!row) throw unauthorized();
      return toUser(row);
    },

    async changePassword(
      userId: string,
      currentPassword: string,
      newPassword: string,
      keepRefreshToken?: string,
    ) {
      const row = await store.findUserById(userId);
      if (!row || !(await verifyPassword(row.passwordHash, currentPassword))) {
        throw new AppError('bad_request', 'currentPassword is not correct');
      }
      await store.setPasswordHash(userId, await hashPassword(newPassword));
      const keep = keepRefreshToken
        ? await store.findRefreshToken(sha256(keepRefreshToken))
        : undefined;
      const ended = await store.revokeUserTokens(
        userId,
        'password',
        keep?.userId === userId ? keep.familyId : undefined,
      );
      await accessRevoked(userId);
      await deps.mailer.send(passwordChangedMail(row, 'owner'));
      return ended;
    },

    /**
     * An administrator sets a new password for a user who lost theirs (there is no e-mail reset).
     * Every session of that user ends: whoever held the old password is out. Returns how many.
     */
    async setPassword(userId: string, newPassword: string): Promise<number> {
      const row = await store.findUserById(userId);
      if (!row) throw notFound('User');
      const ended = await replacePassword(store, userId, newPassword);
      await accessRevoked(userId);
      await deps.mailer.send(passwordChangedMail(row, 'administrator'));
      return ended;
    },

    /** Signs out every other device: revokes all refresh-token families but the caller's. */
    async revokeOtherSessions(
      userId: string,
      currentRefreshToken: string | undefined,
    ): Promise<number> {
      const keep = currentRefreshToken
        ? await store.findRefreshToken(sha256(currentRefreshToken))
        : undefined;
      const ended = await store.revokeUserTokens(
        userId,
        'signed-out-elsewhere',
        keep?.userId === userId ? keep.familyId : undefined,
      );
      await accessRevoked(userId);
      return ended;
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
