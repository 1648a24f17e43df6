import { idParamSchema } from '../../../common/api';
import {
  notificationGroupsReplySchema,
  notificationListQuerySchema,
  notificationListReplySchema,
  notificationReadReplySchema,
} from '../../../common/notifications';
import type { Api, AppContext } from '../../context';
import { currentUser } from '../../platform/access';
import { createNotificationsService } from './service';
import { createNotificationsStore } from './store';

export function notificationsRoutes(app: Api, ctx: AppContext) {
  const service = createNotificationsService(createNotificationsStore(ctx.db));
  const user = { access: 'user' as const };

  app.get('/api/notifications', {
    config: user,
    schema: {
      querystring: notificationListQuerySchema,
      response: { 200: notificationListReplySchema },
    },
    handler: async (request) => ({
      success: true as const,
      data: await service.list(currentUser(request).id, request.query),
    }),
  });

  app.get('/api/notifications/groups', {
    config: user,
    schema: {
      querystring: notificationListQuerySchema,
      response: { 200: notificationGroupsReplySchema },
    },
    handler: async (request) => ({
      success: true as const,
      data: await service.groups(currentUser(request).id, request.query),
    }),
  });

  app.post('/api/notifications/sessions/:id/read', {
    config: user,
    schema: { params: idParamSchema, response: { 200: notificationReadReplySchema } },
    handler: async (request) => ({
      success: true as const,
      message: 'Notifications of the session marked as read',
      data: await service.markSessionRead(currentUser(request).id, request.params.id),
    }),
  });

  app.post('/api/notifications/read-all', {
    config: user,
    schema: { response: { 200: notificationReadReplySchema } },
    handler: async (request) => ({
      success: true as const,
      message: 'All notifications marked as read',
      data: await service.markAllRead(currentUser(request).id),
    }),
  });

  app.post('/api/notifications/:id/read', {
    config: user,
    schema: { params: idParamSchema, response: { 200: notificationReadReplySchema } },
    handler: async (request) => ({
      success: true as const,
      message: 'Notification marked as read',
      data: await service.markRead(currentUser(request).id, request.params.id),
    }),
  });
}
