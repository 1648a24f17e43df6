import type { Trend } from '../../../../common/teams/literature';
import type { OpenAlexClient, YearCount } from '../../../sources/openalex';
import type { Work } from '../../../sources/work';

/**
 * Publication trends from real counts (OpenAlex `group_by=publication_year`), computed here, not
 * written by the model: growth is the mean yearly count of the last three complete years over
 * the mean of the eight years before, minus one. Emerging topics are subject terms of the
 * retrieved works whose growth beats the question's own.
 */

export const RECENT_YEARS = 3;
export const BASELINE_YEARS = 8;
const MAX_TOPICS = 5;

/** Subject labels too broad to be a topic of a review, and arXiv category codes (cs.LG). */
const TOO_BROAD = new Set(
  [
    'economics',
    'computer science',
    'mathematics',
    'business',
    'political science',
    'sociology',
    'biology',
    'medicine',
    'physics',
    'psychology',
    'geography',
    'philosophy',
    'engineering',
    'history',
    'art',
    'chemistry',
    'environmental science',
    'materials science',
    'law',
  ].map((s) => s.toLowerCase()),
);

export interface Growth {
  growth: number | null;
  recentMean: number;
  baselineMean: number;
  recentYears: [number, number];
  baselineYears: [number, number];
}

/** Growth of the last RECENT_YEARS complete years against the BASELINE_YEARS before them. */
export function growthOf(counts: readonly YearCount[], lastCompleteYear: number): Growth {
  const byYear = new Map(counts.map((c) => [c.year, c.count]));
  const mean = (from: number, to: number) => {
    let sum = 0;
    for (let y = from; y <= to; y++) sum += byYear.get(y) ?? 0;
    return sum / (to - from + 1);
  };
  const recentFrom = lastCompleteYear - RECENT_YEARS + 1;
  const baseTo = recentFrom - 1;
  const baseFrom = baseTo - BASELINE_YEARS + 1;
  const recentMean = mean(recentFrom, lastCompleteYear);
  const baselineMean = mean(baseFrom, baseTo);
  return {
    growth: baselineMean > 0 ? recentMean / baselineMean - 1 : null,
    recentMean,
    baselineMean,
    recentYears: [recentFrom, lastCompleteYear],
    baselineYears: [baseFrom, baseTo],
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export function describeGrowth(topic: string, g: Growth): string {
  const [rf, rt] = g.recentYears;
  const [bf, bt] = g.baselineYears;
  const change =
    g.growth === null
      ? 'no works in the years before, so no growth rate'
      : `${g.growth >= 0 ? '+' : ''}${Math.round(g.growth * 100)}%`;
  return (
    `OpenAlex lists ${round1(g.recentMean)} works a year on "${topic}" in ${rf}-${rt} against ` +
    `${round1(g.baselineMean)} a year in ${bf}-${bt} (${change}).`
  );
}

/** The subject terms most frequent among the works (broad fields and arXiv codes left out). */
export function candidateTopics(works: readonly Work[], max = MAX_TOPICS): string[] {
  const counts = new Map<string, { label: string; n: number }>();
  for (const w of works) {
    for (const k of new Set(w.keywords ?? [])) {
      const key = k.trim().toLowerCase();
      if (!key || TOO_BROAD.has(key) || /^[a-z-]+\.[A-Za-z-]+$/.test(k.trim())) continue;
      const entry = counts.get(key) ?? { label: k.trim(), n: 0 };
      entry.n++;
      counts.set(key, entry);
    }
  }
  return [...counts.values()]
    .filter((e) => e.n >= 2)
    .sort((a, b) => b.n - a.n || a.label.localeCompare(b.label))
    .slice(0, max)
    .map((e) => e.label);
}

/**
 * The question's overall trend and its topics' trends, each from OpenAlex counts for the
 * window. The question's own search words stand for the question.
 */
export async function computeTrends(
  openalex: Pick<OpenAlexClient, 'countsByYear'>,
  query: string,
  works: readonly Work[],
  options: { currentYear?: number; signal?: AbortSignal } = {},
): Promise<Trend[]> {
  const lastComplete = (options.currentYear ?? new Date().getUTCFullYear()) - 1;
  const fromYear = lastComplete - RECENT_YEARS - BASELINE_YEARS + 1;
  const counts = (search: string) =>
    openalex.countsByYear({ search, fromYear, toYear: lastComplete, signal: options.signal });
  const topics = candidateTopics(works);
  // The question's counts and its topics' are independent requests: asked at once.
  const [overallCounts, topicCounts] = await Promise.all([
    counts(query),
    Promise.all(topics.map((t) => counts(t))),
  ]);
  const overall = growthOf(overallCounts, lastComplete);
  const trends: Trend[] = [
    {
      topic: query,
      description: describeGrowth(query, overall),
      growth: overall.growth,
      counts: overallCounts,
      kind: 'overall',
    },
  ];
  const topicTrends = topics
    .map((topic, i): Trend => {
      const g = growthOf(topicCounts[i]!, lastComplete);
      const emerging = g.growth !== null && g.growth > 0 && g.growth > (overall.growth ?? 0);
      return {
        topic,
        description: describeGrowth(topic, g),
        growth: g.growth,
        counts: topicCounts[i]!,
        kind: emerging ? 'emerging' : 'topic',
      };
    })
    .sort((a, b) => (b.growth ?? -Infinity) - (a.growth ?? -Infinity));
  return [...trends, ...topicTrends];
}
