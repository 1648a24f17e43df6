import {
  SETTINGS_SAVED_MESSAGE,
  connectionTestReplySchema,
  modelDraftSchema,
  modelStatusReplySchema,
  serverModelsReplySchema,
  settingsReplySchema,
  updateSettingsRequestSchema,
} from '../../../common/settings';
import type { Api, AppContext } from '../../context';
import { currentUser } from '../../platform/access';
import { limited } from '../../platform/rate-limit';
import { createUserModelStatus } from './model-status';
import { createSettingsService } from './service';
import { createSettingsStore } from './store';

export function settingsRoutes(app: Api, ctx: AppContext) {
  const store = createSettingsStore(ctx.db);
  const service = createSettingsService({ store, encryptionKey: ctx.secrets.encryptionKey });
  const models = createUserModelStatus({
    modelStatus: ctx.modelStatus,
    loadUserLlmSettings: ctx.loadUserLlmSettings,
    store,
  });
  // Calls that reach a model server cost the key's owner money: limited like sign-in.
  const outbound = {
    access: 'user' as const,
    ...limited(ctx.config.limits.rateLimitMax, ctx.config.limits.rateLimitWindowSeconds),
  };

  app.get('/api/settings', {
    config: { access: 'user' },
    schema: { response: { 200: settingsReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: { settings: await service.get(currentUser(request)) },
    }),
  });

  app.put('/api/settings', {
    config: { access: 'user' },
    schema: { body: updateSettingsRequestSchema, response: { 200: settingsReplySchema } },
    handler: async (request) => ({
      success: true as const,
      message: SETTINGS_SAVED_MESSAGE,
      data: { settings: await service.update(currentUser(request), request.body) },
    }),
  });

  app.get('/api/settings/model-status', {
    config: { access: 'user' },
    schema: { response: { 200: modelStatusReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: { status: await models.status(currentUser(request).id) },
    }),
  });

  app.post('/api/settings/model-status', {
    config: { access: 'user' },
    schema: { body: modelDraftSchema, response: { 200: modelStatusReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: { status: await models.status(currentUser(request).id, request.body) },
    }),
  });

  app.post('/api/settings/test-connection', {
    config: outbound,
    schema: { body: modelDraftSchema, response: { 200: connectionTestReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: { result: await models.test(currentUser(request).id, request.body) },
    }),
  });

  app.post('/api/settings/models', {
    config: outbound,
    schema: { body: modelDraftSchema, response: { 200: serverModelsReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: { result: await models.listModels(currentUser(request).id, request.body) },
    }),
  });
}
