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

export const candidatesSchema = z.object({
  candidates: z
    .array(z.string().min(5).max(500))
    .min(FINAL_QUESTIONS_MIN)
    .max(10)
    .describe('Candidate research questions, one sentence each'),
});

export const refinedSchema = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().min(5).max(500),
        searchQuery: z.string().min(2).max(120),
      }),
    )
    .min(FINAL_QUESTIONS_MIN)
    .max(8),
});

export const contextSchema = z.object({
  questions: z.array(
    z.object({
      id: z.string().describe('The question id, e.g. Q1'),
      theory: z.string().min(2).max(300),
      context: z.string().min(2).max(1500),
      citedWorks: z.array(z.string()).describe('Keys of the works cited, e.g. ["W1", "W3"]'),
    }),
  ),
});

export const rankingSchema = z.object({
  ranking: z
    .array(
      z.object({
        id: z.string().describe('The question id, e.g. Q2'),
        justification: z.string().min(2).max(800),
      }),
    )
    .min(FINAL_QUESTIONS_MIN)
    .max(FINAL_QUESTIONS_MAX),
});
