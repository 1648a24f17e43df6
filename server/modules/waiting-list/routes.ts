import { z } from 'zod';
import { messageReplySchema } from '../../../common/api';
import {
  exportTokenReplySchema,
  waitingListEntrySchema,
  waitingListReplySchema,
  waitingListRequestSchema,
} from '../../../common/waiting-list';
import type { Api, AppContext } from '../../context';
import { issueDownloadToken } from '../../platform/access';
import { limited } from '../../platform/rate-limit';
import { createWaitingListService } from './service';
import { createWaitingListStore } from './store';

export const EXPORT_PATH = '/api/waiting-list/export.csv';

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(500),
  offset: z.coerce.number().int().min(0).default(0),
});

export function waitingListRoutes(app: Api, ctx: AppContext) {
  const service = createWaitingListService(createWaitingListStore(ctx.db));

  app.post('/api/waiting-list', {
    config: {
      access: 'public',
      ...limited(ctx.config.limits.rateLimitMax, ctx.config.limits.rateLimitWindowSeconds),
    },
    schema: {
      body: waitingListRequestSchema,
      response: {
        201: messageReplySchema.extend({ data: z.object({ entry: waitingListEntrySchema }) }),
      },
    },
    handler: async (request, reply) => {
      const entry = await service.join(request.body);
      return reply
        .status(201)
        .send({ success: true, message: 'Successfully joined the waiting list!', data: { entry } });
    },
  });

  app.get('/api/waiting-list', {
    config: { access: 'admin' },
    schema: { querystring: listQuery, response: { 200: waitingListReplySchema } },
    handler: async (request) => {
      const data = await service.list(request.query.limit, request.query.offset);
      return { success: true as const, data };
    },
  });

  // The admin page opens the export in a new tab, which cannot send an Authorization header:
  // it first asks for a short-lived token bound to the export path and puts it in the URL.
  app.post('/api/waiting-list/export-token', {
    config: { access: 'admin' },
    schema: { response: { 200: exportTokenReplySchema } },
    handler: async (request) => {
      const ttl = ctx.config.auth.downloadTokenTtlSeconds;
      const token = await issueDownloadToken(ctx.signer, request, EXPORT_PATH, ttl);
      return {
        success: true as const,
        data: {
          token,
          url: `${EXPORT_PATH}?token=${encodeURIComponent(token)}`,
          expiresInSeconds: ttl,
        },
      };
    },
  });

  app.get(EXPORT_PATH, {
    config: { access: 'admin', allowDownloadToken: true },
    schema: { querystring: z.object({ token: z.string().optional() }) },
    handler: async (_request, reply) => {
      const date = new Date().toISOString().slice(0, 10);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="waiting-list-${date}.csv"`)
        .header('Cache-Control', 'no-store')
        .send(service.exportCsv());
    },
  });
}
