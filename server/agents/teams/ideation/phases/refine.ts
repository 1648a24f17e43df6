import {
  FINAL_QUESTIONS_MIN,
  neutraliseMarkers,
  type RefinedQuestion,
} from '../../../../../common/teams/ideation';
import { say, warn } from '../agent-log';
import { ideation, phaseName } from '../definition';
import { clip, REFINER_SYSTEM, refinedSchema } from '../prompts';
import { questionKey, searchQueryFrom, sharpenQuestion } from '../questions';

/**
 * The Refiner: duplicates out, each candidate sharpened into one question with its search. When
 * the model's answer gives fewer than FINAL_QUESTIONS_MIN usable questions, the Ideator's
 * candidates (sharpened by code, searched by their own words) fill the list, so the session
 * keeps the work done so far.
 */
export const refinePhase = ideation.phase('refine', {
  name: phaseName('refine'),
  description:
    'Removes duplicates and sharpens each candidate into a single answerable question ending ' +
    "in '?', with the keywords that find its literature.",
  requiresModel: true,
  async run(ctx) {
    const { candidates } = ctx.resultOf('ideate');
    const { object } = await ctx.llm.generateObject(refinedSchema, {
      system: REFINER_SYSTEM,
      prompt:
        `Candidate questions:\n${candidates.map((c, i) => `${i + 1}. ${c}`).join('\n')}\n\n` +
        'Return the refined questions, each with its search keywords.',
      schemaName: 'refined_questions',
    });
    const seen = new Set<string>();
    const questions: RefinedQuestion[] = [];
    const add = (question: string | undefined, searchQuery: string) => {
      if (!question || !searchQuery) return;
      const key = questionKey(question);
      if (seen.has(key)) return;
      seen.add(key);
      questions.push({ id: `Q${questions.length + 1}`, question, searchQuery });
    };
    for (const q of object.questions) {
      const gated = await ctx.citations.gate(q.question, { where: 'Refiner' });
      const question = sharpenQuestion(clip(gated, 500));
      const searchQuery =
        clip(neutraliseMarkers(q.searchQuery).replace(/["()]/g, ' '), 120) ||
        (question ? searchQueryFrom(question) : '');
      add(question, searchQuery);
    }
    const fromModel = questions.length;
    if (fromModel < FINAL_QUESTIONS_MIN) {
      for (const c of candidates) {
        if (questions.length >= FINAL_QUESTIONS_MIN) break;
        const question = sharpenQuestion(c);
        add(question, question ? searchQueryFrom(question) : '');
      }
      await warn(
        ctx.log,
        'Refiner',
        `The model refined ${fromModel} usable questions; ${questions.length - fromModel} of the ` +
          "Ideator's candidates are kept as they were, searched by their own words",
      );
    }
    if (questions.length < FINAL_QUESTIONS_MIN) {
      throw new Error(
        `The Refiner kept ${questions.length} distinct questions; at least ${FINAL_QUESTIONS_MIN} are needed`,
      );
    }
    const dropped = Math.max(0, candidates.length - questions.length);
    await say(
      ctx.log,
      'Refiner',
      `Kept ${questions.length} questions from ${candidates.length} candidates` +
        (dropped ? ` (${dropped} merged as duplicates or dropped)` : ''),
    );
    for (const q of questions) {
      await say(ctx.log, 'Refiner', `${q.id}. ${q.question} (search: ${q.searchQuery})`);
    }
    return { questions, candidatesDropped: dropped };
  },
});
