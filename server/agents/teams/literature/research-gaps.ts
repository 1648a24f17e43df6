import { z } from 'zod';
import {
  GAP_TEXT_MIN,
  gapText,
  type Paper,
  type ResearchGap,
  type Trend,
} from '../../../../common/teams/literature';
import { gateCitations, type CitationRemoval, type ModelHandle } from '../../kit';
import { normaliseTitle } from '../../../sources/work';
import { paperDigest } from './papers';
import { GAPS_SYSTEM } from './prompts';

/**
 * Research gaps: proposed (and revised with feedback) by the model, each tied to the retrieved
 * papers it rests on; then checked here: a gap must cite at least one retrieved paper, and its
 * text must be longer than GAP_TEXT_MIN characters.
 */

export const modelGapsSchema = z.object({
  gaps: z
    .array(
      z.object({
        gap_description: z.string(),
        opportunity: z.string(),
        recommendation: z.string(),
        supporting_papers: z.array(z.number().int()),
      }),
    )
    .max(12),
});

export interface DroppedGap {
  text: string;
  reason: string;
}

export function validateGaps(
  gaps: readonly ResearchGap[],
  papers: readonly Paper[],
): { kept: ResearchGap[]; dropped: DroppedGap[] } {
  const numbers = new Set(papers.map((p) => p.number));
  const seen = new Set<string>();
  const kept: ResearchGap[] = [];
  const dropped: DroppedGap[] = [];
  for (const gap of gaps) {
    const text = gapText(gap);
    const support = [...new Set(gap.supporting_papers)].filter((n) => numbers.has(n));
    const unknown = gap.supporting_papers.filter((n) => !numbers.has(n));
    if (text.length <= GAP_TEXT_MIN) {
      dropped.push({ text, reason: `its text has ${GAP_TEXT_MIN} characters or fewer` });
      continue;
    }
    if (support.length === 0) {
      dropped.push({
        text,
        reason: unknown.length
          ? `it cites only works that were not retrieved (${unknown.join(', ')})`
          : 'it cites no retrieved work',
      });
      continue;
    }
    const key = normaliseTitle(text);
    if (seen.has(key)) {
      dropped.push({ text, reason: 'it repeats another gap' });
      continue;
    }
    seen.add(key);
    kept.push({
      gap_description: text,
      opportunity: gap.opportunity.trim(),
      recommendation: gap.recommendation.trim(),
      supporting_papers: support.sort((a, b) => a - b),
    });
  }
  return { kept, dropped };
}

export function gapsPrompt(input: {
  question: string;
  papers: readonly Paper[];
  trends: readonly Trend[];
  previous?: readonly ResearchGap[];
  feedback?: string;
}): string {
  const parts = [
    `Research question: ${input.question}`,
    '',
    `Retrieved papers (cite them only by these numbers):`,
    ...input.papers.map((p) => paperDigest(p)),
  ];
  if (input.trends.length) {
    parts.push('', 'Publication trends (computed from OpenAlex counts):');
    for (const t of input.trends) parts.push(`- ${t.topic}: ${t.description}`);
  }
  if (input.previous?.length) {
    parts.push('', 'Your previous gaps:');
    input.previous.forEach((g, i) =>
      parts.push(
        `${i + 1}. ${gapText(g)} (opportunity: ${g.opportunity}; recommendation: ${g.recommendation}; papers ${g.supporting_papers.join(', ')})`,
      ),
    );
  }
  if (input.feedback) {
    parts.push(
      '',
      `The researcher's feedback on the gaps: ${input.feedback}`,
      'Revise the gaps accordingly.',
    );
  } else {
    parts.push('', 'Propose 3 to 6 research gaps.');
  }
  return parts.join('\n');
}

export async function proposeGaps(
  llm: ModelHandle,
  input: Parameters<typeof gapsPrompt>[0],
): Promise<ResearchGap[]> {
  const reply = await llm.generateObject(modelGapsSchema, {
    system: GAPS_SYSTEM,
    prompt: gapsPrompt(input),
    schemaName: 'research_gaps',
    schemaDescription: 'Research gaps, each tied to the retrieved papers that support it',
  });
  return reply.object.gaps;
}

/**
 * The gaps' texts through the citation gate: a reference in them to a work not retrieved in
 * this session (a paper number outside the set, an author-year citation or DOI of another work)
 * is removed. Returns the gaps and what was removed, for the log.
 */
export function gateGapTexts(
  gaps: readonly ResearchGap[],
  papers: readonly Paper[],
): { gaps: ResearchGap[]; removed: CitationRemoval[] } {
  const removed: CitationRemoval[] = [];
  const gate = (text: string) => {
    const gated = gateCitations(text, papers);
    removed.push(...gated.removed);
    return gated.removed.length ? gated.text.trim() : text;
  };
  return {
    gaps: gaps.map((g) => ({
      ...g,
      gap_description: gate(g.gap_description),
      opportunity: gate(g.opportunity),
      recommendation: gate(g.recommendation),
    })),
    removed,
  };
}
