import { normaliseTitle, titleWords, type SourceId, type Work } from './work';

/**
 * Merging the results of several sources into one ranked list:
 * - de-duplication: the same DOI is the same work; else the same arXiv id; else the same
 *   normalised title and year (a work without a year matches on a long title alone);
 * - merging keeps the best of each field (the longer abstract, the higher citation count, every
 *   source that returned it, each source's rank);
 * - ranking mixes relevance (reciprocal-rank fusion of the sources' own orders, plus how many
 *   of the query's terms the title and abstract contain), citations (log scale, relative to the
 *   most cited work of the set) and recency, with weights the caller can change.
 */

export interface MergedWork extends Work {
  /** Each source's 0-based rank for this work. */
  ranks: Partial<Record<SourceId, number>>;
}

export interface RankedWork extends MergedWork {
  score: number;
  scoreParts: { relevance: number; citations: number; recency: number };
}

export interface RankWeights {
  relevance: number;
  citations: number;
  recency: number;
}

export const DEFAULT_RANK_WEIGHTS: RankWeights = { relevance: 0.6, citations: 0.25, recency: 0.15 };

export interface RankOptions {
  weights?: Partial<RankWeights>;
  /** Works outside these inclusive year bounds (or without a year, when bounds are set) drop. */
  fromYear?: number;
  toYear?: number;
  /** The year recency is measured from (default: this year). */
  currentYear?: number;
  /** Keep the first N after ranking. */
  limit?: number;
  /**
   * Texts already split into stemmed words, shared by the rankings of one search (each query's
   * list, then the merged one, rank many of the same titles and abstracts).
   */
  words?: WordSets;
}

/** Stemmed words by text (textMatch). */
export type WordSets = Map<string, ReadonlySet<string>>;

/** Reciprocal-rank fusion constant: damps the advantage of the very first places. */
const RRF_K = 60;
/** Years for the recency score to fall to 1/e. */
const RECENCY_SCALE_YEARS = 10;

const STOPWORDS = new Set(
  'a an and are as at be by do does for from has have how in into is it its of on or than that the their this to was were what when which who why will with without effect effects impact impacts role study evidence'.split(
    ' ',
  ),
);

/** The query's content words, lightly stemmed (plural s dropped). */
export function queryTerms(query: string): string[] {
  const terms = titleWords(query)
    .filter((t) => t.length > 2 && !STOPWORDS.has(t))
    .map(stem);
  return [...new Set(terms)];
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function titleKey(w: Work): string | undefined {
  const t = normaliseTitle(w.title);
  if (!t) return undefined;
  return `${t}|${w.year ?? ''}`;
}

const isArxivDoi = (doi: string | undefined) => doi?.startsWith('10.48550/arxiv.') === true;

function mergeInto(target: MergedWork, w: Work): void {
  for (const s of w.sources) if (!target.sources.includes(s)) target.sources.push(s);
  if (target.ranks[w.source] === undefined) target.ranks[w.source] = w.rank;
  // A journal DOI beats the arXiv DOI of the preprint of the same work.
  if (w.doi && (!target.doi || (isArxivDoi(target.doi) && !isArxivDoi(w.doi)))) target.doi = w.doi;
  target.arxivId ??= w.arxivId;
  target.year ??= w.year;
  target.published ??= w.published;
  target.venue ??= w.venue;
  target.url ??= w.url;
  target.pdfUrl ??= w.pdfUrl;
  target.type ??= w.type;
  if (w.abstract && (!target.abstract || w.abstract.length > target.abstract.length))
    target.abstract = w.abstract;
  if (w.citations !== undefined) target.citations = Math.max(target.citations ?? 0, w.citations);
  if (w.authors.length > target.authors.length) target.authors = w.authors;
  if (w.keywords?.length)
    target.keywords = [...new Set([...(target.keywords ?? []), ...w.keywords])].slice(0, 16);
}

/**
 * One list without duplicates. Works are taken round-robin by rank across the lists, so a
 * merged record's `source` is the source that ranked it highest.
 */
export function dedupeWorks(lists: readonly (readonly Work[])[]): MergedWork[] {
  const merged: MergedWork[] = [];
  const byDoi = new Map<string, MergedWork>();
  const byArxiv = new Map<string, MergedWork>();
  const byTitle = new Map<string, MergedWork>();
  const byBareTitle = new Map<string, MergedWork>();

  const index = (m: MergedWork) => {
    if (m.doi) byDoi.set(m.doi, m);
    if (m.arxivId) byArxiv.set(m.arxivId, m);
    const key = titleKey(m);
    if (key) byTitle.set(key, m);
    const bare = normaliseTitle(m.title);
    if (bare.length >= 20 && !byBareTitle.has(bare)) byBareTitle.set(bare, m);
  };

  const find = (w: Work): MergedWork | undefined => {
    if (w.doi && byDoi.has(w.doi)) return byDoi.get(w.doi);
    if (w.arxivId && byArxiv.has(w.arxivId)) return byArxiv.get(w.arxivId);
    const key = titleKey(w);
    if (key && byTitle.has(key)) return byTitle.get(key);
    const bare = normaliseTitle(w.title);
    if (bare.length >= 20) {
      const candidate = byBareTitle.get(bare);
      // Same long title and one of the two has no year: the same work.
      if (candidate && (candidate.year === undefined || w.year === undefined)) return candidate;
    }
    return undefined;
  };

  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) {
    for (const list of lists) {
      const w = list[i];
      if (!w) continue;
      const existing = find(w);
      if (existing) {
        mergeInto(existing, w);
        index(existing);
      } else {
        const m: MergedWork = {
          ...w,
          sources: [...w.sources],
          authors: [...w.authors],
          ranks: { [w.source]: w.rank },
        };
        merged.push(m);
        index(m);
      }
    }
  }
  return merged;
}

