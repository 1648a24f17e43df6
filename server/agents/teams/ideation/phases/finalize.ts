import {
  FINAL_QUESTIONS_MARKER,
  FINAL_QUESTIONS_MIN,
  neutraliseMarkers,
  questionItemText,
  TERMINATE_MARKER,
  type FinalQuestion,
} from '../../../../common/teams/ideation';
import { ideation, say, warn } from './definition';
import { checkCitations, worksIn } from './grounding';
import { FINALIZER_SYSTEM, rankingSchema } from './prompts';
import { topicItemText } from './trends';

/**
 * The runtime keeps log lines up to 4,000 characters (longer ones are cut, which would break the
 * JSON); the FINAL_QUESTIONS line stays under this.
 */
export const FINAL_LINE_MAX = 3800;

/** The FINAL_QUESTIONS line, shortening the longest justifications until it fits. */
export function finalQuestionsLine(
  topics: string[],
  questions: Array<{ question: string; justification: string }>,
  max = FINAL_LINE_MAX,
): { line: string; items: string[] } {
  const justifications = questions.map((q) => q.justification);
  for (;;) {
    const items = [
      ...topics,
      ...questions.map((q, i) => questionItemText(q.question, justifications[i] || undefined)),
    ];
    const line = `${FINAL_QUESTIONS_MARKER} ${JSON.stringify(items)}`;
    if (line.length <= max) return { line, items };
    // Shorten the longest one, down to the next longest at most, so the cuts even out.
    const order = justifications
      .map((_, i) => i)
      .sort((a, b) => justifications[b]!.length - justifications[a]!.length);
    const longest = order[0]!;
    const j = justifications[longest]!;
    if (j.length === 0) throw new Error('The final questions do not fit in one log line');
    const second = order.length > 1 ? justifications[order[1]!]!.length : 0;
    let target = Math.max(j.length - (line.length - max), second);
    if (target >= j.length) target = j.length - 40;
    // The ellipsis counts: the new text is at most `target` long, always shorter than before.
    justifications[longest] = target > 1 ? `${j.slice(0, target - 1).trimEnd()}…` : '';
  }
}

/** The Finalizer: 3 to 5 questions ranked with a justification; FINAL_QUESTIONS; TERMINATE. */
export const finalizePhase = ideation.phase('finalize', {
  name: 'Finalizer',
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
