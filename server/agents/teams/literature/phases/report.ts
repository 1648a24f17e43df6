import {
  gapText,
  type Paper,
  type ResearchGap,
  type Trend,
} from '../../../../../common/teams/literature';
import { checkClaims } from '../claims';
import { literature } from '../definition';
import { checkFigures } from '../figures';
import { buildReferences, paperDigest } from '../papers';
import { REPORT_SYSTEM } from '../prompts';
import { markModelSections, plainReport, trendTable } from '../report-document';
import { verifyReport } from '../verifier';

/**
 * Phase 4 (checkpoint 3): the model writes the review from the retrieved papers, gaps and trends;
 * the citation verifier (code) removes every citation and reference entry that does not resolve
 * to a retrieved work, each cited sentence is checked against the cited abstracts (flagged in the
 * report when they do not support it), and each figure of the prose against the computed trend
 * table and the cited abstracts (marked when found in neither). The model's sections are marked
 * as written by the model; the trend table and the references are added by code. Feedback
 * revises the report.
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
    const { papers, gaps, trends, plan } = ctx.resultOf('gaps');
    const question = ctx.input.researchQuestion.trim();
    const draft = await ctx.llm.generateText({
      system: REPORT_SYSTEM,
      prompt: reportPrompt({
        question,
        papers,
        gaps,
        trends,
        ...(ctx.revision
          ? {
              previous: plainReport(ctx.revision.previousResult.finalReport),
              feedback: ctx.revision.feedback,
            }
          : {}),
      }),
    });
    await ctx.log(
      ctx.revision
        ? `The model revised the report with the feedback (${words(draft.text)} words)`
        : `The model drafted the report (${words(draft.text)} words)`,
    );

    const blank = !draft.text.trim();
    if (blank)
      await ctx.log.warn(
        'The model returned no text for the review; the report holds the computed trend table ' +
          'and the verification only',
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
        f.kind === 'unchecked'
          ? `Claim not checked, citing ${f.works.map((n) => `[${n}]`).join(' ')}: "${f.sentence.slice(0, 160)}" (${f.reason})`
          : `Flagged claim citing ${f.works.map((n) => `[${n}]`).join(' ')}: "${f.sentence.slice(0, 160)}" (${f.reason})`,
      );
    const unsupported = claims.flagged.filter((f) => f.kind !== 'unchecked').length;
    const unchecked = claims.flagged.length - unsupported;
    await ctx.log(
      `Claim check: ${claims.checked} cited sentences checked against the cited abstracts in ` +
        `${claims.calls} model calls; ${unsupported} not supported and ${unchecked} not checkable, flagged in the report`,
    );
    const figures = checkFigures(claims.markdown, {
      trends,
      papers,
      researcherText: [question, ctx.revision?.feedback ?? ''].join('\n'),
      years: [plan.fromYear, plan.toYear],
    });
    for (const f of figures.unverified)
      await ctx.log.warn(
        `Figure check: "${f.figure}" is in neither the computed trend table nor the cited ` +
          `abstracts; marked as an unverified figure in "${f.sentence.slice(0, 160)}"`,
      );
    await ctx.log(
      `Figure check: ${figures.checked} figures of the prose checked against the computed trend ` +
        `table and the cited abstracts; ${figures.unverified.length} marked as unverified`,
    );
    const removed = verified.citationsRemoved.length + verified.referencesRemoved.length;
    const note =
      `_Verification: every citation was checked by code against the ${papers.length} works ` +
      `retrieved in this session (${verified.citationsChecked} checked, ${removed} removed); ` +
      `${claims.checked} cited sentences were checked against the cited abstracts and ` +
      `${claims.flagged.length} ${claims.flagged.length === 1 ? 'is' : 'are'} flagged above; ` +
      `${figures.checked} figures were checked against the computed trend table and the cited ` +
      `abstracts and ${figures.unverified.length} ${figures.unverified.length === 1 ? 'is' : 'are'} ` +
      `marked as unverified. The sections marked as written by the model are its own words._`;
    const body = blank
      ? '_The model returned no text for this review._'
      : markModelSections(figures.markdown.trimEnd()).markdown;
    const table = trendTable(trends);
    const finalReport = [body, table, verified.referencesMarkdown.trimEnd(), note]
      .filter(Boolean)
      .join('\n\n')
      .concat('\n');
    return {
      finalReport,
      references: buildReferences(papers, verified.cited),
      verification: {
        citationsChecked: verified.citationsChecked,
        citationsRemoved: verified.citationsRemoved,
        referencesRemoved: verified.referencesRemoved,
        claimsChecked: claims.checked,
        claimsFlagged: claims.flagged,
        figuresChecked: figures.checked,
        figuresUnverified: figures.unverified,
      },
    };
  },
});
