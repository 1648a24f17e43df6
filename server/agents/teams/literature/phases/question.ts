import { z } from 'zod';
import { literature } from '../definition';
import { QUESTION_SYSTEM } from '../prompts';

const MAX_QUERIES = 3;

const queriesSchema = z.object({
  queries: z.array(z.string()).min(1).max(6),
  synonyms: z.array(z.string()).max(20),
  jel_codes: z.array(z.string()).max(10),
});

const clean = (items: readonly string[], max: number, length: number) =>
  [
    ...new Set(
      items
        .map((s) => s.replace(/\s+/g, ' ').trim())
        .filter((s) => s.length > 1 && s.length <= length),
    ),
  ].slice(0, max);

/** Phase 1: the question (checked non-blank by the input schema) as search queries. */
export const questionPhase = literature.phase('question', {
  name: 'Research Question',
  description: 'Checks the question and turns it into search queries (synonyms, JEL terms).',
  requiresModel: true,
  async run(ctx) {
    const question = ctx.input.researchQuestion.trim();
    await ctx.log(`Research question: "${question}"`);
    const reply = await ctx.llm.generateObject(queriesSchema, {
      system: QUESTION_SYSTEM,
      prompt: `Research question: ${question}`,
      schemaName: 'search_queries',
    });
    const queries = clean(reply.object.queries, MAX_QUERIES, 200);
    const synonyms = clean(reply.object.synonyms, 20, 100);
    const jelCodes = clean(reply.object.jel_codes, 10, 120);
    if (queries.length === 0) {
      // The model gave nothing usable: the question itself is searched.
      queries.push(question.slice(0, 200));
      await ctx.log.warn('The model proposed no usable query; the question itself is searched');
    }
    await ctx.log(
      `The model turned the question into ${queries.length} search ${queries.length === 1 ? 'query' : 'queries'}: ` +
        queries.map((q) => `"${q}"`).join('; '),
    );
    if (synonyms.length) await ctx.log(`Synonyms: ${synonyms.join(', ')}`);
    if (jelCodes.length) await ctx.log(`JEL codes: ${jelCodes.join('; ')}`);
    return { researchQuestion: question, queries, synonyms, jelCodes };
  },
});
