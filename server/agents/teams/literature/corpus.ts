import type { SearchPlan } from '../../../../common/teams/literature';
import {
  dedupeWorks,
  rankWorks,
  type RankedWork,
  type RankWeights,
  type WordSets,
} from '../../../sources/merge';
import { searchSources, type SourceReport } from '../../../sources/search';
import { AllSourcesFailedError, SourceError, type LiteratureSource } from '../../../sources/work';

/**
 * The session's corpus: every query of the plan against every chosen source at once, merged
 * and de-duplicated across queries and sources, ranked against the research question (and the
 * focus terms the researcher added), the top N kept.
 */

const WEIGHTS: Record<SearchPlan['emphasis'], Partial<RankWeights>> = {
  relevance: {},
  recent: { relevance: 0.45, citations: 0.15, recency: 0.4 },
  cited: { relevance: 0.45, citations: 0.45, recency: 0.1 },
};

export interface Corpus {
  works: RankedWork[];
  reports: SourceReport[];
  retrievedCount: number;
  uniqueCount: number;
  requests: number;
}

/** Works asked of each source per query: enough to fill the top N after de-duplication. */
export function perSourceLimit(topN: number): number {
  return Math.min(50, Math.max(10, Math.ceil(topN * 0.6)));
}

export async function buildCorpus(input: {
  sources: readonly LiteratureSource[];
  plan: SearchPlan;
  question: string;
  topN: number;
  signal?: AbortSignal;
}): Promise<Corpus> {
  const { sources, plan, topN } = input;
  // Every ranking below (each query's list, then the merged one) splits the same texts once.
  const words: WordSets = new Map();
  const runs = await Promise.allSettled(
    plan.queries.map((query) =>
      searchSources(sources, query, {
        perSource: perSourceLimit(topN),
        fromYear: plan.fromYear,
        toYear: plan.toYear,
        signal: input.signal,
        words,
      }),
    ),
  );
  if (input.signal?.aborted) throw input.signal.reason;
  const succeeded = runs.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  if (succeeded.length === 0) {
    const first = runs.find((r) => r.status === 'rejected');
    throw first && first.status === 'rejected' ? first.reason : new Error('no search ran');
  }

  // Per source: counts and requests summed over the queries; an error kept when it never answered.
  const reports = new Map<string, SourceReport>();
  for (const run of succeeded) {
    for (const r of run.reports) {
      const seen = reports.get(r.source);
      if (!seen) reports.set(r.source, { ...r });
      else {
        seen.count += r.count;
        seen.requests += r.requests;
        if (!r.error) delete seen.error;
        else if (seen.error === undefined && seen.count === 0) seen.error = r.error;
      }
    }
  }

  // Each run's ranked list is one list to merge: a work found by several queries merges once.
  const unique = dedupeWorks(succeeded.map((run) => run.works));
  const rankingQuery = [input.question, ...plan.focus].join(' ');
  const works = rankWorks(unique, rankingQuery, {
    weights: WEIGHTS[plan.emphasis],
    fromYear: plan.fromYear,
    toYear: plan.toYear,
    limit: topN,
    words,
  });
  const failed = [...reports.values()].filter((r) => r.error && r.count === 0);
  if (works.length === 0 && failed.length === sources.length) {
    // Every source failed for every query that ran: name each with its error.
    throw new AllSourcesFailedError(
      failed.map((r) => new SourceError(r.source, 'network', r.error ?? 'no answer')),
    );
  }
  return {
    works,
    reports: [...reports.values()],
    retrievedCount: succeeded.reduce((n, r) => n + r.retrievedCount, 0),
    uniqueCount: unique.length,
    requests: [...reports.values()].reduce((n, r) => n + r.requests, 0),
  };
}
