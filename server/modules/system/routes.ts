import { z } from 'zod';
import { healthSchema, versionInfoSchema } from '../../../common/api';
import type { Api, AppContext } from '../../context';
import { listRuntimes } from '../../engines/sandbox/sandbox';
import { checkHealth, teamStatusList } from './service';

export function systemRoutes(app: Api, ctx: AppContext) {
  app.get('/version.json', {
    config: { access: 'public' },
    schema: { response: { 200: versionInfoSchema } },
    handler: async (_request, reply) => {
      reply.header('Cache-Control', 'no-cache');
      return { version: ctx.version, prefix: ctx.config.versionPrefix };
    },
  });

  app.get('/api/health', {
    config: { access: 'public' },
    schema: {
      response: {
        200: z.object({ success: z.literal(true), data: healthSchema }),
        503: z.unknown(),
      },
    },
    handler: async (_request, reply) => {
      const data = await checkHealth(ctx);
      return reply.status(data.status === 'ok' ? 200 : 503).send({ success: true as const, data });
    },
  });

  app.get('/api/agents/status', {
    config: { access: 'user' },
    schema: {
      response: {
        200: z.object({
          success: z.literal(true),
          data: z.object({
            teams: z.array(
              z.object({
                id: z.string(),
                name: z.string(),
                maturity: z.string(),
                available: z.boolean(),
              }),
            ),
            llm: z.object({
              configured: z.boolean(),
              provider: z.string().nullable(),
              model: z.string().nullable(),
              hint: z.string().optional(),
            }),
            /** Code execution: bubblewrap and the language runtimes installed (file checks). */
            codeExecution: z.object({
              sandbox: z.object({ available: z.boolean(), message: z.string().optional() }),
              runtimes: z.array(
                z.object({
                  language: z.string(),
                  label: z.string(),
                  available: z.boolean(),
                  libraries: z.array(z.string()).optional(),
                  message: z.string().optional(),
                }),
              ),
            }),
          }),
        }),
      },
    },
    handler: async () => ({
      success: true as const,
      data: {
        teams: teamStatusList(ctx.agents.teams()),
        llm: ctx.modelStatus.serverAvailability(),
        codeExecution: listRuntimes(ctx.config.env.CODE_SANDBOX_BWRAP || undefined),
      },
    }),
  });
}
