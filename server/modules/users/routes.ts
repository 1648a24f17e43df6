import { z } from 'zod';
import { idParamSchema } from '../../../common/api';
import {
  suspendUserRequestSchema,
  updateUserRequestSchema,
  updateUserStatusRequestSchema,
  userReplySchema,
  usersReplySchema,
} from '../../../common/auth';
import type { Api, AppContext } from '../../context';
import { currentUser } from '../../platform/access';
import { createUsersService, type UserDecisionHook } from './service';
import { createUsersStore } from './store';

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(200),
  offset: z.coerce.number().int().min(0).default(0),
});

export function usersRoutes(
  app: Api,
  ctx: AppContext,
  hooks: { onDecision?: UserDecisionHook } = {},
) {
  const service = createUsersService({
    store: createUsersStore(ctx.db),
    mailer: ctx.mailer,
    publicUrl: ctx.config.publicUrl,
    onDecision: hooks.onDecision,
    onAccessRevoked: (userId) => ctx.agents.accessRevoked(userId),
  });

  app.get('/api/auth/users', {
    config: { access: 'admin' },
    schema: {
      querystring: listQuery,
      response: { 200: usersReplySchema },
    },
    handler: async (request) => {
      const data = await service.list(request.query.limit, request.query.offset);
      return { success: true as const, data };
    },
  });

  app.put('/api/auth/users/:id/status', {
    config: { access: 'admin' },
    schema: {
      params: idParamSchema,
      body: updateUserStatusRequestSchema,
      response: { 200: userReplySchema },
    },
    handler: async (request) => {
      const user = await service.decide(request.params.id, request.body.status);
      const verb = request.body.status === 'approved' ? 'approved' : 'rejected';
      return { success: true as const, message: `User ${verb} successfully`, data: { user } };
    },
  });

  app.put('/api/auth/users/:id/suspension', {
    config: { access: 'admin' },
    schema: {
      params: idParamSchema,
      body: suspendUserRequestSchema,
      response: { 200: userReplySchema },
    },
    handler: async (request) => {
      const { suspended } = request.body;
      const user = await service.setSuspended(
        currentUser(request).id,
        request.params.id,
        suspended,
      );
      return {
        success: true as const,
        message: suspended
          ? 'User suspended. All of their sessions were signed out.'
          : 'Suspension lifted. The user can sign in again.',
        data: { user },
      };
    },
  });

  app.put('/api/auth/users/:id', {
    config: { access: 'admin' },
    schema: {
      params: idParamSchema,
      body: updateUserRequestSchema,
      response: { 200: userReplySchema },
    },
    handler: async (request) => {
      const user = await service.update(request.params.id, request.body);
      return { success: true as const, message: 'User updated successfully', data: { user } };
    },
  });
}