/** How much of the query the work's title (weight 2) and abstract (weight 1) cover, 0..1. */
export function textMatch(
  terms: readonly string[],
  w: Pick<Work, 'title' | 'abstract'>,
  known?: WordSets,
): number {
  if (!terms.length) return 0;
  const words = (s: string | undefined) => {
    const text = s ?? '';
    let set = known?.get(text);
    if (!set) {
      set = new Set(titleWords(text).map(stem));
      known?.set(text, set);
    }
    return set;
  };
  const title = words(w.title);
  const abstract = words(w.abstract);
  let score = 0;
  for (const t of terms) score += (title.has(t) ? 2 : 0) + (abstract.has(t) ? 1 : 0);
  return score / (3 * terms.length);
}

/** Scores and sorts merged works (best first). */
export function rankWorks(
  works: readonly MergedWork[],
  query: string,
  options: RankOptions = {},
): RankedWork[] {
  const weights = { ...DEFAULT_RANK_WEIGHTS, ...options.weights };
  const total = weights.relevance + weights.citations + weights.recency || 1;
  const currentYear = options.currentYear ?? new Date().getUTCFullYear();
  const kept = works.filter((w) => {
    if (options.fromYear === undefined && options.toYear === undefined) return true;
    if (w.year === undefined) return false;
    if (options.fromYear !== undefined && w.year < options.fromYear) return false;
    if (options.toYear !== undefined && w.year > options.toYear) return false;
    return true;
  });
  const terms = queryTerms(query);
  const fusion = kept.map((w) =>
    Object.values(w.ranks).reduce<number>((sum, r) => sum + 1 / (RRF_K + (r ?? 0)), 0),
  );
  const maxFusion = Math.max(0, ...fusion) || 1;
  const maxCitations = Math.max(0, ...kept.map((w) => w.citations ?? 0));
  const ranked = kept.map((w, i): RankedWork => {
    const relevance =
      0.5 * ((fusion[i] ?? 0) / maxFusion) + 0.5 * textMatch(terms, w, options.words);
    const citations =
      maxCitations > 0 ? Math.log1p(w.citations ?? 0) / Math.log1p(maxCitations) : 0;
    const age = w.year === undefined ? undefined : Math.max(0, currentYear - w.year);
    const recency = age === undefined ? 0 : Math.exp(-age / RECENCY_SCALE_YEARS);
    const score =
      (weights.relevance * relevance + weights.citations * citations + weights.recency * recency) /
      total;
    return { ...w, score, scoreParts: { relevance, citations, recency } };
  });
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      (b.citations ?? 0) - (a.citations ?? 0) ||
      a.title.localeCompare(b.title),
  );
  return options.limit === undefined ? ranked : ranked.slice(0, options.limit);
}
