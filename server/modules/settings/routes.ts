import {
  SETTINGS_SAVED_MESSAGE,
  settingsReplySchema,
  updateSettingsRequestSchema,
} from '../../../common/settings';
import type { Api, AppContext } from '../../context';
import { currentUser } from '../../platform/access';
import { createSettingsService } from './service';
import { createSettingsStore } from './store';

export function settingsRoutes(app: Api, ctx: AppContext) {
  const service = createSettingsService({
    store: createSettingsStore(ctx.db),
    encryptionKey: ctx.secrets.encryptionKey,
  });

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
}
