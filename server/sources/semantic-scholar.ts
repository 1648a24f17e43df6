import { z } from 'zod';
import type { HttpClient } from '../platform/http';
import { bestLink } from './trusted-hosts';
import {
  normaliseArxivId,
  normaliseDoi,
  person,
  sourceError,
  SourceError,
  type LiteratureSource,
  type Person,
  type SearchQuery,
  type SearchResult,
  type Work,
} from './work';

/**
 * Semantic Scholar Academic Graph API (https://api.semanticscholar.org/api-docs/graph):
 * `/graph/v1/paper/search` with offset/limit paging (`next` is absent on the last page). An API
 * key is optional (sent as `x-api-key`); without one the shared pool is rate limited and
 * answers 429, which the HTTP client retries honouring Retry-After.
 */

export const SEMANTIC_SCHOLAR_DEFAULT_BASE_URL = 'https://api.semanticscholar.org';

const FIELDS = [
  'title',
  'abstract',
  'authors',
  'year',
  'publicationDate',
  'venue',
  'journal',
  'citationCount',
  'externalIds',
  'url',
  'openAccessPdf',
  'fieldsOfStudy',
  'publicationTypes',
].join(',');

export interface SemanticScholarOptions {
  http: HttpClient;
  baseUrl?: string;
  apiKey?: string;
  timeoutMs?: number;
  /** Papers per request (the API allows up to 100). Default 50. */
  pageSize?: number;
}

const nullableString = z.string().nullish();

const paperSchema = z.object({
  paperId: z.string(),
  title: nullableString,
  abstract: nullableString,
  authors: z.array(z.object({ name: nullableString })).nullish(),
  year: z.number().int().nullish(),
  publicationDate: nullableString,
  venue: nullableString,
  journal: z.object({ name: nullableString }).nullish(),
  citationCount: z.number().nullish(),
  externalIds: z.record(z.string(), z.union([z.string(), z.number()]).nullable()).nullish(),
  url: nullableString,
  openAccessPdf: z.object({ url: nullableString }).nullish(),
  fieldsOfStudy: z.array(z.string()).nullish(),
  publicationTypes: z.array(z.string()).nullish(),
});

const searchReplySchema = z.object({
  total: z.number().nullish(),
  offset: z.number().nullish(),
  next: z.number().nullish(),
  data: z.array(z.unknown()).nullish(),
});

export function workFromSemanticScholar(raw: unknown, rank: number): Work | undefined {
  const parsed = paperSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const p = parsed.data;
  const title = p.title?.trim();
  if (!title) return undefined;
  const ext = p.externalIds ?? {};
  const doi = normaliseDoi(typeof ext.DOI === 'string' ? ext.DOI : undefined);
  const arxivId = normaliseArxivId(typeof ext.ArXiv === 'string' ? ext.ArXiv : undefined);
  const authors = (p.authors ?? [])
    .map((a) => person({ name: a.name }))
    .filter((x): x is Person => x !== undefined);
  const work: Work = {
    source: 'semantic_scholar',
    sources: ['semantic_scholar'],
    sourceId: p.paperId,
    title,
    authors,
    rank,
  };
  if (doi) work.doi = doi;
  else if (arxivId) work.doi = `10.48550/arxiv.${arxivId}`;
  if (arxivId) work.arxivId = arxivId;
  if (p.year) work.year = p.year;
  if (p.publicationDate) work.published = p.publicationDate;
  else if (p.year) work.published = String(p.year);
  const venue = p.journal?.name || p.venue;
  if (venue) work.venue = venue;
  if (p.abstract?.trim()) work.abstract = p.abstract.trim();
  if (typeof p.citationCount === 'number') work.citations = p.citationCount;
  const url = bestLink([p.url], work.doi);
  if (url) work.url = url;
  const pdf = bestLink([p.openAccessPdf?.url]);
  if (pdf) work.pdfUrl = pdf;
  if (p.fieldsOfStudy?.length) work.keywords = p.fieldsOfStudy;
  if (p.publicationTypes?.[0]) work.type = p.publicationTypes[0];
  return work;
}

export function createSemanticScholar(options: SemanticScholarOptions): LiteratureSource {
  const base = (options.baseUrl ?? SEMANTIC_SCHOLAR_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const pageSize = Math.min(100, Math.max(1, options.pageSize ?? 50));
  const headers: Record<string, string> = options.apiKey ? { 'x-api-key': options.apiKey } : {};

  const search = async (q: SearchQuery): Promise<SearchResult> => {
    const limit = Math.max(1, q.limit ?? pageSize);
    const year = q.fromYear || q.toYear ? `${q.fromYear ?? ''}-${q.toYear ?? ''}` : undefined;
    const works: Work[] = [];
    let total: number | undefined;
    let requests = 0;
    let offset = 0;
    while (works.length < limit) {
      const size = Math.min(pageSize, limit - works.length);
      const u = new URL(`${base}/graph/v1/paper/search`);
      u.searchParams.set('query', q.query);
      u.searchParams.set('fields', FIELDS);
      u.searchParams.set('offset', String(offset));
      u.searchParams.set('limit', String(size));
      if (year) u.searchParams.set('year', year);
      let reply: unknown;
      try {
        reply = await options.http.getJson(u, {
          signal: q.signal,
          headers,
          ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
        });
      } catch (error) {
        throw sourceError('semantic_scholar', error);
      }
      requests++;
      const parsed = searchReplySchema.safeParse(reply);
      if (!parsed.success)
        throw new SourceError('semantic_scholar', 'malformed', 'unexpected reply (paper search)');
      total = parsed.data.total ?? undefined;
      const data = parsed.data.data ?? [];
      for (const item of data) {
        const w = workFromSemanticScholar(item, works.length);
        if (w) works.push(w);
      }
      const next = parsed.data.next;
      if (next === undefined || next === null || data.length === 0) break;
      offset = next;
    }
    return { source: 'semantic_scholar', works: works.slice(0, limit), total, requests };
  };

  return { id: 'semantic_scholar', label: 'Semantic Scholar', search };
}
