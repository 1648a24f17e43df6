import { plural } from '../../../../common/text';
import type {
  LiteratureConfiguration,
  Paper,
  SearchPlan,
  Trend,
} from '../../../../common/teams/literature';
import type { ModelHandle, PhaseLog, Workspace } from '../../kit';
import type { SourceReport } from '../../../sources/search';
import { SOURCE_LABELS } from '../../../sources/work';
import { buildCorpus } from './corpus';
import { extractPapers } from './extraction';
import { paperFromWork } from './papers';
import { chooseSources, loadLibrary, type LiteratureServices } from './sources';
import { computeTrends } from './trends';

/**
 * Searching, merging, ranking, extracting and computing trends: what the Literature Search
 * phase does, and what Gaps Validation does again when feedback changes the search constraints.
 * Every log line is written after the step it reports.
 */

export interface ResearchDeps {
  services: LiteratureServices;
  configuration: LiteratureConfiguration;
  workspace: Pick<Workspace, 'documents'>;
  llm: ModelHandle;
  log: PhaseLog;
  signal: AbortSignal;
  question: string;
}

export interface ResearchOutcome {
  papers: Paper[];
  trends: Trend[];
  sources: SourceReport[];
  retrievedCount: number;
  uniqueCount: number;
}

export async function research(
  deps: ResearchDeps,
  plan: SearchPlan,
  previousPapers: readonly Paper[] = [],
): Promise<ResearchOutcome> {
  const { configuration, log } = deps;
  const library = await loadLibrary(configuration, deps.workspace, deps.services.crossref);
  for (const note of library.notes) await log(note);
  if (configuration.library.length)
    await log(
      `The library uploaded at start holds ${plural(configuration.library.length, 'work')}`,
    );

  const sources = chooseSources(deps.services, configuration.sources, library.works);
  if (sources.length === 0)
    throw new Error('No source to search: choose at least one public source or add a library');
  const years =
    plan.fromYear || plan.toYear
      ? ` (published ${plan.fromYear ?? '…'}-${plan.toYear ?? '…'})`
      : '';
  const corpus = await buildCorpus({
    sources,
    plan,
    question: deps.question,
    topN: configuration.topN,
    signal: deps.signal,
  });
  for (const r of corpus.reports) {
    if (r.error && r.count === 0) await log.warn(`${SOURCE_LABELS[r.source]} failed: ${r.error}`);
    else
      await log(
        `${SOURCE_LABELS[r.source]} returned ${plural(r.count, 'work')} for ${plural(plan.queries.length, 'query', 'queries')}` +
          (r.requests ? ` in ${plural(r.requests, 'request')}` : ''),
      );
  }
  if (corpus.works.length === 0)
    throw new Error(
      `No works were found for this question${years} in ${sources.map((s) => s.label).join(', ')}`,
    );
  await log(
    `Merged ${corpus.retrievedCount} retrieved records into ${corpus.uniqueCount} unique works ` +
      `(same DOI, or same title and year) and kept the top ${corpus.works.length} by relevance, ` +
      `citations and recency${years}`,
  );

  // Trends need the works, not their extraction: their OpenAlex counts are asked while the model
  // extracts (their outcome is logged after the extraction's, as the steps read). Stopped if the
  // extraction fails, so no request outlives the phase.
  const trendsStop = new AbortController();
  const trendsWork = configuration.sources.includes('openalex')
    ? computeTrends(deps.services.openalex, plan.queries[0] ?? deps.question, corpus.works, {
        signal: AbortSignal.any([deps.signal, trendsStop.signal]),
      }).then(
        (trends) => ({ trends }),
        (error: unknown) => ({ error }),
      )
    : undefined;

  const extraction = await extractPapers(
    deps.llm,
    corpus.works.map((w, i) => paperFromWork(w, i + 1)),
    previousPapers,
  ).catch((error: unknown) => {
    trendsStop.abort(error);
    throw error;
  });
  const fromAbstract = extraction.papers.filter((p) => p.extractedFrom === 'abstract').length;
  const noAbstract = extraction.papers.filter((p) => !p.abstract).length;
  await log(
    `Extracted key insight, methodology and findings of ${plural(fromAbstract, 'paper')} from ` +
      `their abstracts in ${plural(extraction.calls, 'model call')}` +
      (extraction.reused ? ` (${extraction.reused} reused from the previous run)` : '') +
      (noAbstract ? `; ${plural(noAbstract, 'paper')} without an abstract left as such` : ''),
  );
  if (extraction.missing.length)
    await log.warn(
      `The model returned no summary for papers ${extraction.missing.join(', ')}; they are marked as not extracted`,
    );

  let trends: Trend[] = [];
  if (trendsWork) {
    const outcome = await trendsWork;
    if ('trends' in outcome) {
      trends = outcome.trends;
      const emerging = trends.filter((t) => t.kind === 'emerging').map((t) => `"${t.topic}"`);
      await log(
        `Computed publication trends from OpenAlex counts by year for ${plural(trends.length, 'topic')}` +
          (emerging.length
            ? `; emerging: ${emerging.join(', ')}`
            : '; no topic grows faster than the question'),
      );
    } else {
      if (deps.signal.aborted) throw outcome.error;
      const { error } = outcome;
      await log.warn(
        `Trends not computed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  } else {
    await log('Trends not computed: OpenAlex, the source of publication counts, is not selected');
  }

  return {
    papers: extraction.papers,
    trends,
    sources: corpus.reports,
    retrievedCount: corpus.retrievedCount,
    uniqueCount: corpus.uniqueCount,
  };
}
