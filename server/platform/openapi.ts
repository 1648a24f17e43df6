import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * The API reference: an OpenAPI 3.1 document generated from the routes' zod schemas (the same
 * ones that validate requests), and an explorer for it. Served outside /api because it is public
 * and describes the API rather than being part of it: /docs/api (explorer), /docs/api/json and
 * /docs/api/yaml (the document).
 */
export const API_REFERENCE_PATH = '/docs/api';

/** The top bar's mark: the app's initials badge and name, white on the explorer's dark bar. */
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="40" viewBox="0 0 240 40">
<circle cx="20" cy="20" r="18" fill="#4a64a0"/>
<text x="20" y="25.5" text-anchor="middle" font-family="system-ui, sans-serif" font-size="15" font-weight="700" fill="#fff">EA</text>
<text x="46" y="27" font-family="system-ui, sans-serif" font-size="20" font-weight="700" fill="#fff">EconAgents API</text>
</svg>`;

/** Only the API and the version file are documented; static files of the web app are not. */
function isDocumented(url: string): boolean {
  return url.startsWith('/api/') || url === '/version.json';
}

/** Groups operations by the first path segment after /api: auth, projects, agents, ... */
function tagOf(url: string): string {
  return url.startsWith('/api/') ? (url.split('/')[2] ?? 'api') : 'system';
}

/** Registers the generator; must come before the routes it documents. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'EconAgents API',
        version,
        description:
          'Every reply uses one envelope: {success, data?, message?} on success and ' +
          '{success: false, error, message} on failure. Sign in with POST /api/auth/login and ' +
          'send the access token as `Authorization: Bearer <token>`.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: (input) => {
      if (!isDocumented(input.url)) return { schema: { hide: true }, url: input.url };
      const out = jsonSchemaTransform(input);
      const access = input.route.config?.access;
      const secured = access !== undefined && access !== 'public';
      return {
        url: out.url,
        schema: {
          ...out.schema,
          tags: [tagOf(input.url)],
          ...(secured ? { security: [{ bearerAuth: [] }] } : {}),
        },
      };
    },
  });
  await app.register(swaggerUi, {
    routePrefix: API_REFERENCE_PATH,
    // No calls to the public validator service: the explorer works on a closed network.
    validatorUrl: false,
    uiConfig: { deepLinking: true },
    theme: { title: 'EconAgents API reference' },
    logo: { type: 'image/svg+xml', content: LOGO_SVG, href: '/' },
  });
}
