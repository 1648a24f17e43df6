import {
  FINAL_QUESTIONS_MIN,
  neutraliseMarkers,
  questionItemText,
  TERMINATE_MARKER,
  type FinalQuestion,
} from '../../../../../common/teams/ideation';
import { say, warn } from '../agent-log';
import { ideation, phaseName } from '../definition';
import { finalQuestionsLine } from '../final-line';
import { checkCitations, worksIn } from '../grounding';
import { FINALIZER_SYSTEM, rankingSchema } from '../prompts';
import { topicItemText } from '../trend-discovery';

/** The Finalizer: 3 to 5 questions ranked with a justification; FINAL_QUESTIONS; TERMINATE. */
export const finalizePhase = ideation.phase('finalize', {
  name: phaseName('finalize'),
  description:
    "Ranks the 3 to 5 best questions, each with a justification after the word 'Justification:'.",
  requiresModel: true,
  async run(ctx) {
    const { questions } = ctx.resultOf('contextualize');
    const trends = ctx.optionalResultOf('trends');
    const topics = ctx.input.mode === 'automatic' ? (trends?.topics ?? []) : [];
    const blocks = questions.map((q) => {
      const g = q.grounding;
      const recent = trends ? ` (${worksIn(g, trends.recentYears)} in the last three years)` : '';
      const works = g.works.map((w) => `[${w.key}] ${w.title} (${w.year ?? 'n.d.'})`).join('; ');
      return (
        `${q.id}. ${q.question}\n  Theory: ${q.theory}\n  Context: ${q.context}\n` +
        `  Matching works in OpenAlex: ${g.totalWorks}${recent}, ${g.novelty}\n` +
        `  Retrieved works: ${works || 'none'}`
      );
    });
    const { object } = await ctx.llm.generateObject(rankingSchema, {
      system: FINALIZER_SYSTEM,
      prompt: `${blocks.join('\n\n')}\n\nRank the best questions by id, each with its justification.`,
      schemaName: 'ranking',
    });

    const byId = new Map(questions.map((q) => [q.id, q]));
    const ranked: FinalQuestion[] = [];
    let citationsRemoved = 0;
    for (const entry of object.ranking) {
      const q = byId.get(entry.id.trim().toUpperCase());
      if (!q || ranked.some((r) => r.id === q.id)) {
        await warn(
          ctx.log,
          'Finalizer',
          `Ignored a ranking entry for unknown or repeated id ${entry.id}`,
        );
        continue;
      }
      const checked = checkCitations(neutraliseMarkers(entry.justification), [], q.grounding.works);
      citationsRemoved += checked.removed;
      ranked.push({
        rank: ranked.length + 1,
        id: q.id,
        question: q.question,
        justification: checked.text,
        theory: q.theory,
        grounding: q.grounding,
      });
    }
    if (citationsRemoved > 0) {
      await warn(
        ctx.log,
        'Finalizer',
        `Removed ${citationsRemoved} ${citationsRemoved === 1 ? 'citation' : 'citations'} of works that were not retrieved`,
      );
    }
    if (ranked.length < FINAL_QUESTIONS_MIN) {
      throw new Error(
        `The Finalizer ranked ${ranked.length} of the questions it was given; at least ${FINAL_QUESTIONS_MIN} are needed`,
      );
    }
    const window = trends ? { baseline: trends.baselineYears, recent: trends.recentYears } : null;
    const topicItems = window ? topics.map((t) => topicItemText(t, window)) : [];
    const { line, items } = finalQuestionsLine(topicItems, ranked);

    await say(ctx.log, 'Finalizer', `Ranked ${ranked.length} of ${questions.length} questions`);
    for (const q of ranked) {
      await say(
        ctx.log,
        'Finalizer',
        `${q.rank}. ${questionItemText(q.question, q.justification || undefined)} ` +
          `[${q.grounding.totalWorks.toLocaleString('en-US')} matching works; ${q.grounding.novelty}]`,
      );
    }
    await ctx.log(line);
    await ctx.log(TERMINATE_MARKER);
    return { mode: ctx.input.mode, topics, questions: ranked, items };
  },
});
