import { idParamSchema, messageReplySchema } from '../../../common/api';
import {
  createDatasetRequestSchema,
  datasetListQuerySchema,
  datasetListReplySchema,
  datasetReplySchema,
  updateDatasetRequestSchema,
} from '../../../common/datasets';
import type { Api, AppContext } from '../../context';
import { currentUser } from '../../platform/access';
import { datasetExportRoutes } from './export-routes';
import { createDatasetsService } from './service';
import { createDatasetsStore } from './store';

export function datasetsRoutes(app: Api, ctx: AppContext) {
  const service = createDatasetsService(ctx.db, createDatasetsStore(ctx.db));
  const user = { access: 'user' as const };
  datasetExportRoutes(app, ctx, service);

  app.get('/api/datasets', {
    config: user,
    schema: { querystring: datasetListQuerySchema, response: { 200: datasetListReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: await service.list(currentUser(request), request.query),
    }),
  });

  app.post('/api/datasets', {
    config: user,
    schema: { body: createDatasetRequestSchema, response: { 201: datasetReplySchema } },
    handler: async (request, reply) => {
      const dataset = await service.create(currentUser(request), request.body);
      return reply.status(201).send({ success: true, message: 'Dataset added', data: { dataset } });
    },
  });

  app.get('/api/datasets/:id', {
    config: user,
    schema: { params: idParamSchema, response: { 200: datasetReplySchema } },
    handler: async (request) => ({
      success: true as const,
      data: { dataset: await service.get(currentUser(request), request.params.id) },
    }),
  });

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/datasets/:id',
      config: user,
      schema: {
        params: idParamSchema,
        body: updateDatasetRequestSchema,
        response: { 200: datasetReplySchema },
      },
      handler: async (request) => ({
        success: true as const,
        message: 'Dataset updated',
        data: {
          dataset: await service.update(currentUser(request), request.params.id, request.body),
        },
      }),
    });
  }

  app.delete('/api/datasets/:id', {
    config: user,
    schema: { params: idParamSchema, response: { 200: messageReplySchema } },
    handler: async (request) => {
      await service.remove(currentUser(request), request.params.id);
      // The stored data goes with the entry (the quota counts the entry's recorded size).
      await ctx.agents.datasetRemoved(request.params.id);
      return { success: true as const, message: 'Dataset deleted' };
    },
  });
}
