import { XMLParser } from 'fast-xml-parser';
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
 * arXiv API (https://info.arxiv.org/help/api/user-manual.html): an Atom feed from
 * `/api/query?search_query=...&start=&max_results=`. Both the old layout (opensearch namespace
 * declared per element) and the current one (namespaces on <feed>) parse, since the parser drops
 * namespace prefixes. arXiv asks for at most one request every 3 seconds: keep the HTTP client's
 * per-host limit at 1 for it (the default in createArxiv's doc) and page sizes large.
 */

export const ARXIV_DEFAULT_BASE_URL = 'https://export.arxiv.org';

export interface ArxivOptions {
  http: HttpClient;
  baseUrl?: string;
  timeoutMs?: number;
  /** Entries per request (arXiv allows up to 2000). Default 50. */
  pageSize?: number;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  // Keep ids and dates as text; only the opensearch counts are read as numbers, by hand.
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => ['entry', 'author', 'link', 'category'].includes(name),
});

type XmlNode = Record<string, unknown>;

const text = (v: unknown): string | undefined => {
  if (typeof v === 'string') return v.replace(/\s+/g, ' ').trim() || undefined;
  if (v && typeof v === 'object' && '#text' in v) return text((v as XmlNode)['#text']);
  return undefined;
};

const nodes = (v: unknown): XmlNode[] =>
  Array.isArray(v) ? v.filter((x): x is XmlNode => !!x && typeof x === 'object') : [];

/** Turns arXiv's search words into its query syntax: all terms in any field (all:). */
export function arxivQuery(query: string): string {
  const terms = query
    .replace(/["()]/g, ' ')
    .split(/\s+/)
    .filter((t) => t.length > 1 && !/^(and|or|not|the|of|in|on|for|a|an)$/i.test(t));
  return terms.length ? terms.map((t) => `all:${t}`).join(' AND ') : `all:${query.trim()}`;
}

/** One Atom <entry> in the shared shape. */
export function workFromArxivEntry(entry: XmlNode, rank: number): Work | undefined {
  const id = text(entry.id);
  const title = text(entry.title);
  const arxivId = normaliseArxivId(id);
  if (!id || !title || !arxivId) return undefined;
  const authors = nodes(entry.author)
    .map((a) => person({ name: text(a.name) }))
    .filter((p): p is Person => p !== undefined);
  const links = nodes(entry.link);
  const href = (pred: (l: XmlNode) => boolean) => {
    const l = links.find(pred);
    return l ? text(l['@_href']) : undefined;
  };
  const doi = normaliseDoi(text(entry.doi)) ?? `10.48550/arxiv.${arxivId}`;
  const published = text(entry.published);
  const work: Work = {
    source: 'arxiv',
    sources: ['arxiv'],
    sourceId: arxivId,
    arxivId,
    doi,
    title,
    authors,
    rank,
  };
  if (published) {
    work.published = published.slice(0, 10);
    work.year = Number(published.slice(0, 4));
  }
  const abstract = text(entry.summary);
  if (abstract) work.abstract = abstract;
  const journal = text(entry.journal_ref);
  work.venue = journal ?? 'arXiv';
  const url = bestLink([href((l) => l['@_rel'] === 'alternate'), id]);
  if (url) work.url = url;
  const pdf = bestLink([href((l) => l['@_title'] === 'pdf' || l['@_type'] === 'application/pdf')]);
  if (pdf) work.pdfUrl = pdf;
  const categories = nodes(entry.category)
    .map((c) => text(c['@_term']))
    .filter((c): c is string => Boolean(c));
  if (categories.length) work.keywords = categories;
  work.type = 'preprint';
  return work;
}

/** Parses a whole feed; throws a SourceError when it is not an arXiv Atom feed. */
export function parseArxivFeed(xml: string): { works: Work[]; total?: number; errors: string[] } {
  let doc: XmlNode;
  try {
    doc = parser.parse(xml, true) as XmlNode;
  } catch (cause) {
    throw new SourceError('arxiv', 'malformed', 'reply is not valid XML', { cause });
  }
  const feed = doc.feed;
  if (!feed || typeof feed !== 'object')
    throw new SourceError('arxiv', 'malformed', 'reply is not an Atom feed');
  const f = feed as XmlNode;
  const entries = nodes(f.entry);
  // arXiv reports query errors as a single entry whose id is .../api/errors#...
  const errors = entries
    .filter((e) => text(e.id)?.includes('/api/errors'))
    .map((e) => text(e.summary) ?? 'error');
  const works = entries
    .filter((e) => !text(e.id)?.includes('/api/errors'))
    .map((e, i) => workFromArxivEntry(e, i))
    .filter((w): w is Work => w !== undefined);
  const totalText = text(f.totalResults);
  const total = totalText !== undefined && /^\d+$/.test(totalText) ? Number(totalText) : undefined;
  return { works, total, errors };
}

export function createArxiv(options: ArxivOptions): LiteratureSource {
  const base = (options.baseUrl ?? ARXIV_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const pageSize = Math.min(2000, Math.max(1, options.pageSize ?? 50));

  const search = async (q: SearchQuery): Promise<SearchResult> => {
    const limit = Math.max(1, q.limit ?? pageSize);
    let query = arxivQuery(q.query);
    if (q.fromYear || q.toYear) {
      const from = `${q.fromYear ?? 1991}01010000`;
      const to = `${q.toYear ?? 2999}12312359`;
      query = `(${query}) AND submittedDate:[${from} TO ${to}]`;
    }
    const works: Work[] = [];
    let total: number | undefined;
    let requests = 0;
    let start = 0;
    while (works.length < limit) {
      const max = Math.min(pageSize, limit - works.length);
      const u = new URL(`${base}/api/query`);
      u.searchParams.set('search_query', query);
      u.searchParams.set('start', String(start));
      u.searchParams.set('max_results', String(max));
      u.searchParams.set('sortBy', 'relevance');
      u.searchParams.set('sortOrder', 'descending');
      let xml: string;
      try {
        xml = await options.http.getText(u, {
          signal: q.signal,
          ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
        });
      } catch (error) {
        throw sourceError('arxiv', error);
      }
      requests++;
      const page = parseArxivFeed(xml);
      if (page.errors.length)
        throw new SourceError('arxiv', 'malformed', `query refused: ${page.errors.join('; ')}`);
      total = page.total;
      for (const w of page.works) works.push({ ...w, rank: works.length });
      start += page.works.length;
      if (page.works.length < max || (total !== undefined && start >= total)) break;
    }
    return { source: 'arxiv', works: works.slice(0, limit), total, requests };
  };

  return { id: 'arxiv', label: 'arXiv', search };
}
