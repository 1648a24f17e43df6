import { z } from 'zod';
import type { SearchPlan } from '../../../../common/teams/literature';
import type { ModelHandle } from '../../kit';
import { FEEDBACK_SYSTEM } from './prompts';

/**
 * Feedback at a checkpoint as search instructions. Year bounds are read from the text by code
 * ("only after 2010", "since 2015", "before 2000", "2005-2015"); the model adds focus terms and an
 * emphasis, and may name years only when they appear in the feedback (anything else is ignored).
 */

export interface YearBounds {
  fromYear?: number;
  toYear?: number;
}

/** Year bounds stated in the feedback, read without the model. */
export function yearsFromFeedback(text: string, currentYear: number): YearBounds {
  const out: YearBounds = {};
  const ok = (y: number) => y >= 1800 && y <= currentYear + 1;
  const range = /\b((?:18|19|20)\d{2})\s*(?:-|–|to|until|through)\s*((?:18|19|20)\d{2})\b/i.exec(
    text,
  );
  if (range && ok(Number(range[1])) && ok(Number(range[2]))) {
    const a = Number(range[1]);
    const b = Number(range[2]);
    return { fromYear: Math.min(a, b), toYear: Math.max(a, b) };
  }
  const after = /\b(?:after|later than|post)\s+((?:18|19|20)\d{2})\b/i.exec(text);
  if (after && ok(Number(after[1]))) out.fromYear = Number(after[1]) + 1;
  const since = /\b(?:since|from|starting(?: in)?|as of)\s+((?:18|19|20)\d{2})\b/i.exec(text);
  if (since && ok(Number(since[1])) && out.fromYear === undefined) out.fromYear = Number(since[1]);
  const before = /\b(?:before|earlier than|prior to|pre)\s+((?:18|19|20)\d{2})\b/i.exec(text);
  if (before && ok(Number(before[1]))) out.toYear = Number(before[1]) - 1;
  const until = /\b(?:until|up to|through|by)\s+((?:18|19|20)\d{2})\b/i.exec(text);
  if (until && ok(Number(until[1])) && out.toYear === undefined) out.toYear = Number(until[1]);
  const lastN = /\b(?:last|past)\s+(\d{1,2})\s+years\b/i.exec(text);
  if (lastN && out.fromYear === undefined) out.fromYear = currentYear - Number(lastN[1]);
  return out;
}

export const feedbackPlanSchema = z.object({
  add_terms: z.array(z.string()).max(5),
  emphasis: z.enum(['relevance', 'recent', 'cited']).nullable(),
  from_year: z.number().int().nullable(),
  to_year: z.number().int().nullable(),
});

export interface FeedbackOutcome {
  plan: SearchPlan;
  /** The corpus must be searched again (years or focus changed). */
  research: boolean;
  /** What changed, in words, for the log. */
  changes: string[];
}

/** The new search plan after the researcher's feedback (one model call). */
export async function planFromFeedback(
  llm: ModelHandle,
  previous: SearchPlan,
  feedback: string,
  options: { currentYear?: number; question: string },
): Promise<FeedbackOutcome> {
  const currentYear = options.currentYear ?? new Date().getUTCFullYear();
  const reply = await llm.generateObject(feedbackPlanSchema, {
    system: FEEDBACK_SYSTEM,
    prompt:
      `Research question: ${options.question}\n` +
      `Current search queries: ${previous.queries.join(' | ')}\n` +
      `Current year bounds: ${previous.fromYear ?? 'none'} to ${previous.toYear ?? 'none'}\n` +
      `Feedback: ${feedback}`,
    schemaName: 'search_instructions',
  });
  const stated = yearsFromFeedback(feedback, currentYear);
  // The model may only repeat years the researcher wrote.
  const named = (y: number | null) => (y !== null && feedback.includes(String(y)) ? y : undefined);
  const fromYear = stated.fromYear ?? named(reply.object.from_year) ?? previous.fromYear;
  const toYear = stated.toYear ?? named(reply.object.to_year) ?? previous.toYear;
  const newTerms = reply.object.add_terms
    .map((t) => t.trim())
    .filter((t) => t.length > 1 && t.length <= 80)
    .filter((t) => !previous.focus.some((f) => f.toLowerCase() === t.toLowerCase()));
  const emphasis = reply.object.emphasis ?? previous.emphasis;

  const changes: string[] = [];
  if (fromYear !== previous.fromYear || toYear !== previous.toYear)
    changes.push(`publication years ${fromYear ?? 'any'} to ${toYear ?? 'any'}`);
  if (newTerms.length) changes.push(`focus on ${newTerms.map((t) => `"${t}"`).join(', ')}`);
  if (emphasis !== previous.emphasis) changes.push(`ranking favours ${emphasis} work`);

  const focus = [...previous.focus, ...newTerms];
  const queries = newTerms.length
    ? [
        ...previous.queries.slice(0, 2).map((q) => `${q} ${newTerms.join(' ')}`),
        ...previous.queries.slice(0, 1),
      ]
    : previous.queries;
  const plan: SearchPlan = {
    queries: [...new Set(queries)].slice(0, 4),
    emphasis,
    focus,
    notes: [...previous.notes, feedback],
    ...(fromYear !== undefined ? { fromYear } : {}),
    ...(toYear !== undefined ? { toYear } : {}),
  };
  return { plan, research: changes.length > 0, changes };
}
