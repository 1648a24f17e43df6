import {
  FINAL_QUESTIONS_MIN,
  JUSTIFICATION_MARKER,
  neutraliseMarkers,
  type RefinedQuestion,
} from '../../../../common/teams/ideation';
import { ideation, say } from './definition';
import { REFINER_SYSTEM, refinedSchema } from './prompts';

/**
 * One answerable question ending in '?': a leading number is dropped, anything after the first
 * question mark is cut (a second question is a second candidate), a missing mark is added, and
 * the word the log splits justifications at cannot appear in it.
 */
export function sharpenQuestion(text: string): string | undefined {
  let t = neutraliseMarkers(text)
    .replaceAll(JUSTIFICATION_MARKER, '')
    .replace(/^(?:Q?\d+\s*[.:)]\s*)+/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  const mark = t.indexOf('?');
  t = mark >= 0 ? t.slice(0, mark + 1) : `${t.replace(/[\s.!;:,]+$/, '')}?`;
  return t.length >= 10 ? t : undefined;
}

/** Questions that differ only in case, spacing or punctuation are one question. */
export function questionKey(question: string): string {
  return question
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The Refiner: duplicates out, each candidate sharpened into one question with its search. */
export const refinePhase = ideation.phase('refine', {
  name: 'Refiner',
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
