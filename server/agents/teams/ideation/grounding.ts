import {
  noveltyOf,
  type Grounding,
  type GroundingWork,
  type RefinedQuestion,
} from '../../../../common/teams/ideation';
import type { OpenAlexClient } from '../../../sources/openalex';
import type { Work } from '../../../sources/work';
import type { TrendWindow } from './trend-discovery';

/**
 * What a question rests on, retrieved from OpenAlex in this session: the works its search
 * finds (most relevant first), how many works match it in all, and how many by year. The
 * Contextualizer's model call sees only these works, and its citations are checked against them.
 */

/** Works kept per question: enough to judge the literature, few enough to read. */
export const WORKS_PER_QUESTION = 5;

export function groundingWork(work: Work, index: number): GroundingWork {
  return {
    key: `W${index + 1}`,
    openalexId: work.sourceId,
    title: work.title,
    year: work.year ?? null,
    doi: work.doi ?? null,
    url: work.url ?? (work.doi ? `https://doi.org/${work.doi}` : null),
    citations: typeof work.citations === 'number' ? Math.round(work.citations) : null,
    authors: work.authors.slice(0, 3).map((a) => a.name),
  };
}

export async function groundQuestion(
  openalex: OpenAlexClient,
  question: RefinedQuestion,
  window: TrendWindow,
  signal: AbortSignal,
): Promise<Grounding> {
  const [page, countsByYear] = await Promise.all([
    openalex.searchWorks({ search: question.searchQuery, perPage: WORKS_PER_QUESTION, signal }),
    openalex.countsByYear({
      search: question.searchQuery,
      fromYear: window.baseline[0],
      toYear: window.recent[1],
      signal,
    }),
  ]);
  const works = page.works.slice(0, WORKS_PER_QUESTION).map(groundingWork);
  return {
    searchQuery: question.searchQuery,
    totalWorks: page.total,
    countsByYear,
    novelty: noveltyOf(page.total),
    works,
  };
}

/** Works for the search in a range of years, from its counts by year. */
export function worksIn(grounding: Grounding, [from, to]: [number, number]): number {
  return grounding.countsByYear
    .filter((c) => c.year >= from && c.year <= to)
    .reduce((n, c) => n + c.count, 0);
}

/**
 * Keeps only citations of works that were retrieved for the question: keys not among them are
 * dropped from the list, and "[W9]" markers for them are removed from the text.
 */
export function checkCitations(
  text: string,
  cited: readonly string[],
  retrieved: readonly GroundingWork[],
): { text: string; cited: string[]; removed: number } {
  const known = new Set(retrieved.map((w) => w.key));
  let removed = 0;
  const keptList: string[] = [];
  for (const key of cited) {
    const k = key.trim().toUpperCase();
    if (known.has(k)) {
      if (!keptList.includes(k)) keptList.push(k);
    } else removed++;
  }
  const cleaned = text.replace(/\s*\[(W\d+)\]/gi, (m, key: string) => {
    const k = key.toUpperCase();
    if (known.has(k)) {
      if (!keptList.includes(k)) keptList.push(k);
      return m;
    }
    removed++;
    return '';
  });
  return { text: cleaned.trim(), cited: keptList, removed };
}
