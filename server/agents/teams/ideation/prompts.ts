import { z } from 'zod';
import { FINAL_QUESTIONS_MAX, FINAL_QUESTIONS_MIN } from '../../../../common/teams/ideation';

/**
 * What each agent asks the model for, and the shape its answer must have (checked by the model
 * layer, with one repair request). Counts, works and identifiers are never asked of the model:
 * code retrieves them and gives them to it.
 */

const TEAM =
  'You are part of a team of four agents (Ideator, Refiner, Contextualizer, Finalizer) that ' +
  'helps an economist find research questions worth a paper.';

export const IDEATOR_SYSTEM =
  `${TEAM} You are the Ideator: propose candidate research questions in economics. Each ` +
  'candidate is one question a researcher could answer with data or a model; be specific ' +
  'about the population, the mechanism or the policy. Do not cite papers.';

export const REFINER_SYSTEM =
  `${TEAM} You are the Refiner: merge candidates that ask the same thing, drop vague ones, and ` +
  'rewrite each remaining candidate as a single answerable question ending with a question ' +
  'mark. For each, give 2 to 6 search keywords that would find its literature in a ' +
  'bibliographic database (plain words, no operators).';

export const CONTEXTUALIZER_SYSTEM =
  `${TEAM} You are the Contextualizer: for each question, name the economic theory it ties to ` +
  'and say in two or three sentences how the retrieved works listed under it relate to it. ' +
  'Cite works only by their keys in square brackets, e.g. [W2], and only keys listed under ' +
  'that question; never mention any other paper. Use the publication counts to say whether ' +
  'the question is well studied or open.';

export const FINALIZER_SYSTEM =
  `${TEAM} You are the Finalizer: choose the ${FINAL_QUESTIONS_MIN} to ${FINAL_QUESTIONS_MAX} ` +
  'best questions and rank them, best first, weighing novelty (fewer matching works), ' +
  'feasibility and importance. For each, write a justification of one to three sentences ' +
  'that rests on the theory, the counts and the retrieved works you were given (cite works by ' +
  'key only, e.g. [W1]).';

/*
 * The answers' shapes ask for what the code needs and refuse nothing a weak model might send
 * (empty strings, too few or too many items, renamed ids): the phases keep what they can use,
 * mark what the model did not supply, and fail only when nothing computed can be kept.
 */

export const candidatesSchema = z.object({
  candidates: z
    .array(z.string())
    .max(12)
    .describe(
      `${FINAL_QUESTIONS_MIN} to 10 candidate research questions, one sentence each (${FINAL_QUESTIONS_MAX} to 8 preferred)`,
    ),
});

export const refinedSchema = z.object({
  questions: z
    .array(z.object({ question: z.string(), searchQuery: z.string() }))
    .max(10)
    .describe(`${FINAL_QUESTIONS_MIN} to 8 refined questions`),
});

export const contextSchema = z.object({
  questions: z.array(
    z.object({
      id: z.string().describe('The question id, e.g. Q1'),
      theory: z.string().describe('The economic theory, in a few words (at most 300 characters)'),
      context: z.string().describe('Two or three sentences (at most 1500 characters)'),
      citedWorks: z.array(z.string()).describe('Keys of the works cited, e.g. ["W1", "W3"]'),
    }),
  ),
});

export const rankingSchema = z.object({
  ranking: z
    .array(
      z.object({
        id: z.string().describe('The question id, e.g. Q2'),
        justification: z.string().describe('One to three sentences (at most 800 characters)'),
      }),
    )
    .max(10)
    .describe(`The ${FINAL_QUESTIONS_MIN} to ${FINAL_QUESTIONS_MAX} best questions, best first`),
});

/** 'Q2', 'q2', 'Question 2', '2' -> 'Q2'; anything else names no question. */
export function questionIdOf(raw: string): string | undefined {
  const m = /^\s*(?:q(?:uestion)?\s*)?(\d{1,2})\s*$/i.exec(raw);
  return m ? `Q${Number(m[1])}` : undefined;
}

/** A model's text cut to `max` characters at a word, one line. */
export function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).trimEnd()}…`;
}
