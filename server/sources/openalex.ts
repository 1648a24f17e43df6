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
 * OpenAlex (https://docs.openalex.org): works search with cursor paging, abstracts rebuilt from
 * `abstract_inverted_index`, and publication counts by year (`group_by=publication_year`).
 * Used by the Literature team (search, trends) and the Ideation team (trend-driven discovery),
 * one instance per process. `mailto` puts calls in OpenAlex's polite pool.
 */

export const OPENALEX_DEFAULT_BASE_URL = 'https://api.openalex.org';

export interface OpenAlexOptions {
  http: HttpClient;
  baseUrl?: string;
  /** Contact address sent as `mailto=` (the polite pool). */
  mailto?: string;
  /** Premium key sent as `api_key=`, when the deployment has one. */
  apiKey?: string;
  /** Per-request timeout (overrides the HTTP client's). */
  timeoutMs?: number;
  /** Works per page (OpenAlex allows up to 200). Default 50. */
  perPage?: number;
}

/** Filters as OpenAlex writes them: `{ publication_year: '2010-2020', type: 'article' }`. */
export type OpenAlexFilter = Record<string, string | number | boolean>;

export interface WorksQuery {
  /** Full-text search over title, abstract and full text. */
  search?: string;
  filter?: OpenAlexFilter;
  fromYear?: number;
  toYear?: number;
  /** e.g. 'relevance_score:desc', 'cited_by_count:desc', 'publication_date:desc'. */
  sort?: string;
  signal?: AbortSignal;
}

export interface WorksPage {
  works: Work[];
  total: number;
  /** Pass back as `cursor` for the next page; null at the end. */
  nextCursor: string | null;
}

export interface YearCount {
  year: number;
  count: number;
}

export interface GroupCount {
  key: string;
  label: string;
  count: number;
}

export interface OpenAlexClient extends LiteratureSource {
  /** One page of works. `cursor` '*' (the default) starts cursor paging. */
  searchWorks(query: WorksQuery & { perPage?: number; cursor?: string }): Promise<WorksPage>;
  /** Works matching the query, paging until `limit` (LiteratureSource). */
  search(query: SearchQuery): Promise<SearchResult>;
  /**
   * Real publication counts by year for a topic (search text and/or filter such as
   * `{ 'concepts.id': 'C162324750' }` or `{ 'primary_topic.id': 'T10140' }`). With both year
   * bounds, years without works are filled with 0 so growth can be computed on a full series.
   */
  countsByYear(query: WorksQuery): Promise<YearCount[]>;
  /** Counts grouped by any OpenAlex group_by field (e.g. 'primary_topic.id', 'type'). */
  groupBy(field: string, query: WorksQuery): Promise<GroupCount[]>;
  /** The work with this DOI, if OpenAlex has it. */
  workByDoi(doi: string, signal?: AbortSignal): Promise<Work | undefined>;
}

// --- Reply schemas (only the fields used; anything else is ignored) ---------------------------

const nullableString = z.string().nullish();

const authorshipSchema = z.object({
  author: z.object({ display_name: nullableString }).nullish(),
  raw_author_name: nullableString,
});

const locationSchema = z
  .object({
    landing_page_url: nullableString,
    pdf_url: nullableString,
    source: z.object({ display_name: nullableString }).nullish(),
  })
  .nullish();

const workSchema = z.object({
  id: z.string(),
  doi: nullableString,
  display_name: nullableString,
  title: nullableString,
  publication_year: z.number().int().nullish(),
  publication_date: nullableString,
  relevance_score: z.number().nullish(),
  cited_by_count: z.number().nullish(),
  type: nullableString,
  ids: z.record(z.string(), z.unknown()).nullish(),
  authorships: z.array(authorshipSchema).nullish(),
  primary_location: locationSchema,
  best_oa_location: locationSchema,
  // Checked while the abstract is rebuilt: validating thousands of entries here costs ~1 ms a work.
  abstract_inverted_index: z.unknown(),
  keywords: z.array(z.object({ display_name: nullableString })).nullish(),
  concepts: z
    .array(z.object({ display_name: nullableString, level: z.number().nullish() }))
    .nullish(),
});

const metaSchema = z.object({
  count: z.number().nullish(),
  next_cursor: nullableString,
});

const worksReplySchema = z.object({
  meta: metaSchema,
  results: z.array(z.unknown()),
});

const groupReplySchema = z.object({
  meta: metaSchema.nullish(),
  group_by: z.array(
    z.object({
      key: z.union([z.string(), z.number()]),
      key_display_name: z.union([z.string(), z.number()]).nullish(),
      count: z.number(),
    }),
  ),
});

const isPosition = (p: unknown): p is number =>
  Number.isInteger(p) && (p as number) >= 0 && (p as number) < 100_000;

/** The abstract as text from OpenAlex's inverted index ({word: [positions]}). */
export function abstractFromInvertedIndex(index: unknown): string | undefined {
  if (!index || typeof index !== 'object' || Array.isArray(index)) return undefined;
  const entries = index as Record<string, unknown>;
  const keys = Object.keys(entries);
  // The array is sized from the last position first: filled out of order from empty, V8 would
  // keep it as a slow dictionary (most of the cost of a search page's parsing).
  let last = -1;
  for (const word of keys) {
    const positions = entries[word];
    if (!Array.isArray(positions)) continue;
    for (const p of positions) if (isPosition(p) && p > last) last = p;
  }
  const slots = new Array<string | undefined>(last + 1);
  for (const word of keys) {
    const positions = entries[word];
    if (!Array.isArray(positions)) continue;
    for (const p of positions) if (isPosition(p)) slots[p] = word;
  }
  const words: string[] = [];
  for (const w of slots) if (w !== undefined) words.push(w);
  const text = words.join(' ').trim();
  return text || undefined;
}

/** One OpenAlex work in the shared shape, or undefined when it has no title. */
export function workFromOpenAlex(raw: unknown, rank: number): Work | undefined {
  const parsed = workSchema.safeParse(raw);
  if (!parsed.success) return undefined;
  const w = parsed.data;
  const title = (w.display_name ?? w.title ?? '').trim();
  if (!title) return undefined;
  const doi = normaliseDoi(w.doi);
  const arxivId =
    doi?.startsWith('10.48550/arxiv.') === true
      ? normaliseArxivId(doi)
      : normaliseArxivId(
          [w.primary_location?.landing_page_url].find((u) => u?.includes('arxiv.org')),
        );
  const authors = (w.authorships ?? [])
    .map((a) => person({ name: a.author?.display_name ?? a.raw_author_name }))
    .filter((p): p is Person => p !== undefined);
  const keywords = [
    ...(w.keywords ?? []).map((k) => k.display_name),
    ...(w.concepts ?? []).filter((c) => (c.level ?? 0) <= 2).map((c) => c.display_name),
  ].filter((k): k is string => Boolean(k));
  const work: Work = {
    source: 'openalex',
    sources: ['openalex'],
    sourceId: w.id.replace(/^https?:\/\/openalex\.org\//, ''),
    title,
    authors,
    rank,
  };
  if (doi) work.doi = doi;
  if (arxivId) work.arxivId = arxivId;
  if (w.publication_year) work.year = w.publication_year;
  if (w.publication_date) work.published = w.publication_date;
  const venue = w.primary_location?.source?.display_name;
  if (venue) work.venue = venue;
  const abstract = abstractFromInvertedIndex(w.abstract_inverted_index);
  if (abstract) work.abstract = abstract;
  if (typeof w.cited_by_count === 'number') work.citations = w.cited_by_count;
  const url = bestLink(
    [w.primary_location?.landing_page_url, w.best_oa_location?.landing_page_url],
    doi,
  );
  if (url) work.url = url;
  const pdf = bestLink([w.best_oa_location?.pdf_url, w.primary_location?.pdf_url]);
  if (pdf) work.pdfUrl = pdf;
  if (typeof w.relevance_score === 'number') work.relevance = w.relevance_score;
  if (keywords.length) work.keywords = [...new Set(keywords)].slice(0, 12);
  if (w.type) work.type = w.type;
  return work;
}

/** OpenAlex filter syntax: key:value pairs joined by commas (values may not contain commas). */
function filterParam(query: WorksQuery): string | undefined {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query.filter ?? {})) {
    parts.push(`${key}:${String(value).replace(/,/g, ' ')}`);
  }
  if (query.fromYear) parts.push(`from_publication_date:${query.fromYear}-01-01`);
  if (query.toYear) parts.push(`to_publication_date:${query.toYear}-12-31`);
  return parts.length ? parts.join(',') : undefined;
}

