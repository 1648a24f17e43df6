import { reviewScores, type ReviewFinding } from '../../../../../common/teams/code';
import { lineCount } from '../code-text';
import { codeDefinition, phaseRow } from '../definition';
import { reviewAnswer, reviewPrompt, SYSTEM } from '../prompts';

/**
 * Phase 2: the model's findings on the code, with line numbers checked against it; the score is
 * computed from the findings. Quick mode skips it (the phase finishes at once, saying so).
 */
export const reviewPhase = codeDefinition.phase('review', {
  name: phaseRow('review').name,
  description: 'Reviews the code for correctness, clarity, efficiency and reproducibility.',
  requiresModel: true,
  async run(ctx) {
    if (ctx.configuration.workflowMode === 'quick') {
      await ctx.log('Code Review skipped: quick mode runs generation and tests only');
      return {
        skipped: true,
        overall_score: null,
        criteria: null,
        findings: [],
        summary: '',
      };
    }
    const generated = ctx.resultOf('generation');
    const code = generated.main_code;
    const exec = generated.execution;
    const runReport = !exec
      ? 'It was not run.'
      : exec.ok
        ? 'It finished without error.'
        : `${exec.error}\n${exec.output.slice(-1500)}`;
    const answer = await ctx.llm.generateObject(reviewAnswer, {
      system: SYSTEM,
      prompt: reviewPrompt(ctx.input.requirements, code, ctx.configuration, runReport),
      schemaName: 'code_review',
    });
    // Line numbers are checked against the code: a finding keeps only lines that exist.
    const lines = lineCount(code);
    let dropped = 0;
    const findings: ReviewFinding[] = answer.object.findings.map((f) => {
      const valid = [...new Set(f.lines.filter((n) => n >= 1 && n <= lines))].sort((a, b) => a - b);
      dropped += f.lines.length - valid.length;
      return { ...f, lines: valid, source: 'model' as const };
    });
    if (exec && !exec.ok && exec.kind !== 'unavailable') {
      findings.push({
        criterion: 'correctness',
        severity: 'high',
        lines: [],
        comment: `The code fails when run: ${exec.error}`,
        source: 'sandbox',
      });
    }
    const scores = reviewScores(findings);
    await ctx.log(
      `Review: ${findings.length} finding(s); score ${scores.overall} of 10 computed from them` +
        (dropped > 0 ? ` (${dropped} cited line number(s) outside the code were dropped)` : ''),
    );
    return {
      skipped: false,
      overall_score: scores.overall,
      criteria: scores.criteria,
      findings,
      summary: answer.object.summary,
    };
  },
});
