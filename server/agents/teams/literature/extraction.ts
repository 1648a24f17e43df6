import pLimit from 'p-limit';
import { z } from 'zod';
import type { Paper } from '../../../../common/teams/literature';
import { isBlank, matchAnswers } from '../../../../common/model-answers';
import type { ModelHandle } from '../../kit';
import { paperDigest, workKey } from './papers';
import { EXTRACTION_SYSTEM } from './prompts';

/**
 * Key insight, methodology and findings of each paper, by the model from the paper's abstract,
 * several papers per call (a default run of 40 works takes 8 calls). Papers extracted in an
 * earlier run of the session are reused, and papers without an abstract are not sent: their
 * fields say so instead of being guessed.
 */

export const EXTRACTION_BATCH = 5;
const PARALLEL_CALLS = 3;
export const NO_ABSTRACT = 'No abstract was retrieved for this work.';
const NOT_STATED = 'Not stated in the abstract';

const extractionSchema = z.object({
  papers: z.array(
    z.object({
      number: z.number().int(),
      key_insight: z.string(),
      methodology: z.string(),
      findings: z.string(),
    }),
  ),
});

export interface ExtractionOutcome {
  papers: Paper[];
  calls: number;
  reused: number;
  /** Papers the model returned nothing for. */
  missing: number[];
}

export async function extractPapers(
  llm: ModelHandle,
  papers: readonly Paper[],
  previous: readonly Paper[] = [],
): Promise<ExtractionOutcome> {
  const known = new Map(
    previous.filter((p) => p.extractedFrom === 'abstract').map((p) => [workKey(p), p]),
  );
  const out = new Map<number, Paper>();
  const todo: Paper[] = [];
  let reused = 0;
  for (const p of papers) {
    const before = known.get(workKey(p));
    if (before && before.abstract === p.abstract) {
      out.set(p.number, {
        ...p,
        key_insight: before.key_insight,
        methodology: before.methodology,
        findings: before.findings,
        extractedFrom: 'abstract',
      });
      reused++;
    } else if (!p.abstract.trim()) {
      out.set(p.number, {
        ...p,
        key_insight: NO_ABSTRACT,
        methodology: NO_ABSTRACT,
        findings: NO_ABSTRACT,
        extractedFrom: 'none',
      });
    } else todo.push(p);
  }

  const batches: Paper[][] = [];
  for (let i = 0; i < todo.length; i += EXTRACTION_BATCH)
    batches.push(todo.slice(i, i + EXTRACTION_BATCH));
  const limit = pLimit(PARALLEL_CALLS);
  const missing: number[] = [];
  await Promise.all(
    batches.map((batch) =>
      limit(async () => {
        const reply = await llm.generateObject(extractionSchema, {
          system: EXTRACTION_SYSTEM,
          prompt: batch.map((p) => paperDigest(p, true)).join('\n\n'),
          schemaName: 'paper_summaries',
        });
        // Summaries by paper number; by position when the model renumbered all of them.
        const { matched } = matchAnswers(
          batch,
          reply.object.papers,
          (p) => p.number,
          (e) => e.number,
        );
        for (const [i, p] of batch.entries()) {
          const e = matched[i];
          // An entry with three empty fields says nothing: the paper is not extracted.
          if (!e || [e.key_insight, e.methodology, e.findings].every(isBlank)) {
            missing.push(p.number);
            out.set(p.number, {
              ...p,
              key_insight: NOT_STATED,
              methodology: NOT_STATED,
              findings: NOT_STATED,
              extractedFrom: 'none',
            });
            continue;
          }
          out.set(p.number, {
            ...p,
            key_insight: e.key_insight.trim() || NOT_STATED,
            methodology: e.methodology.trim() || NOT_STATED,
            findings: e.findings.trim() || NOT_STATED,
            extractedFrom: 'abstract',
          });
        }
      }),
    ),
  );
  return {
    papers: papers.map((p) => out.get(p.number) ?? p),
    calls: batches.length,
    reused,
    missing: missing.sort((a, b) => a - b),
  };
}