export function createOpenAlex(options: OpenAlexOptions): OpenAlexClient {
  const base = (options.baseUrl ?? OPENALEX_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const perPageDefault = Math.min(200, Math.max(1, options.perPage ?? 50));

  const url = (path: string, params: Record<string, string | number | undefined>) => {
    const u = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, `${v}`);
    if (options.mailto) u.searchParams.set('mailto', options.mailto);
    if (options.apiKey) u.searchParams.set('api_key', options.apiKey);
    return u;
  };

  const get = async (u: URL, signal: AbortSignal | undefined): Promise<unknown> => {
    try {
      return await options.http.getJson(u, {
        signal,
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      });
    } catch (error) {
      throw sourceError('openalex', error);
    }
  };

  const malformed = (what: string, issue: z.ZodError) =>
    new SourceError(
      'openalex',
      'malformed',
      `unexpected reply (${what}: ${issue.issues[0]?.message ?? 'invalid'})`,
    );

  const searchWorks: OpenAlexClient['searchWorks'] = async (query) => {
    const perPage = Math.min(200, Math.max(1, query.perPage ?? perPageDefault));
    const reply = await get(
      url('/works', {
        search: query.search?.trim() || undefined,
        filter: filterParam(query),
        sort: query.sort,
        per_page: perPage,
        cursor: query.cursor ?? '*',
      }),
      query.signal,
    );
    const parsed = worksReplySchema.safeParse(reply);
    if (!parsed.success) throw malformed('works list', parsed.error);
    const works = parsed.data.results
      .map((r, i) => workFromOpenAlex(r, i))
      .filter((w): w is Work => w !== undefined);
    return {
      works,
      total: parsed.data.meta.count ?? works.length,
      nextCursor: parsed.data.meta.next_cursor ?? null,
    };
  };

  const search: OpenAlexClient['search'] = async (q) => {
    const limit = Math.max(1, q.limit ?? perPageDefault);
    const works: Work[] = [];
    let cursor: string | null = '*';
    let total: number | undefined;
    let requests = 0;
    while (cursor && works.length < limit) {
      const page = await searchWorks({
        search: q.query,
        fromYear: q.fromYear,
        toYear: q.toYear,
        perPage: Math.min(200, limit - works.length, perPageDefault),
        cursor,
        signal: q.signal,
      });
      requests++;
      total = page.total;
      for (const w of page.works) works.push({ ...w, rank: works.length });
      // An empty page ends paging even if a cursor came back (guards a looping server).
      cursor = page.works.length ? page.nextCursor : null;
    }
    return { source: 'openalex', works: works.slice(0, limit), total, requests };
  };

  const groupBy: OpenAlexClient['groupBy'] = async (field, query) => {
    const reply = await get(
      url('/works', {
        search: query.search?.trim() || undefined,
        filter: filterParam(query),
        group_by: field,
      }),
      query.signal,
    );
    const parsed = groupReplySchema.safeParse(reply);
    if (!parsed.success) throw malformed('group_by', parsed.error);
    return parsed.data.group_by.map((g) => ({
      key: String(g.key),
      label: String(g.key_display_name ?? g.key),
      count: g.count,
    }));
  };

  const countsByYear: OpenAlexClient['countsByYear'] = async (query) => {
    const groups = await groupBy('publication_year', query);
    const byYear = new Map<number, number>();
    for (const g of groups) {
      const year = Number(g.key);
      if (!Number.isInteger(year)) continue;
      if (query.fromYear && year < query.fromYear) continue;
      if (query.toYear && year > query.toYear) continue;
      byYear.set(year, (byYear.get(year) ?? 0) + g.count);
    }
    if (query.fromYear && query.toYear) {
      for (let y = query.fromYear; y <= query.toYear; y++) if (!byYear.has(y)) byYear.set(y, 0);
    }
    return [...byYear.entries()]
      .sort(([a], [b]) => a - b)
      .map(([year, count]) => ({ year, count }));
  };

  const workByDoi: OpenAlexClient['workByDoi'] = async (doi, signal) => {
    const clean = normaliseDoi(doi);
    if (!clean) return undefined;
    const page = await searchWorks({
      filter: { doi: `https://doi.org/${clean}` },
      perPage: 1,
      signal,
    });
    return page.works[0];
  };

  return {
    id: 'openalex',
    label: 'OpenAlex',
    searchWorks,
    search,
    countsByYear,
    groupBy,
    workByDoi,
  };
}
