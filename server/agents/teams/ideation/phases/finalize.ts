import { isBlank, matchAnswers } from '../../../../../common/model-answers';
import {
  FINAL_QUESTIONS_MAX,
  FINAL_QUESTIONS_MIN,
  neutraliseMarkers,
  questionItemText,
  TERMINATE_MARKER,
  type ContextualizedQuestion,
  type FinalQuestion,
  type ModelGapField,
} from '../../../../../common/teams/ideation';
import { say, warn } from '../agent-log';
import { ideation, phaseName } from '../definition';
import { finalQuestionsLine } from '../final-line';
import { checkCitations, worksIn } from '../grounding';
import { clip, FINALIZER_SYSTEM, questionIdOf, rankingSchema } from '../prompts';
import { questionSetItems, questionSetMarkdown, questionSetName } from '../question-set';
import { topicItemText } from '../trend-discovery';

/**
 * The Finalizer: 3 to 5 questions ranked with a justification; the question set saved as a
 * document; FINAL_QUESTIONS; TERMINATE. The model's ranking is read by question id, by position
 * when it renamed every question and the counts agree; questions it did not rank keep the
 * Refiner's order after the ranked ones, marked as unranked, so a weak model never costs the
 * session its grounded questions.
 */
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
        `${q.id}. ${q.question}\n  Theory: ${q.theory || 'none given'}\n  Context: ${q.context || 'none given'}\n` +
        `  Matching works in OpenAlex: ${g.totalWorks}${recent}, ${g.novelty}\n` +
        `  Retrieved works: ${works || 'none'}`
      );
    });
    const { object } = await ctx.llm.generateObject(rankingSchema, {
      system: FINALIZER_SYSTEM,
      prompt: `${blocks.join('\n\n')}\n\nRank the best questions by id, each with its justification.`,
      schemaName: 'ranking',
    });

    const { matched, by, unmatched } = matchAnswers(
      questions,
      object.ranking,
      (q) => q.id,
      (entry) => questionIdOf(entry.id),
    );
    for (const entry of unmatched) {
      await warn(
        ctx.log,
        'Finalizer',
        `Ignored a ranking entry for unknown or repeated id ${clip(neutraliseMarkers(entry.id), 40) || '(none)'}`,
      );
    }
    if (by === 'position') {
      await warn(
        ctx.log,
        'Finalizer',
        'The model named the questions differently; its ranking is matched to them in order',
      );
    }
    // The model's order, then (where it ranked too few) the Refiner's order.
    const chosen = questions
      .map((q, i) => ({
        q,
        entry: matched[i],
        at: matched[i] ? object.ranking.indexOf(matched[i]) : -1,
      }))
      .filter((c) => c.entry)
      .sort((a, b) => a.at - b.at)
      .slice(0, FINAL_QUESTIONS_MAX);
    const unranked = questions.filter((q) => !chosen.some((c) => c.q.id === q.id));
    const fill = chosen.length === 0 ? FINAL_QUESTIONS_MAX : FINAL_QUESTIONS_MIN;
    const kept = unranked.slice(0, Math.max(0, fill - chosen.length));
    if (kept.length > 0) {
      await warn(
        ctx.log,
        'Finalizer',
        `The model ranked ${chosen.length} of the questions; ${kept.map((q) => q.id).join(', ')} ` +
          "follow in the Refiner's order, marked as not ranked by the model",
      );
    }

    const ranked: FinalQuestion[] = [];
    let citationsRemoved = 0;
    const finalOf = async (
      q: ContextualizedQuestion,
      justificationText: string,
      extraGaps: ModelGapField[],
    ) => {
      const gated = await ctx.citations.gate(justificationText, { where: 'Finalizer' });
      const checked = checkCitations(clip(neutraliseMarkers(gated), 800), [], q.grounding.works);
      citationsRemoved += checked.removed;
      const modelGaps: ModelGapField[] = [...q.modelGaps, ...extraGaps];
      if (isBlank(checked.text) && !modelGaps.includes('justification'))
        modelGaps.push('justification');
      ranked.push({
        rank: ranked.length + 1,
        id: q.id,
        question: q.question,
        justification: checked.text,
        theory: q.theory,
        context: q.context,
        grounding: q.grounding,
        modelGaps,
      });
    };
    for (const c of chosen) await finalOf(c.q, c.entry!.justification, []);
    for (const q of kept) await finalOf(q, '', ['ranking']);
    if (citationsRemoved > 0) {
      await warn(
        ctx.log,
        'Finalizer',
        `Removed ${citationsRemoved} ${citationsRemoved === 1 ? 'citation' : 'citations'} of works that were not retrieved`,
      );
    }
    if (ranked.length < FINAL_QUESTIONS_MIN) {
      throw new Error(
        `The Finalizer has ${ranked.length} questions to give; at least ${FINAL_QUESTIONS_MIN} are needed`,
      );
    }
    const window = trends ? { baseline: trends.baselineYears, recent: trends.recentYears } : null;
    const topicItems = window ? topics.map((t) => topicItemText(t, window)) : [];
    const { line, items } = finalQuestionsLine(topicItems, ranked);

    const documentId = await saveQuestionSet(ctx, ranked);

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
    return { mode: ctx.input.mode, topics, questions: ranked, items, documentId };

    /** The question set as a document of the session (in its project, if any). */
    async function saveQuestionSet(
      c: typeof ctx,
      final: readonly FinalQuestion[],
    ): Promise<string | null> {
      const name = questionSetName(c.input);
      const shownTrends = c.input.mode === 'automatic' ? trends : undefined;
      try {
        const saved = await c.workspace.documents.save({
          name,
          category: 'research_report',
          format: 'md',
          content: questionSetMarkdown({ name, questions: final, trends: shownTrends }),
          provenance: { items: questionSetItems(final, shownTrends) },
        });
        await c.log(`Saved the question set as the document "${saved.name}"`);
        return saved.id;
      } catch (error) {
        if (c.signal.aborted) throw error;
        await c.log.warn(
          `The question set could not be saved as a document: ${error instanceof Error ? error.message : String(error)}; ` +
            'the questions stay on this screen',
        );
        return null;
      }
    }
  },
});
