import { z } from 'zod';
import { literature } from '../definition';
import { jelCode, looksLikeCode } from '../metadata';
import { QUESTION_SYSTEM } from '../prompts';

const MAX_QUERIES = 3;

// Lists may come back empty or with blank entries from a weak model: the code fills in.
const queriesSchema = z.object({
  queries: z.array(z.string()).max(6),
  synonyms: z.array(z.string()).max(20),
  jel_codes: z.array(z.string()).max(10),
});

/** Distinct one-line values of a sensible length; values that read as program code are out. */
const clean = (items: readonly string[], max: number, length: number) =>
  [
    ...new Set(
      items
        .map((s) => s.replace(/\s+/g, ' ').trim())
        .filter((s) => s.length > 1 && s.length <= length && !looksLikeCode(s)),
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
    const jelCodes = clean(
      reply.object.jel_codes.flatMap((c) => jelCode(c) ?? []),
      10,
      120,
    );
    // Named by count only: the log must not repeat program text as if it were metadata.
    const rejected =
      [...reply.object.queries, ...reply.object.synonyms].filter(looksLikeCode).length +
      reply.object.jel_codes.filter((c) => c.trim() && !jelCode(c)).length;
    if (rejected > 0)
      await ctx.log.warn(
        `Left out ${rejected} of the model's search terms and JEL codes: program text, or not a JEL code`,
      );
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
