import {
  FINAL_QUESTIONS_MIN,
  neutraliseMarkers,
  type ContextualizedQuestion,
  type Grounding,
  type RefinedQuestion,
} from '../../../../../common/teams/ideation';
import { say, warn } from '../agent-log';
import { ideation, phaseName } from '../definition';
import { checkCitations, groundQuestion, worksIn } from '../grounding';
import { CONTEXTUALIZER_SYSTEM, contextSchema } from '../prompts';
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
 * computed), then has the model tie the question to theory and to those works only.
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
    const byId = new Map(object.questions.map((c) => [c.id.trim().toUpperCase(), c]));
    const out: ContextualizedQuestion[] = [];
    let citationsRemoved = 0;
    for (const [i, q] of questions.entries()) {
      const grounding = groundings[i]!;
      const c = byId.get(q.id);
      if (!c) {
        await warn(ctx.log, 'Contextualizer', `${q.id} was left out by the model and is dropped`);
        continue;
      }
      const checked = checkCitations(neutraliseMarkers(c.context), c.citedWorks, grounding.works);
      citationsRemoved += checked.removed;
      const theory = neutraliseMarkers(c.theory);
      out.push({ ...q, theory, context: checked.text, citedWorks: checked.cited, grounding });
      await say(ctx.log, 'Contextualizer', `${q.id} ties to ${theory}. ${checked.text}`);
    }
    if (citationsRemoved > 0) {
      await warn(
        ctx.log,
        'Contextualizer',
        `Removed ${citationsRemoved} ${citationsRemoved === 1 ? 'citation' : 'citations'} of works that were not retrieved`,
      );
    }
    if (out.length < FINAL_QUESTIONS_MIN) {
      throw new Error(
        `The Contextualizer placed ${out.length} questions; at least ${FINAL_QUESTIONS_MIN} are needed`,
      );
    }
    return { questions: out, citationsRemoved };
  },
});
