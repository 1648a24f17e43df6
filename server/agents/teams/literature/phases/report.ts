import {
  gapText,
  type Paper,
  type ResearchGap,
  type Trend,
} from '../../../../../common/teams/literature';
import { checkClaims } from '../claims';
import { literature } from '../definition';
import { buildReferences, paperDigest } from '../papers';
import { REPORT_SYSTEM } from '../prompts';
import { verifyReport } from '../verifier';

/**
 * Phase 4 (checkpoint 3): the model writes the review from the retrieved papers, gaps and trends;
 * the citation verifier (code) removes every citation and reference entry that does not resolve
 * to a retrieved work, and each cited sentence is checked against the cited abstracts, flagged
 * in the report when they do not support it. Feedback revises the report.
 */

export function reportPrompt(input: {
  question: string;
  papers: readonly Paper[];
  gaps: readonly ResearchGap[];
  trends: readonly Trend[];
  previous?: string;
  feedback?: string;
}): string {
  const parts = [
    `Research question: ${input.question}`,
    '',
    `Retrieved works (cite only these numbers, 1-${input.papers.length}):`,
    ...input.papers.map((p) => paperDigest(p)),
    '',
    'Research gaps (validated against the works above):',
    ...input.gaps.map(
      (g, i) =>
        `${i + 1}. ${gapText(g)} Opportunity: ${g.opportunity} Recommendation: ${g.recommendation} (works ${g.supporting_papers.join(', ')})`,
    ),
  ];
  if (input.trends.length) {
    parts.push('', 'Publication trends (computed from OpenAlex counts; quote these numbers only):');
    for (const t of input.trends) parts.push(`- ${t.topic} (${t.kind}): ${t.description}`);
  }
  if (input.previous && input.feedback) {
    parts.push(
      '',
      'Your previous report:',
      input.previous,
      '',
      `The researcher's feedback: ${input.feedback}`,
      'Write the revised report in full.',
    );
  } else {
    parts.push('', 'Write the literature review.');
  }
  return parts.join('\n');
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

export const reportPhase = literature.phase('report', {
  name: 'Report Generation',
  description:
    'Writes the review, verifies every citation against the retrieved works and flags claims ' +
    'the cited abstracts do not support.',
  requiresModel: true,
  timeoutSeconds: 900,
  checkpoint: {
    title: 'Checkpoint 3: Report Review',
    data: (r) => ({
      finalReport: r.finalReport,
      references: r.references,
      verification: r.verification,
    }),
  },
  async run(ctx) {
    const { papers, gaps, trends } = ctx.resultOf('gaps');
    const question = ctx.input.researchQuestion.trim();
    const draft = await ctx.llm.generateText({
      system: REPORT_SYSTEM,
      prompt: reportPrompt({
        question,
        papers,
        gaps,
        trends,
        ...(ctx.revision
          ? { previous: ctx.revision.previousResult.finalReport, feedback: ctx.revision.feedback }
          : {}),
      }),
    });
    await ctx.log(
      ctx.revision
        ? `The model revised the report with the feedback (${words(draft.text)} words)`
        : `The model drafted the report (${words(draft.text)} words)`,
    );

    const verified = verifyReport(draft.text, papers);
    for (const r of verified.citationsRemoved)
      await ctx.log.warn(`Citation verifier removed ${r.citation}: ${r.reason}`);
    for (const r of verified.referencesRemoved)
      await ctx.log.warn(
        `Citation verifier removed the reference entry "${r.citation}": ${r.reason}`,
      );
    await ctx.log(
      `Citation verifier: ${verified.citationsChecked} citations and reference entries checked ` +
        `against the ${papers.length} retrieved works; ${verified.citationsRemoved.length + verified.referencesRemoved.length} removed; ` +
        `${verified.cited.length} works cited`,
    );

    const claims = await checkClaims(ctx.llm, verified.body, papers);
    for (const f of claims.flagged)
      await ctx.log.warn(
        `Flagged claim citing ${f.works.map((n) => `[${n}]`).join(' ')}: "${f.sentence.slice(0, 160)}" (${f.reason})`,
      );
    await ctx.log(
      `Claim check: ${claims.checked} cited sentences checked against the cited abstracts in ` +
        `${claims.calls} model calls; ${claims.flagged.length} flagged in the report`,
    );

    const removed = verified.citationsRemoved.length + verified.referencesRemoved.length;
    const note =
      `_Verification: every citation was checked by code against the ${papers.length} works ` +
      `retrieved in this session (${verified.citationsChecked} checked, ${removed} removed); ` +
      `${claims.checked} cited sentences were checked against the cited abstracts and ` +
      `${claims.flagged.length} ${claims.flagged.length === 1 ? 'is' : 'are'} flagged above._`;
    const finalReport = `${claims.markdown.trimEnd()}\n\n${verified.referencesMarkdown}\n${note}\n`;
    return {
      finalReport,
      references: buildReferences(papers, verified.cited),
      verification: {
        citationsChecked: verified.citationsChecked,
        citationsRemoved: verified.citationsRemoved,
        referencesRemoved: verified.referencesRemoved,
        claimsChecked: claims.checked,
        claimsFlagged: claims.flagged,
      },
    };
  },
});
