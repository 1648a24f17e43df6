import { plural } from '../../../../../common/text';
import { reviewScores, type ReviewFinding } from '../../../../../common/teams/code';
import { lineCount } from '../code-text';
import { codeDefinition, phaseRow } from '../definition';
import { reviewAnswer, reviewPrompt, SYSTEM } from '../prompts';
import { readFindings } from '../review-findings';
import { workingFilesPrompt } from '../working-files';

/**
 * Phase 2: the model's findings on the code, with line numbers checked against it; the score is
 * computed from the findings, and a failing run adds a finding of its own. Every comment and the
 * summary pass the citation gate. A review the model could not give leaves the findings from
 * running the code, so the session goes on. Quick mode skips it (the phase finishes at once,
 * saying so).
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
    const setting = { ...ctx.configuration, files: workingFilesPrompt(generated.working_files) };

    let findings: ReviewFinding[] = [];
    let summary = '';
    try {
      const answer = await ctx.llm.generateObject(reviewAnswer, {
        system: SYSTEM,
        prompt: reviewPrompt(ctx.input.requirements, code, setting, runReport),
        schemaName: 'code_review',
      });
      const read = readFindings(answer.object.findings, lineCount(code));
      if (read.droppedLines > 0) {
        await ctx.log(
          `${plural(read.droppedLines, 'cited line number was', 'cited line numbers were')} outside the code and dropped from the findings`,
        );
      }
      for (const note of read.notes) await ctx.log.warn(`The review's answer: ${note}`);
      findings = [];
      for (const f of read.findings) {
        findings.push({
          ...f,
          comment: await ctx.citations.gate(f.comment, { where: 'a review finding' }),
        });
      }
      summary = await ctx.citations.gate(answer.object.summary, {
        where: "the reviewer's summary",
      });
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      await ctx.log.warn(
        `The model's review could not be read (${(err as Error).message}); the score counts only what running the code showed`,
      );
    }
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
      `Review: ${plural(findings.length, 'finding')}; score ${scores.overall} of 10 computed from them`,
    );
    return {
      skipped: false,
      overall_score: scores.overall,
      criteria: scores.criteria,
      findings,
      summary,
    };
  },
});
