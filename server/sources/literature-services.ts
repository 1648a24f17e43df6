import { z } from 'zod';
import { envOptionalString } from '../platform/env-fragments';
import { defineService } from '../platform/services';
import { createHttpClient, type HttpClient, type HttpClientOptions } from '../platform/http';
import { ARXIV_DEFAULT_BASE_URL, createArxiv } from './arxiv';
import { createCrossref, CROSSREF_DEFAULT_BASE_URL, type CrossrefClient } from './crossref';
import { createSemanticScholar, SEMANTIC_SCHOLAR_DEFAULT_BASE_URL } from './semantic-scholar';
import type { LiteratureSource } from './work';

/**
 * Crossref, arXiv and Semantic Scholar as kit services (docs/architecture.md §10; OpenAlex is
 * in openalex-service.ts): each built once per process from its own variables, on its own
 * outbound HTTP client with the spec's one-hour data cache.
 *
 * A base URL an operator sets to a private or loopback host (a mirror, or a test fixture server
 * on 127.0.0.1) is trusted for that host only; the SSRF guard still refuses every other private
 * address, redirects included.
 */

const CACHE_TTL_MS = 60 * 60_000;

const baseUrl = (name: string, fallback: string, what: string) =>
  z
    .url({ protocol: /^https?$/, message: `${name} must be an http(s) URL` })
    .default(fallback)
    .describe(
      `${what} API base URL (a mirror or a test fixture server; a private or loopback host ` +
        'written here is trusted, that host only)',
    );

/** The HTTP client of one source: the operator's base URL host allowed when it is private. */
function sourceHttpClient(
  configured: string,
  fallback: string,
  extra: Partial<HttpClientOptions> = {},
): HttpClient {
  return createHttpClient({
    userAgent: 'EconAgents literature review (+https://github.com/econagents)',
    cache: { ttlMs: CACHE_TTL_MS, maxEntries: 500 },
    allowPrivateHosts: configured === fallback ? [] : [new URL(configured).hostname],
    ...extra,
  });
}

export const crossrefService = defineService({
  id: 'crossref',
  env: z.object({
    CROSSREF_BASE_URL: baseUrl('CROSSREF_BASE_URL', CROSSREF_DEFAULT_BASE_URL, 'Crossref REST'),
    CROSSREF_MAILTO: envOptionalString
      .pipe(z.email({ message: 'CROSSREF_MAILTO must be an e-mail address' }).optional())
      .describe("Contact e-mail sent with Crossref calls (Crossref's polite pool)"),
  }),
  create({ env }): CrossrefClient {
    return createCrossref({
      http: sourceHttpClient(env.CROSSREF_BASE_URL, CROSSREF_DEFAULT_BASE_URL),
      baseUrl: env.CROSSREF_BASE_URL,
      ...(env.CROSSREF_MAILTO ? { mailto: env.CROSSREF_MAILTO } : {}),
    });
  },
});

export const arxivService = defineService({
  id: 'arxiv',
  env: z.object({
    ARXIV_BASE_URL: baseUrl('ARXIV_BASE_URL', ARXIV_DEFAULT_BASE_URL, 'arXiv'),
  }),
  create({ env }): LiteratureSource {
    return createArxiv({
      // arXiv asks clients for one request at a time.
      http: sourceHttpClient(env.ARXIV_BASE_URL, ARXIV_DEFAULT_BASE_URL, {
        perHostConcurrency: 1,
      }),
      baseUrl: env.ARXIV_BASE_URL,
    });
  },
});

export const semanticScholarService = defineService({
  id: 'semantic-scholar',
  env: z.object({
    SEMANTIC_SCHOLAR_BASE_URL: baseUrl(
      'SEMANTIC_SCHOLAR_BASE_URL',
      SEMANTIC_SCHOLAR_DEFAULT_BASE_URL,
      'Semantic Scholar Academic Graph',
    ),
    SEMANTIC_SCHOLAR_API_KEY: envOptionalString.describe(
      'Semantic Scholar API key (optional; without one the shared, rate-limited pool is used)',
    ),
  }),
  create({ env }): LiteratureSource {
    return createSemanticScholar({
      http: sourceHttpClient(env.SEMANTIC_SCHOLAR_BASE_URL, SEMANTIC_SCHOLAR_DEFAULT_BASE_URL),
      baseUrl: env.SEMANTIC_SCHOLAR_BASE_URL,
      ...(env.SEMANTIC_SCHOLAR_API_KEY ? { apiKey: env.SEMANTIC_SCHOLAR_API_KEY } : {}),
    });
  },
});
