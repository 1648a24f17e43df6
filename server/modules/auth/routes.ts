import { z } from 'zod';
import { errorReplySchema, idParamSchema, messageReplySchema } from '../../../common/api';
import {
  changePasswordRequestSchema,
  loginReplySchema,
  loginRequestSchema,
  profileReplySchema,
  refreshReplySchema,
  refreshRequestSchema,
  registerRequestSchema,
  setUserPasswordRequestSchema,
} from '../../../common/auth';
import type { Api, AppContext } from '../../context';
import { currentUser } from '../../platform/access';
import { badRequest } from '../../platform/errors';
import { limited } from '../../platform/rate-limit';
import { createAuthService, MESSAGES } from './service';
import { createAuthStore } from './store';

export function authRoutes(app: Api, ctx: AppContext) {
  const service = createAuthService({
    store: createAuthStore(ctx.db),
    signer: ctx.signer,
    mailer: ctx.mailer,
    accessTokenTtlSeconds: ctx.config.auth.accessTokenTtlSeconds,
    refreshTokenTtlDays: ctx.config.auth.refreshTokenTtlDays,
    onAccessRevoked: (userId) => ctx.agents.accessRevoked(userId),
  });
  const strict = limited(ctx.config.limits.rateLimitMax, ctx.config.limits.rateLimitWindowSeconds);

  app.post('/api/auth/register', {
    config: { access: 'public', ...strict },
    schema: {
      body: registerRequestSchema,
      response: { 201: messageReplySchema, 409: errorReplySchema },
    },
    handler: async (request, reply) => {
      await service.register(request.body);
      return reply.status(201).send({ success: true, message: MESSAGES.registered });
    },
  });

  app.post('/api/auth/login', {
    config: { access: 'public', ...strict },
    schema: { body: loginRequestSchema, response: { 200: loginReplySchema } },
    handler: async (request) => {
      const { tokens, user } = await service.login(request.body);
      return { success: true as const, message: MESSAGES.loggedIn, data: { tokens, user } };
    },
  });

  app.post('/api/auth/refresh', {
    config: { access: 'public', ...strict },
    schema: { body: refreshRequestSchema, response: { 200: refreshReplySchema } },
    handler: async (request) => {
      const tokens = await service.refresh(request.body.refreshToken);
      return { success: true as const, data: { tokens } };
    },
  });

  app.post('/api/auth/logout', {
    config: { access: 'public' },
    schema: { body: refreshRequestSchema, response: { 200: messageReplySchema } },
    handler: async (request) => {
      await service.logout(request.body.refreshToken);
      return { success: true as const, message: 'Signed out' };
    },
  });

  app.get('/api/auth/profile', {
    config: { access: 'user' },
    schema: { response: { 200: profileReplySchema } },
    handler: async (request) => {
      const user = await service.profile(currentUser(request).id);
      return { success: true as const, data: { user } };
    },
  });

  app.post('/api/auth/change-password', {
    config: { access: 'user', ...strict },
    schema: {
      body: changePasswordRequestSchema.extend({ refreshToken: z.string().optional() }),
      response: { 200: messageReplySchema },
    },
    handler: async (request) => {
      const { currentPassword, newPassword, refreshToken } = request.body;
      const revoked = await service.changePassword(
        currentUser(request).id,
        currentPassword,
        newPassword,
        refreshToken,
      );
      return {
        success: true as const,
        message: `Password changed. ${revoked} other session${revoked === 1 ? '' : 's'} signed out.`,
      };
    },
  });

  app.post('/api/auth/users/:id/password', {
    config: { access: 'admin' },
    schema: {
      params: idParamSchema,
      body: setUserPasswordRequestSchema,
      response: { 200: messageReplySchema },
    },
    handler: async (request) => {
      if (request.params.id === currentUser(request).id) {
        // Changing one's own password asks for the current one; this route would skip that.
        throw badRequest('Change your own password under Settings > Security.');
      }
      const revoked = await service.setPassword(request.params.id, request.body.newPassword);
      const ended =
        revoked === 0
          ? 'They had no open session.'
          : `${revoked} of their session${revoked === 1 ? ' was' : 's were'} signed out.`;
      return {
        success: true as const,
        message: `New password set. ${ended} Give them the password in person or by phone.`,
      };
    },
  });

  app.post('/api/auth/sessions/revoke-others', {
    config: { access: 'user' },
    schema: {
      body: z.object({ refreshToken: z.string().optional() }),
      response: { 200: messageReplySchema },
    },
    handler: async (request) => {
      const revoked = await service.revokeOtherSessions(
        currentUser(request).id,
        request.body.refreshToken,
      );
      return {
        success: true as const,
        message: `Signed out of ${revoked} other session${revoked === 1 ? '' : 's'}.`,
      };
    },
  });
}
