import { isBlank, matchAnswers } from '../../../../../common/model-answers';
import {
  neutraliseMarkers,
  NOT_SUPPLIED_BY_MODEL,
  type ContextualizedQuestion,
  type Grounding,
  type ModelGapField,
  type RefinedQuestion,
} from '../../../../../common/teams/ideation';
import { say, warn } from '../agent-log';
import { ideation, phaseName } from '../definition';
import { checkCitations, groundQuestion, worksIn } from '../grounding';
import { clip, CONTEXTUALIZER_SYSTEM, contextSchema, questionIdOf } from '../prompts';
import { trendWindow, type TrendWindow } from '../trend-discovery';

const n = (x: number) => x.toLocaleString('en-US');

function countsText(g: Grounding, window: TrendWindow): string {
  const [r0, r1] = window.recent;
  const [b0, b1] = window.baseline;
  return (
    `${n(g.totalWorks)} works in OpenAlex match "${g.searchQuery}" ` +
    `(${n(worksIn(g, window.recent))} in ${r0}-${r1}, ${n(worksIn(g, window.baseline))} in ${b0}-${b1}): ${g.novelty}`
  );
}

function promptBlock(q: RefinedQuestion, g: Grounding, window: TrendWindow): string {
  const works = g.works.length
    ? g.works
        .map(
          (w) =>
            `  [${w.key}] ${w.title} (${w.year ?? 'n.d.'}` +
            `${w.authors.length ? `; ${w.authors.join(', ')}` : ''}; OpenAlex ${w.openalexId})`,
        )
        .join('\n')
    : '  (no works retrieved)';
  return `${q.id}. ${q.question}\n  Counts: ${countsText(g, window)}\n  Retrieved works:\n${works}`;
}

/**
 * The Contextualizer: retrieves each question's literature from OpenAlex (works and counts,
 * computed), then has the model tie the question to theory and to those works only. The model's
 * texts pass the citation gate (the works retrieved here are the session's) and the check of
 * their [W] keys. Every question keeps its computed grounding whatever the model answers: an
 * answer under another id is matched by position when the counts agree, and a theory or context
 * the model did not supply is marked as such.
 */
export const contextualizePhase = ideation.phase('contextualize', {
  name: phaseName('contextualize'),
  description:
    'Retrieves related works and publication counts from OpenAlex for each question and ties ' +
    'it to economic theory and to the retrieved works.',
  requiresModel: true,
  async run(ctx) {
    const { questions } = ctx.resultOf('refine');
    const trends = ctx.optionalResultOf('trends');
    const window: TrendWindow = trends
      ? { baseline: trends.baselineYears, recent: trends.recentYears }
      : trendWindow(new Date());

    const groundings = await Promise.all(
      questions.map((q) => groundQuestion(ctx.services.openalex, q, window, ctx.signal)),
    );
    for (const [i, q] of questions.entries()) {
      const g = groundings[i]!;
      // The works retrieved are the session's: the only ones any text may cite.
      for (const w of g.works) {
        ctx.provenance.work({
          id: w.openalexId,
          source: 'openalex',
          doi: w.doi,
          title: w.title,
          authors: w.authors,
          year: w.year,
        });
      }
      const ids = g.works.map((w) => `${w.openalexId}${w.year ? ` (${w.year})` : ''}`).join(', ');
      await say(
        ctx.log,
        'Contextualizer',
        `${q.id}: ${countsText(g, window)}; retrieved ${g.works.length} ${g.works.length === 1 ? 'work' : 'works'}` +
          (ids ? `: ${ids}` : ''),
      );
    }

    const { object } = await ctx.llm.generateObject(contextSchema, {
      system: CONTEXTUALIZER_SYSTEM,
      prompt:
        `${questions.map((q, i) => promptBlock(q, groundings[i]!, window)).join('\n\n')}\n\n` +
        'For every question id, give the theory, the context and the keys of the works cited.',
      schemaName: 'contexts',
    });
    const { matched, by } = matchAnswers(
      questions,
      object.questions,
      (q) => q.id,
      (c) => questionIdOf(c.id),
    );
    if (by === 'position') {
      await warn(
        ctx.log,
        'Contextualizer',
        'The model named the questions differently; its answers are matched to them in order',
      );
    }
    const out: ContextualizedQuestion[] = [];
    let citationsRemoved = 0;
    for (const [i, q] of questions.entries()) {
      const grounding = groundings[i]!;
      const c = matched[i];
      const theory = clip(
        neutraliseMarkers(await ctx.citations.gate(c?.theory ?? '', { where: 'Theory' })),
        300,
      ).replace(/[.\s]+$/, '');
      const gatedContext = await ctx.citations.gate(c?.context ?? '', { where: 'Theory' });
      const checked = checkCitations(
        clip(neutraliseMarkers(gatedContext), 1500),
        c?.citedWorks ?? [],
        grounding.works,
      );
      citationsRemoved += checked.removed;
      const modelGaps: ModelGapField[] = [];
      if (isBlank(theory)) modelGaps.push('theory');
      if (isBlank(checked.text)) modelGaps.push('context');
      out.push({
        ...q,
        theory,
        context: checked.text,
        citedWorks: checked.cited,
        grounding,
        modelGaps,
      });
      if (modelGaps.length === 2) {
        await warn(
          ctx.log,
          'Contextualizer',
          `${q.id}: the model supplied no theory or context; its works and counts are kept`,
        );
      } else if (modelGaps.length === 1) {
        const [gap] = modelGaps;
        await say(
          ctx.log,
          'Contextualizer',
          gap === 'theory'
            ? `${q.id}: ${NOT_SUPPLIED_BY_MODEL.theory} ${checked.text}`
            : `${q.id} ties to ${theory}. ${NOT_SUPPLIED_BY_MODEL.context}`,
        );
      } else {
        await say(ctx.log, 'Contextualizer', `${q.id} ties to ${theory}. ${checked.text}`);
      }
    }
    if (citationsRemoved > 0) {
      await warn(
        ctx.log,
        'Contextualizer',
        `Removed ${citationsRemoved} ${citationsRemoved === 1 ? 'citation' : 'citations'} of works that were not retrieved`,
      );
    }
    return { questions: out, citationsRemoved };
  },
});
