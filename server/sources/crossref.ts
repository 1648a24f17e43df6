import { z } from 'zod';
import type { HttpClient } from '../platform/http';
import { bestLink } from './trusted-hosts';
import {
  normaliseArxivId,
  normaliseDoi,
  person,
  plainText,
  sourceError,
  SourceError,
  type LiteratureSource,
  type Person,
  type SearchQuery,
  type SearchResult,
  type Work,
} from './work';

/**
 * Crossref REST API (https://api.crossref.org/swagger-ui): `/works?query=` with offset paging,
 * `/works/{doi}` for one record, and a bibliographic lookup used to match imported PDFs by
 * title. `mailto` (parameter and User-Agent) puts calls in Crossref's polite pool.
 */

export const CROSSREF_DEFAULT_BASE_URL = 'https://api.crossref.org';

export interface CrossrefOptions {
  http: HttpClient;
  baseUrl?: string;
  mailto?: string;
  timeoutMs?: number;
  /** Rows per page (Crossref allows up to 1000). Default 40. */
  rows?: number;
}

export interface CrossrefClient extends LiteratureSource {
  search(query: SearchQuery): Promise<SearchResult>;
  workByDoi(doi: string, signal?: AbortSignal): Promise<Work | undefined>;
  /** Works whose metadata best match a citation string or title, best first. */
  bibliographic(text: string, rows?: number, signal?: AbortSignal): Promise<Work[]>;
}

const nullableString = z.string().nullish();
const dateSchema = z
  .object({ 'date-parts': z.array(z.array(z.number().nullable()).nullable()).nullish() })
  .nullish();

const itemSchema = z.object({
  DOI: z.string(),
  title: z.array(z.string()).nullish(),
  author: z
    .array(z.object({ given: nullableString, family: nullableString, name: nullableString }))
    .nullish(),
  issued: dateSchema,
  published: dateSchema,
  'published-print': dateSchema,
  'published-online': dateSchema,
  'container-title': z.array(z.string()).nullish(),
  'is-referenced-by-count': z.number().nullish(),
  URL: nullableString,
  abstract: nullableString,
  score: z.number().nullish(),
  type: nullableString,
  subject: z.array(z.string()).nullish(),
  link: z.array(z.object({ URL: z.string(), 'content-type': nullableString })).nullish(),
  resource: z.object({ primary: z.object({ URL: nullableString }).nullish() }).nullish(),
});

const listReplySchema = z.object({
  status: z.string(),
  message: z.object({
    'total-results': z.number().nullish(),
    items: z.array(z.unknown()),
  }),
});

const oneReplySchema = z.object({ status: z.string(), message: z.unknown() });

type CrossrefDate = z.infer<typeof dateSchema>;

function isoDate(date: CrossrefDate): string | undefined {
  const parts = date?.['date-parts']?.[0];
  if (!parts || typeof parts[0] !== 'number') return undefined;
  const [y, m, d] = parts;
  return [
    String(y).padStart(4, '0'),
    typeof m === 'number' ? String(m).padStart(2, '0') : undefined,
    typeof m === 'number' && typeof d === 'number' ? String(d).padStart(2, '0') : undefined,
  ]
    .filter(Boolean)
    .join('-');
}

/** One Crossref item in the shared shape, or undefined without DOI or title. */
export function workFromCrossref(raw: unknown, rank: number): Work | undefined {
  const parsed = itemSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const it = parsed.data;
  const doi = normaliseDoi(it.DOI);
  const title = plainText(it.title?.[0]);
  if (!doi || !title) return undefined;
  const published =
    isoDate(it.issued) ??
    isoDate(it.published) ??
    isoDate(it['published-print']) ??
    isoDate(it['published-online']);
  const authors = (it.author ?? [])
    .map((a) => person({ given: a.given, family: a.family, name: a.name }))
    .filter((p): p is Person => p !== undefined);
  const work: Work = {
    source: 'crossref',
    sources: ['crossref'],
    sourceId: doi,
    doi,
    title,
    authors,
    rank,
  };
  if (doi.startsWith('10.48550/arxiv.')) {
    const arxivId = normaliseArxivId(doi);
    if (arxivId) work.arxivId = arxivId;
  }
  if (published) {
    work.published = published;
    work.year = Number(published.slice(0, 4));
  }
  const venue = it['container-title']?.[0];
  if (venue) work.venue = venue;
  const abstract = plainText(it.abstract);
  if (abstract) work.abstract = abstract;
  if (typeof it['is-referenced-by-count'] === 'number')
    work.citations = it['is-referenced-by-count'];
  const url = bestLink([it.resource?.primary?.URL, it.URL], doi);
  if (url) work.url = url;
  const pdf = bestLink(
    (it.link ?? []).filter((l) => l['content-type'] === 'application/pdf').map((l) => l.URL),
  );
  if (pdf) work.pdfUrl = pdf;
  if (typeof it.score === 'number') work.relevance = it.score;
  if (it.subject?.length) work.keywords = it.subject.slice(0, 12);
  if (it.type) work.type = it.type;
  return work;
}

