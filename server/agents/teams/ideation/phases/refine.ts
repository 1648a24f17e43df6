import {
  FINAL_QUESTIONS_MIN,
  neutraliseMarkers,
  type RefinedQuestion,
} from '../../../../../common/teams/ideation';
import { say } from '../agent-log';
import { ideation, phaseName } from '../definition';
import { REFINER_SYSTEM, refinedSchema } from '../prompts';
import { questionKey, sharpenQuestion } from '../questions';

/** The Refiner: duplicates out, each candidate sharpened into one question with its search. */
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
    for (const q of object.questions) {
      const question = sharpenQuestion(q.question);
      const searchQuery = neutraliseMarkers(q.searchQuery).replace(/["()]/g, ' ').trim();
      if (!question || !searchQuery) continue;
      const key = questionKey(question);
      if (seen.has(key)) continue;
      seen.add(key);
      questions.push({ id: `Q${questions.length + 1}`, question, searchQuery });
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
