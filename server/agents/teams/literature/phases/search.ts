import type { SearchPlan } from '../../../../../common/teams/literature';
import { removalLogLine } from '../../../kit';
import { literature } from '../definition';
import { gateGapTexts, proposeGaps, validateGaps } from '../research-gaps';
import { paperRecord } from '../report-document';
import { planFromFeedback } from '../plan';
import { research } from '../research';

/**
 * Phase 2 (checkpoint 1): search, merge, rank, extract, trends, proposed gaps. Feedback at the
 * checkpoint re-runs it: constraints such as "only after 2010" or "focus on developing
 * countries" search again; other feedback revises the gaps on the same papers.
 */
export const searchPhase = literature.phase('search', {
  name: 'Literature Search',
  description:
    'Searches every source, merges and ranks the results, extracts each paper’s key insight, ' +
    'methodology and findings, computes trends from publication counts and proposes gaps.',
  requiresModel: true,
  timeoutSeconds: 900,
  checkpoint: {
    title: 'Checkpoint 1: Literature Search Review',
    data: (r) => ({ papers: r.papers, researchGaps: r.gaps, trends: r.trends }),
  },
  async run(ctx) {
    const { researchQuestion: question, queries } = ctx.resultOf('question');
    const previous = ctx.revision?.previousResult;
    let plan: SearchPlan = {
      queries,
      emphasis: 'relevance',
      focus: [],
      notes: [],
      ...(ctx.configuration.fromYear ? { fromYear: ctx.configuration.fromYear } : {}),
      ...(ctx.configuration.toYear ? { toYear: ctx.configuration.toYear } : {}),
    };
    let searchAgain = true;
    if (ctx.revision && previous) {
      const outcome = await planFromFeedback(ctx.llm, previous.plan, ctx.revision.feedback, {
        question,
      });
      plan = outcome.plan;
      searchAgain = outcome.research;
      await ctx.log(
        outcome.research
          ? `Feedback applied to the search: ${outcome.changes.join('; ')}`
          : 'The feedback changes no search constraint: the papers stay, the gaps are revised',
      );
    }

    const found =
      searchAgain || !previous
        ? await research(
            {
              services: ctx.services,
              configuration: ctx.configuration,
              workspace: ctx.workspace,
              llm: ctx.llm,
              log: ctx.log,
              signal: ctx.signal,
              question,
            },
            plan,
            previous?.papers,
          )
        : previous;

    const proposed = await proposeGaps(ctx.llm, {
      question,
      papers: found.papers,
      trends: found.trends,
      ...(ctx.revision && previous
        ? { previous: previous.gaps, feedback: ctx.revision.feedback }
        : {}),
    });
    // Every paper of the corpus is a work retrieved in this session (what texts may cite).
    for (const p of found.papers) ctx.provenance.work(paperRecord(p));
    for (const id of ctx.configuration.libraryDocumentIds)
      ctx.provenance.input({ kind: 'document', id });
    if (found.trends.length)
      ctx.provenance.computation({
        id: 'trends',
        engine: 'openalex-counts',
        what: 'publication trends: works by year and growth of the last three years',
        version: '1',
      });
    const gated = gateGapTexts(proposed, found.papers);
    for (const r of gated.removed) await ctx.log.warn(removalLogLine(r.citation, 'Research Gaps'));
    const { kept, dropped } = validateGaps(gated.gaps, found.papers);
    for (const d of dropped)
      await ctx.log.warn(`Dropped a proposed gap because ${d.reason}: "${d.text.slice(0, 120)}"`);
    await ctx.log(
      `The model proposed ${proposed.length} research gaps; ${kept.length} rest on retrieved papers`,
    );
    return {
      plan,
      papers: found.papers,
      gaps: kept,
      trends: found.trends,
      sources: found.sources,
      retrievedCount: found.retrievedCount,
      uniqueCount: found.uniqueCount,
    };
  },
});
