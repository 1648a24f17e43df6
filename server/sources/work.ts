import { HttpError } from '../platform/http';

/**
 * What every literature connector returns: one retrieved record, in one shape, carrying where it
 * came from. A reference the platform shows must rest on one of these (research integrity:
 * "a reference shown comes from a record retrieved in that session").
 */

export const SOURCE_IDS = ['openalex', 'crossref', 'arxiv', 'semantic_scholar', 'library'] as const;
export type SourceId = (typeof SOURCE_IDS)[number];

export const SOURCE_LABELS: Record<SourceId, string> = {
  openalex: 'OpenAlex',
  crossref: 'Crossref',
  arxiv: 'arXiv',
  semantic_scholar: 'Semantic Scholar',
  library: 'Project library',
};

export interface Person {
  /** As displayed: "Given Family" (or the literal name). */
  name: string;
  given?: string;
  family?: string;
}

export interface Work {
  /** The source of this record (for merged records: the first source that returned it). */
  source: SourceId;
  /** Every source that returned it (after merging). */
  sources: SourceId[];
  /** The record's id at its source: an OpenAlex W-id, a DOI, an arXiv id, a paperId, a key. */
  sourceId: string;
  /** Lower case, without https://doi.org/. */
  doi?: string;
  /** Without version suffix, e.g. 2202.12139. */
  arxivId?: string;
  title: string;
  authors: Person[];
  year?: number;
  /** ISO date as precise as the source gives it (YYYY, YYYY-MM or YYYY-MM-DD). */
  published?: string;
  venue?: string;
  abstract?: string;
  citations?: number;
  /** Landing page on a trusted host (trusted-hosts.ts), else absent. */
  url?: string;
  pdfUrl?: string;
  /** The source's own relevance score, when it gives one. */
  relevance?: number;
  /** 0-based position in the source's result list (its relevance order). */
  rank: number;
  /** Subject terms (OpenAlex concepts/keywords, arXiv categories, S2 fields of study). */
  keywords?: string[];
  type?: string;
}

export interface SearchQuery {
  query: string;
  /** How many works to return at most (the connector pages as needed). */
  limit?: number;
  /** Inclusive publication year bounds. */
  fromYear?: number;
  toYear?: number;
  signal?: AbortSignal;
}

export interface SearchResult {
  source: SourceId;
  works: Work[];
  /** Matches the source reports in total (may exceed works.length). */
  total?: number;
  /** Requests made (pages fetched). */
  requests: number;
}

/** One literature source: OpenAlex, Crossref, arXiv, Semantic Scholar or the project library. */
export interface LiteratureSource {
  id: SourceId;
  label: string;
  search(query: SearchQuery): Promise<SearchResult>;
}

export type SourceErrorKind = HttpError['kind'] | 'config';

/** A failure of one source, with the source in its message. */
export class SourceError extends Error {
  constructor(
    readonly source: SourceId,
    readonly kind: SourceErrorKind,
    readonly detail: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(`${SOURCE_LABELS[source]}: ${detail}`, options);
    this.name = 'SourceError';
    this.status = options?.status;
  }
  readonly status: number | undefined;
}

/** Wraps whatever a connector call threw as a SourceError naming the source. */
export function sourceError(source: SourceId, error: unknown): SourceError {
  if (error instanceof SourceError) return error;
  if (error instanceof HttpError)
    return new SourceError(source, error.kind, error.message, {
      cause: error,
      status: error.status,
    });
  const message = error instanceof Error ? error.message : String(error);
  return new SourceError(source, 'malformed', message, { cause: error });
}

/** Every source failed: the message names each source and its error. */
export class AllSourcesFailedError extends Error {
  constructor(readonly failures: SourceError[]) {
    super(`No literature source could be searched. ${failures.map((f) => f.message).join('; ')}`);
    this.name = 'AllSourcesFailedError';
  }
}

/** 10.1234/ABC from any DOI spelling (doi:, https://doi.org/, dx.doi.org), lower case. */
export function normaliseDoi(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const match = /10\.\d{4,9}\/\S+/i.exec(decodeURIComponentSafe(raw.trim()));
  if (!match) return undefined;
  return match[0].replace(/[.,;]+$/, '').toLowerCase();
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** arXiv id without version from an id, URL or arXiv DOI (10.48550/arXiv.2202.12139). */
export function normaliseArxivId(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const modern = /(\d{4}\.\d{4,5})(v\d+)?/.exec(raw);
  if (modern) return modern[1];
  const legacy = /([a-z-]+(?:\.[A-Z]{2})?\/\d{7})(v\d+)?/i.exec(raw);
  return legacy ? legacy[1]!.toLowerCase() : undefined;
}

/** A letter or a digit (one code point), as Unicode defines them. */
const WORD_CHARACTER = /^[\p{L}\p{N}]$/u;
const wordPoints = new Map<number, boolean>();

function isWordPoint(point: number): boolean {
  let known = wordPoints.get(point);
  if (known === undefined) {
    known = WORD_CHARACTER.test(String.fromCodePoint(point));
    // Bounded: text in any script meets a few thousand code points at most.
    if (wordPoints.size < 65_536) wordPoints.set(point, known);
  }
  return known;
}

/**
 * The words of a title or an abstract, reduced for comparison: accents and case folded, markup
 * dropped, split at everything that is neither a letter nor a digit. `normaliseTitle` joined
 * with spaces. One pass over the characters: the same split by a Unicode-property regex took
 * most of the ranking's time on abstracts of a few thousand characters (merge.ts).
 */
export function titleWords(text: string): string[] {
  // Decomposing and dropping marks change nothing in ASCII text.
  // eslint-disable-next-line no-control-regex
  const folded = /[^\x00-\x7f]/.test(text) ? text.normalize('NFKD').replace(/\p{M}/gu, '') : text;
  const s = folded.replace(/<[^>]+>/g, ' ').toLowerCase();
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i < s.length;) {
    const c = s.charCodeAt(i);
    let width = 1;
    let inWord: boolean;
    // Lower-case ASCII letters and digits (no upper case is left); beyond ASCII, Unicode's classes.
    if (c < 0x80) inWord = (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a);
    else {
      const point = s.codePointAt(i)!;
      width = point > 0xffff ? 2 : 1;
      inWord = isWordPoint(point);
    }
    if (inWord) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      words.push(s.slice(start, i));
      start = -1;
    }
    i += width;
  }
  if (start >= 0) words.push(s.slice(start));
  return words;
}

/**
 * A title reduced for comparison: accents and case folded, markup and punctuation dropped,
 * whitespace collapsed. "The Forecast Trap." and "the forecast trap" compare equal.
 */
export function normaliseTitle(title: string): string {
  return titleWords(title).join(' ');
}

/** "Given Family" from parts, or the name as given. */
export function person(parts: {
  given?: string | null;
  family?: string | null;
  name?: string | null;
}): Person | undefined {
  const given = parts.given?.trim() || undefined;
  const family = parts.family?.trim() || undefined;
  const name = parts.name?.trim() || [given, family].filter(Boolean).join(' ');
  if (!name) return undefined;
  return { name, ...(given ? { given } : {}), ...(family ? { family } : {}) };
}

/** Plain text from a source's abstract (Crossref's JATS XML, stray HTML), whitespace tidied. */
export function plainText(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const text = raw
    .replace(/<jats:title>[^<]*<\/jats:title>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text || undefined;
}

export function yearOf(date: string | undefined): number | undefined {
  const m = date ? /^(\d{4})/.exec(date) : null;
  return m ? Number(m[1]) : undefined;
}
