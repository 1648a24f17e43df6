import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Api, AppContext } from './context';
import { registerAccessControl } from './platform/access';
import { cspDirectives } from './platform/csp';
import { RequestLogController } from './platform/logging';
import { registerOpenApi } from './platform/openapi';
import { registerTextInputGuard } from './platform/text-input';
import { registerJsonDepthLimit } from './platform/json-depth';
import { errorReply, registerErrorHandling } from './platform/errors';
import { registerRateLimits } from './platform/rate-limit';
import { registerRequestMetrics } from './platform/metrics';
import { registerSecurityHeaders } from './platform/security-headers';
import { createSerializerCompiler } from './platform/serializer';
import { registerModules } from './modules';

/**
 * Addresses the router itself refuses (a malformed escape, a path segment over 100 characters)
 * get the one error envelope too, without echoing the address back.
 */
function routerErrorReply(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  // No hook runs for these (helmet's included): the headers that matter for a JSON error.
  void reply
    .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
    .header('x-content-type-options', 'nosniff')
    .status(tooLong ? 414 : 400)
    .send(errorReply(tooLong ? 'A part of the address is too long' : 'The address is not valid'));
}

/** Builds the whole HTTP app from its dependencies; tests call this and use inject(). */
export async function buildApp(ctx: AppContext): Promise<Api> {
  const app = Fastify({
    loggerInstance: ctx.log,
    bodyLimit: ctx.config.limits.bodyBytes,
    trustProxy: ctx.config.trustProxy,
    frameworkErrors: routerErrorReply,
    // API requests are logged at info, the web app's files at debug.
    logController: new RequestLogController(),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createSerializerCompiler({ check: ctx.config.nodeEnv === 'test' }));
  registerErrorHandling(app);
  if (ctx.metrics) registerRequestMetrics(app, ctx.metrics);
  registerAccessControl(app, ctx.db, ctx.signer, ctx.activeUsers);
  registerJsonDepthLimit(app);
  registerTextInputGuard(app);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: { directives: cspDirectives(ctx.config.publicUrl) },
    crossOriginEmbedderPolicy: false,
  });
  await registerRateLimits(app, ctx.db);
  await registerOpenApi(app, ctx.version);

  await registerModules(app, ctx);
  await ctx.agents.registerRoutes(app);
  await serveWebApp(app, ctx.config.webDistDir);
  return app;
}

/** Serves the built SPA; unknown non-API GETs get index.html so client routes work on reload. */
async function serveWebApp(app: Api, distDir: string): Promise<void> {
  const index = path.join(distDir, 'index.html');
  const hasBuild = fs.existsSync(index);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      maxAge: '1h',
      immutable: false,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = pathname.startsWith('/api') || pathname === '/ws';
    if (!isApi && hasBuild && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(errorReply(`Route ${request.method} ${pathname} not found`));
  });
}
