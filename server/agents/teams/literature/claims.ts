import pLimit from 'p-limit';
import { z } from 'zod';
import type { FlaggedClaim, Paper } from '../../../../common/teams/literature';
import type { ModelHandle } from '../../kit';
import { matchAnswers } from '../../../../common/model-answers';
import { CLAIMS_SYSTEM } from './prompts';
import { citedSentences } from './verifier';

/**
 * Each cited sentence of a report checked against the abstracts of the works it cites, by the
 * model, several sentences per call. A sentence the abstracts do not support is flagged in the
 * report, right after it; a sentence that could not be checked (its works have no abstract, or
 * the check gave no verdict for it) is flagged as not checked. Nothing is removed silently.
 */

export const CLAIMS_BATCH = 8;
const PARALLEL_CALLS = 3;

const claimsSchema = z.object({
  checks: z.array(z.object({ id: z.number().int(), supported: z.boolean(), reason: z.string() })),
});

export type { FlaggedClaim };

export interface ClaimCheck {
  markdown: string;
  checked: number;
  flagged: FlaggedClaim[];
  calls: number;
}

/** A reason as the end of a sentence: trimmed, brackets out, one full stop. */
function reasonSentence(reason: string): string {
  const text = reason.replace(/[[\]]/g, '').replace(/\s+/g, ' ').trim();
  if (!text) return '';
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

export function flagText(claim: FlaggedClaim): string {
  const works = claim.works.map((n) => `work ${n}`).join(', ');
  const reason = reasonSentence(claim.reason);
  if (claim.kind === 'unchecked') {
    return ` **[Claim check: not checked against ${works}.${reason ? ` ${reason}` : ''}]**`;
  }
  return ` **[Claim check: not supported by the abstract of ${works}.${reason ? ` ${reason}` : ''}]**`;
}

/** Puts each flag right after its sentence in `body`. */
export function insertFlags(body: string, flagged: readonly FlaggedClaim[]): string {
  let out = body;
  for (const claim of flagged) {
    const at = out.indexOf(claim.sentence);
    if (at < 0) continue;
    const end = at + claim.sentence.length;
    out = `${out.slice(0, end)}${flagText(claim)}${out.slice(end)}`;
  }
  return out;
}

export async function checkClaims(
  llm: ModelHandle,
  body: string,
  papers: readonly Paper[],
): Promise<ClaimCheck> {
  const byNumber = new Map(papers.map((p) => [p.number, p]));
  const sentences = citedSentences(body);
  const flagged: FlaggedClaim[] = [];
  const toCheck: { id: number; sentence: string; works: number[] }[] = [];
  sentences.forEach((s, id) => {
    const withAbstract = s.works.filter((n) => byNumber.get(n)?.abstract.trim());
    if (withAbstract.length === 0) {
      flagged.push({
        sentence: s.sentence,
        works: s.works,
        reason: 'No abstract was retrieved for the cited work.',
        kind: 'unchecked',
      });
    } else toCheck.push({ id, sentence: s.sentence, works: withAbstract });
  });

  const batches: (typeof toCheck)[] = [];
  for (let i = 0; i < toCheck.length; i += CLAIMS_BATCH)
    batches.push(toCheck.slice(i, i + CLAIMS_BATCH));
  const limit = pLimit(PARALLEL_CALLS);
  await Promise.all(
    batches.map((batch) =>
      limit(async () => {
        const cited = [...new Set(batch.flatMap((b) => b.works))].sort((a, b) => a - b);
        const prompt = [
          'Abstracts of the cited works:',
          ...cited.map(
            (n) => `[${n}] ${byNumber.get(n)!.title}\n${byNumber.get(n)!.abstract.slice(0, 2000)}`,
          ),
          '',
          'Sentences to check:',
          ...batch.map((b) => `${b.id}. ${b.sentence}`),
        ].join('\n');
        const reply = await llm.generateObject(claimsSchema, {
          system: CLAIMS_SYSTEM,
          prompt,
          schemaName: 'claim_checks',
        });
        // Verdicts by their ids; by position when the model renumbered all of them.
        const { matched } = matchAnswers(
          batch,
          reply.object.checks,
          (b) => b.id,
          (c) => c.id,
        );
        for (const [i, b] of batch.entries()) {
          const v = matched[i];
          if (!v) {
            flagged.push({
              sentence: b.sentence,
              works: b.works,
              reason: 'The check gave no verdict for this sentence.',
              kind: 'unchecked',
            });
          } else if (!v.supported) {
            flagged.push({
              sentence: b.sentence,
              works: b.works,
              reason: v.reason.trim() || 'The check gave no reason.',
              kind: 'unsupported',
            });
          }
        }
      }),
    ),
  );
  const order = new Map(sentences.map((s, i) => [s.sentence, i]));
  flagged.sort((a, b) => (order.get(a.sentence) ?? 0) - (order.get(b.sentence) ?? 0));
  return {
    markdown: insertFlags(body, flagged),
    checked: sentences.length,
    flagged,
    calls: batches.length,
  };
}
