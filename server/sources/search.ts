import { dedupeWorks, rankWorks, type RankOptions, type RankedWork } from './merge';
import {
  AllSourcesFailedError,
  sourceError,
  type LiteratureSource,
  type SearchQuery,
  type SourceError,
  type SourceId,
} from './work';

/**
 * Searches several sources at once and returns one merged, de-duplicated, ranked list. A source
 * that fails is reported (not hidden); when every public source fails and nothing was found,
 * the search fails with an error naming each source and its error.
 */

export interface SourceReport {
  source: SourceId;
  label: string;
  /** Works this source returned. */
  count: number;
  total?: number;
  requests: number;
  error?: string;
}

export interface MultiSearchResult {
  works: RankedWork[];
  /** Unique works before ranking and the limit. */
  uniqueCount: number;
  /** Works returned by all sources together, duplicates included. */
  retrievedCount: number;
  reports: SourceReport[];
  failures: SourceError[];
}

export interface MultiSearchOptions extends RankOptions {
  /** Works asked of each source. Default 25. */
  perSource?: number;
  signal?: AbortSignal;
}

export async function searchSources(
  sources: readonly LiteratureSource[],
  query: string,
  options: MultiSearchOptions = {},
): Promise<MultiSearchResult> {
  const request: SearchQuery = {
    query,
    limit: options.perSource ?? 25,
    fromYear: options.fromYear,
    toYear: options.toYear,
    signal: options.signal,
  };
  const settled = await Promise.allSettled(sources.map((s) => s.search(request)));
  const failures: SourceError[] = [];
  const reports: SourceReport[] = [];
  const lists = settled.map((outcome, i) => {
    const source = sources[i]!;
    if (outcome.status === 'fulfilled') {
      reports.push({
        source: source.id,
        label: source.label,
        count: outcome.value.works.length,
        total: outcome.value.total,
        requests: outcome.value.requests,
      });
      return outcome.value.works;
    }
    const failure = sourceError(source.id, outcome.reason);
    failures.push(failure);
    reports.push({
      source: source.id,
      label: source.label,
      count: 0,
      requests: 0,
      error: failure.detail,
    });
    return [];
  });
  if (options.signal?.aborted) throw options.signal.reason;
  const retrievedCount = lists.reduce((n, l) => n + l.length, 0);
  const publicFailed = sources.every(
    (s, i) => s.id === 'library' || settled[i]?.status === 'rejected',
  );
  if (sources.length > 0 && failures.length > 0 && publicFailed && retrievedCount === 0)
    throw new AllSourcesFailedError(failures);
  const unique = dedupeWorks(lists);
  const works = rankWorks(unique, query, options);
  return { works, uniqueCount: unique.length, retrievedCount, reports, failures };
}
