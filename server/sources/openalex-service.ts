import { z } from 'zod';
import { envOptionalString } from '../platform/env-fragments';
import { defineService } from '../platform/services';
import { createHttpClient } from '../platform/http';
import { createOpenAlex, OPENALEX_DEFAULT_BASE_URL, type OpenAlexClient } from './openalex';

/**
 * OpenAlex as a kit service (docs/architecture.md §10): one client per process, shared by every
 * team that declares this object (Ideation, Literature). Teams declare this same object; a
 * second `defineService` with the id 'openalex' is refused by the service host.
 */

const baseUrl = z
  .url({ protocol: /^https?$/, message: 'OPENALEX_BASE_URL must be an http(s) URL' })
  .default(OPENALEX_DEFAULT_BASE_URL)
  .describe(
    'OpenAlex API base URL (a mirror or a test fixture server; a private or loopback host ' +
      'written here is trusted, that host only)',
  );

export const openAlexEnvSchema = z.object({
  OPENALEX_BASE_URL: baseUrl,
  OPENALEX_MAILTO: envOptionalString
    .pipe(z.email({ message: 'OPENALEX_MAILTO must be an e-mail address' }).optional())
    .describe("Contact e-mail sent with OpenAlex calls (OpenAlex's faster polite pool)"),
  OPENALEX_API_KEY: envOptionalString.describe('OpenAlex premium API key, when you have one'),
  OPENALEX_CACHE_SECONDS: z.coerce
    .number({ message: 'OPENALEX_CACHE_SECONDS must be a number of seconds' })
    .int()
    .min(0)
    .max(86_400)
    .default(600)
    .describe(
      'How long OpenAlex replies are reused (the same searches and counts come back across ' +
        'sessions); 0 turns the cache off',
    ),
});

export const openAlexService = defineService({
  id: 'openalex',
  env: openAlexEnvSchema,
  create({ env }): OpenAlexClient {
    const url = new URL(env.OPENALEX_BASE_URL);
    const http = createHttpClient({
      userAgent: `EconAgents (+${env.OPENALEX_MAILTO ?? 'https://openalex.org'})`,
      ...(env.OPENALEX_CACHE_SECONDS > 0
        ? { cache: { ttlMs: env.OPENALEX_CACHE_SECONDS * 1000, maxEntries: 500 } }
        : {}),
      // The operator chose this host; the SSRF guard still refuses every other private one.
      allowPrivateHosts: env.OPENALEX_BASE_URL === OPENALEX_DEFAULT_BASE_URL ? [] : [url.hostname],
    });
    return createOpenAlex({
      http,
      baseUrl: env.OPENALEX_BASE_URL,
      ...(env.OPENALEX_MAILTO ? { mailto: env.OPENALEX_MAILTO } : {}),
      ...(env.OPENALEX_API_KEY ? { apiKey: env.OPENALEX_API_KEY } : {}),
    });
  },
});
