import { z } from 'zod';
import {
  modelPricesReplySchema,
  sessionsUsageQuerySchema,
  sessionsUsageReplySchema,
  updateModelPricesRequestSchema,
  usageReportReplySchema,
} from '../../../common/usage';
import type { Api, AppContext } from '../../context';
import { currentUser } from '../../platform/access';
import { createUsageService } from './service';
import { createUsageStore } from './store';

const sessionParams = z.object({ id: z.string() });

/** What the model cost: a session's, a workflow's, the user's and the server's usage; prices. */
export function usageRoutes(app: Api, ctx: AppContext) {
  const service = createUsageService({
    store: createUsageStore(ctx.db),
    serverPrices: ctx.config.llm.prices,
    readSession: (actor, id) => ctx.agents.sessions.get(actor, id),
    teams: ctx.agents.teams(),
  });

  app.get('/api/agents/sessions/:id/usage', {
    config: { access: 'user' },
    schema: { params: sessionParams, response: { 200: sessionsUsageReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: { usage: await service.sessions(currentUser(request), [request.params.id]) },
    }),
  });

  app.get('/api/agents/usage', {
    config: { access: 'user' },
    schema: { querystring: sessionsUsageQuerySchema, response: { 200: sessionsUsageReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: { usage: await service.sessions(currentUser(request), request.query.sessions) },
    }),
  });

  app.get('/api/settings/usage', {
    config: { access: 'user' },
    schema: { response: { 200: usageReportReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: { usage: await service.forUser(currentUser(request).id) },
    }),
  });

  app.get('/api/settings/model-prices', {
    config: { access: 'user' },
    schema: { response: { 200: modelPricesReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: { prices: await service.prices(currentUser(request).id) },
    }),
  });

  app.put('/api/settings/model-prices', {
    config: { access: 'user' },
    schema: { body: updateModelPricesRequestSchema, response: { 200: modelPricesReplySchema } },
    handler: async (request) => ({
      success: true as const,
      message: 'Prices saved',
      data: { prices: await service.setPrices(currentUser(request).id, request.body) },
    }),
  });

  app.get('/api/admin/usage', {
    config: { access: 'admin' },
    schema: { response: { 200: usageReportReplySchema } },
    handler: async () => ({
      success: true as const,
      data: { usage: await service.forServer() },
    }),
  });
}
