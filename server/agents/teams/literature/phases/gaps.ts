import { REFERENCE_LINE_MIN } from '../../../../../common/teams/literature';
import { removalLogLine } from '../../../kit';
import { literature } from '../definition';
import { gateGapTexts, proposeGaps, validateGaps } from '../research-gaps';
import { paperRecord } from '../report-document';
import { buildReferences } from '../papers';
import { planFromFeedback } from '../plan';
import { research } from '../research';

/**
 * Phase 3 (checkpoint 2): the gaps checked against the papers and the references assembled.
 * Feedback here revises the gaps with the model (searching again first when it changes the
 * search constraints, e.g. "only after 2010").
 */
export const gapsPhase = literature.phase('gaps', {
  name: 'Gaps Validation',
  description: 'Revises the research gaps with your feedback and assembles the references.',
  requiresModel: true,
  timeoutSeconds: 900,
  checkpoint: {
    title: 'Checkpoint 2: Research Gaps Review',
    data: (r) => ({
      researchGaps: r.gaps,
      references: r.references,
      trends: r.trends,
      papers: r.papers,
    }),
  },
  async run(ctx) {
    const search = ctx.resultOf('search');
    const question = ctx.input.researchQuestion.trim();
    const base = ctx.revision?.previousResult ?? search;
    let { plan, papers, trends, gaps } = base;

    if (ctx.revision) {
      const outcome = await planFromFeedback(ctx.llm, plan, ctx.revision.feedback, { question });
      if (outcome.research) {
        await ctx.log(`Feedback applied to the search: ${outcome.changes.join('; ')}`);
        const found = await research(
          {
            services: ctx.services,
            configuration: ctx.configuration,
            workspace: ctx.workspace,
            llm: ctx.llm,
            log: ctx.log,
            signal: ctx.signal,
            question,
          },
          outcome.plan,
          papers,
        );
        plan = outcome.plan;
        papers = found.papers;
        trends = found.trends;
        for (const p of papers) ctx.provenance.work(paperRecord(p));
      }
      const revised = await proposeGaps(ctx.llm, {
        question,
        papers,
        trends,
        previous: gaps,
        feedback: ctx.revision.feedback,
      });
      await ctx.log(
        `The model revised the research gaps with the feedback (${revised.length} gaps)`,
      );
      const gated = gateGapTexts(revised, papers);
      for (const r of gated.removed)
        await ctx.log.warn(removalLogLine(r.citation, 'Research Gaps'));
      gaps = gated.gaps;
    }

    const { kept, dropped } = validateGaps(gaps, papers);
    for (const d of dropped)
      await ctx.log.warn(`Dropped a gap because ${d.reason}: "${d.text.slice(0, 120)}"`);
    await ctx.log(
      `Validated ${kept.length} research gaps: each rests on retrieved papers (${
        [...new Set(kept.flatMap((g) => g.supporting_papers))].length
      } papers cited by the gaps)`,
    );
    const references = buildReferences(papers);
    const short = papers.length - references.length;
    await ctx.log(
      `Assembled ${references.length} references from the retrieved works` +
        (short
          ? ` (${short} left out: reference line of ${REFERENCE_LINE_MIN} characters or fewer)`
          : ''),
    );
    return { plan, papers, gaps: kept, trends, references };
  },
});
