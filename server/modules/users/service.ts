import type { UpdateUserRequest, User } from '../../../common/auth';
import type { Mailer } from '../../platform/mailer';
import { badRequest, conflict, notFound } from '../../platform/errors';
import { toUser } from '../auth/service';
import type { UsersStore } from './store';

export interface UserDecisionHook {
  (user: User, status: 'approved' | 'rejected'): Promise<void>;
}

export function createUsersService(deps: {
  store: UsersStore;
  mailer: Mailer;
  publicUrl: string | undefined;
  /** Other modules (notifications) can react to approval. */
  onDecision?: UserDecisionHook;
  /**
   * Called after a user's token version moved on (suspension, a role change): the agent runtime
   * closes that user's open WebSockets at once, in every process.
   */
  onAccessRevoked?: (userId: string) => Promise<void>;
}) {
  const { store } = deps;
  const accessRevoked = (userId: string) => deps.onAccessRevoked?.(userId) ?? Promise.resolve();
  return {
    async list(limit: number, offset: number) {
      const { rows, total } = await store.list(limit, offset);
      return { users: rows.map(toUser), total };
    },

    async decide(id: string, status: 'approved' | 'rejected'): Promise<User> {
      const row = await store.decidePending(id, status);
      if (!row) {
        const existing = await store.findById(id);
        if (!existing) throw notFound('User');
        throw conflict(
          `Only pending users can be approved or rejected; this user is ${existing.status}`,
        );
      }
      const user = toUser(row);
      if (status === 'approved') {
        const signIn = deps.publicUrl
          ? `${deps.publicUrl.replace(/\/$/, '')}/login`
          : 'the EconAgents sign-in page';
        await deps.mailer.send({
          to: user.email,
          subject: 'Your EconAgents account has been approved',
          text: [
            `Hello ${user.displayName},`,
            '',
            'An administrator has approved your EconAgents account. You can now sign in at',
            signIn,
            'with the e-mail address and password you registered with.',
            '',
            'The EconAgents team',
          ].join('\n'),
        });
      }
      await deps.onDecision?.(user, status);
      return user;
    },

    /**
     * Suspends an approved account or lifts the suspension. A suspended user cannot sign in, and
     * every session they had ends at once, open WebSockets included.
     */
    async setSuspended(callerId: string, id: string, suspended: boolean): Promise<User> {
      if (id === callerId && suspended) {
        throw badRequest('You cannot suspend your own account');
      }
      const row = await store.setSuspended(id, suspended);
      if (!row) {
        const existing = await store.findById(id);
        if (!existing) throw notFound('User');
        throw conflict(`Only approved accounts can be suspended; this user is ${existing.status}`);
      }
      await accessRevoked(id);
      return toUser(row);
    },

    async update(id: string, patch: UpdateUserRequest): Promise<User> {
      if (patch.email !== undefined) {
        const existing = await store.findById(id);
        if (!existing) throw notFound('User');
        if (patch.email.trim().toLowerCase() !== existing.email) {
          throw badRequest('email cannot be changed');
        }
      }
      const result = await store.update(id, { displayName: patch.displayName, role: patch.role });
      if (result.lastAdmin) throw conflict('The last administrator cannot be demoted');
      if (!result.row) throw notFound('User');
      // A new role ends the tokens issued under the old one (the hub checks whether it changed).
      if (patch.role !== undefined) await accessRevoked(id);
      return toUser(result.row);
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
