import { z } from 'zod';
import { healthSchema, readinessSchema, versionInfoSchema } from '../../../common/api';
import type { Api, AppContext } from '../../context';
import { listRuntimes } from '../../engines/sandbox/sandbox';
import { unauthorized } from '../../platform/errors';
import { hasMetricsToken } from '../../platform/metrics';
import {
  PUBLIC_FIGURES_CACHE_SECONDS,
  publicFiguresReplySchema,
} from '../../../common/public-figures';
import { createPublicFigures } from './public-figures';
import { checkAlive, checkReady, teamStatusList } from './service';
import { createSystemStore } from './store';

export function systemRoutes(app: Api, ctx: AppContext) {
  app.get('/version.json', {
    config: { access: 'public' },
    schema: { response: { 200: versionInfoSchema } },
    handler: async (_request, reply) => {
      reply.header('Cache-Control', 'no-cache');
      return { version: ctx.version, prefix: ctx.config.versionPrefix };
    },
  });

  // Liveness: answers while the process runs (a supervisor restarts it when this fails).
  app.get('/api/health', {
    config: { access: 'public' },
    schema: { response: { 200: z.object({ success: z.literal(true), data: healthSchema }) } },
    handler: async () => ({ success: true as const, data: checkAlive(ctx) }),
  });

  // Readiness: the database and the job queue answer (a load balancer routes by this).
  app.get('/api/ready', {
    config: { access: 'public' },
    schema: {
      response: {
        200: z.object({ success: z.literal(true), data: readinessSchema }),
        503: z.object({ success: z.literal(true), data: readinessSchema }),
      },
    },
    handler: async (_request, reply) => {
      const data = await checkReady(ctx);
      return reply.status(data.status === 'ok' ? 200 : 503).send({ success: true as const, data });
    },
  });

  registerMetricsRoute(app, ctx);

  // The landing page's figures: counted from this install, cached (no account needed).
  const figures = createPublicFigures(ctx.db);
  app.get('/api/public/figures', {
    config: { access: 'public' },
    schema: { response: { 200: publicFiguresReplySchema } },
    handler: async (_request, reply) => {
      reply.header('Cache-Control', `public, max-age=${PUBLIC_FIGURES_CACHE_SECONDS}`);
      return { success: true as const, data: await figures.read() };
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

/**
 * GET /api/metrics in Prometheus's text format, only when METRICS_ENABLED. With METRICS_TOKEN
 * set it takes that bearer token (what a scraper can be given; no account needed), otherwise an
 * administrator's access token.
 */
function registerMetricsRoute(app: Api, ctx: AppContext): void {
  const metrics = ctx.metrics;
  if (!metrics) return;
  const store = createSystemStore(ctx.db);
  metrics.read({
    sessionsByStatus: () => store.sessionsByStatus(),
    modelTokens: () => store.modelTokens(),
    queueDepth: () => ctx.agents.queueDepth(),
    socketClients: () => ctx.agents.socketClients(),
  });
  const token = ctx.config.metrics.token;
  app.get('/api/metrics', {
    config: { access: token ? 'public' : 'admin' },
    handler: async (request, reply) => {
      if (token && !hasMetricsToken(request, token)) {
        throw unauthorized('Send the metrics token as Authorization: Bearer <METRICS_TOKEN>');
      }
      return reply
        .header('Content-Type', metrics.registry.contentType)
        .header('Cache-Control', 'no-store')
        .send(await metrics.registry.metrics());
    },
  });
}