export function createCrossref(options: CrossrefOptions): CrossrefClient {
  const base = (options.baseUrl ?? CROSSREF_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const rowsDefault = Math.min(1000, Math.max(1, options.rows ?? 40));
  const headers: Record<string, string> = options.mailto
    ? { 'user-agent': `EconAgents/0.1 (mailto:${options.mailto})` }
    : {};

  const url = (path: string, params: Record<string, string | number | undefined>) => {
    const u = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, `${v}`);
    if (options.mailto) u.searchParams.set('mailto', options.mailto);
    return u;
  };

  const get = async (u: URL, signal: AbortSignal | undefined): Promise<unknown> => {
    try {
      return await options.http.getJson(u, {
        signal,
        headers,
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      });
    } catch (error) {
      throw sourceError('crossref', error);
    }
  };

  const list = async (
    params: Record<string, string | number | undefined>,
    signal?: AbortSignal,
  ) => {
    const reply = await get(url('/works', params), signal);
    const parsed = listReplySchema.safeParse(reply);
    if (!parsed.success || parsed.data.status !== 'ok')
      throw new SourceError('crossref', 'malformed', 'unexpected reply (works list)');
    return {
      total: parsed.data.message['total-results'] ?? undefined,
      items: parsed.data.message.items,
    };
  };

  const search: CrossrefClient['search'] = async (q) => {
    const limit = Math.max(1, q.limit ?? rowsDefault);
    const filters = [
      q.fromYear ? `from-pub-date:${q.fromYear}` : undefined,
      q.toYear ? `until-pub-date:${q.toYear}` : undefined,
    ].filter(Boolean);
    const works: Work[] = [];
    let total: number | undefined;
    let requests = 0;
    let offset = 0;
    while (works.length < limit) {
      const rows = Math.min(rowsDefault, limit - works.length);
      const page = await list(
        {
          query: q.query,
          rows,
          offset,
          filter: filters.length ? filters.join(',') : undefined,
        },
        q.signal,
      );
      requests++;
      total = page.total;
      for (const item of page.items) {
        const w = workFromCrossref(item, works.length);
        if (w) works.push(w);
      }
      offset += page.items.length;
      if (page.items.length < rows || (total !== undefined && offset >= total)) break;
    }
    return { source: 'crossref', works: works.slice(0, limit), total, requests };
  };

  const workByDoi: CrossrefClient['workByDoi'] = async (doi, signal) => {
    const clean = normaliseDoi(doi);
    if (!clean) return undefined;
    let reply: unknown;
    try {
      reply = await get(url(`/works/${encodeURIComponent(clean)}`, {}), signal);
    } catch (error) {
      if (error instanceof SourceError && error.status === 404) return undefined;
      throw error;
    }
    const parsed = oneReplySchema.safeParse(reply);
    if (!parsed.success) throw new SourceError('crossref', 'malformed', 'unexpected reply (work)');
    return workFromCrossref(parsed.data.message, 0);
  };

  const bibliographic: CrossrefClient['bibliographic'] = async (text, rows = 3, signal) => {
    const page = await list({ 'query.bibliographic': text, rows }, signal);
    return page.items
      .map((item, i) => workFromCrossref(item, i))
      .filter((w): w is Work => w !== undefined);
  };

  return { id: 'crossref', label: 'Crossref', search, workByDoi, bibliographic };
}
