import {
  CODE_FILES,
  CODE_LANGUAGE_LABELS,
  CODE_PHASES,
  codeConfigurationSchema,
  codeInputSchema,
  generationResultSchema,
  optimizationResultSchema,
  reviewResultSchema,
  reviewScores,
  testResultSchema,
  type CodeConfiguration,
  type CodeFinalOutputs,
  type ReviewFinding,
} from '../../../../common/teams/code';
import { sandboxService, type ExecutionResult, type Sandbox } from '../../../engines/sandbox';
import { defineTeam, type Workspace } from '../../kit';
import {
  countTests,
  lineCount,
  seconds,
  stripFences,
  summarizeExecution,
  testRunOf,
} from './code-text';
import { dependenciesOf } from './dependencies';
import { packageDocument } from './package';
import {
  generationAnswer,
  generationPrompt,
  optimizationAnswer,
  optimizationPrompt,
  repairAnswer,
  repairPrompt,
  reviewAnswer,
  reviewPrompt,
  SYSTEM,
  testsAnswer,
  testsPrompt,
  testsRepairAnswer,
  testsRepairPrompt,
} from './prompts';
import { runWithRepairs } from './repair';
import { codeTeamRoutes } from './routes';

/**
 * The Code team (agent-teams.md §4 Code): Code Generation, Code Review, Optimization and Test
 * Development, without human checkpoints. Every program the model writes is run in the sandbox;
 * a failing run or failing tests go back to the model a bounded number of times. Quick mode
 * skips the review and the optimization (their phases finish at once, saying so), so the phase
 * numbers stay those of the spec in both modes.
 */
const team = defineTeam({
  id: 'code',
  name: 'Code Team',
  description: 'Generates, reviews, optimizes and tests research code that runs in a sandbox.',
  input: codeInputSchema,
  configuration: codeConfigurationSchema,
  results: {
    generation: generationResultSchema,
    review: reviewResultSchema,
    optimization: optimizationResultSchema,
    tests: testResultSchema,
  },
  services: { sandbox: sandboxService },
});

const phaseInfo = (key: (typeof CODE_PHASES)[number]['key']) =>
  CODE_PHASES.find((p) => p.key === key)!;

/** The user's Terminal & Runtime time limit (the sandbox caps it at the server's maximum). */
async function timeLimit(workspace: Workspace): Promise<number> {
  const settings = await workspace.settings.get();
  return settings.runtime.codeExecutionTimeLimitSeconds;
}

/** One line for the log about a run. */
function runLine(what: string, r: ExecutionResult): string {
  if (r.ok) {
    const figs = r.figures.length > 0 ? `, ${r.figures.length} figure(s)` : '';
    return `${what} ran in the sandbox in ${seconds(r.durationMs)} without error${figs}`;
  }
  return r.kind === 'unavailable'
    ? `${what} was not run: ${r.error}`
    : `${what} failed in the sandbox: ${r.error}`;
}

function runCode(
  sandbox: Sandbox,
  c: CodeConfiguration,
  code: string,
  seconds: number,
): Promise<ExecutionResult> {
  return sandbox.run({
    language: c.language,
    code,
    mainFile: CODE_FILES[c.language].main,
    timeLimitSeconds: seconds,
  });
}

const generation = team.phase('generation', {
  name: phaseInfo('generation').name,
  description: 'Writes the code for the requirements and runs it in the sandbox.',
  requiresModel: true,
  async run(ctx) {
    const c = ctx.configuration;
    const { sandbox } = ctx.services;
    const answer = await ctx.llm.generateObject(generationAnswer, {
      system: SYSTEM,
      prompt: generationPrompt(ctx.input.requirements, c),
      schemaName: 'generated_code',
    });
    const code = stripFences(answer.object.code);
    await ctx.log(
      `The model wrote ${lineCount(code)} lines of ${CODE_LANGUAGE_LABELS[c.language]} code`,
    );
    const limit = await timeLimit(ctx.workspace);
    const { state, result, repairs } = await runWithRepairs({
      what: 'The generated code',
      succeeded: 'the generated code now runs',
      initial: { code, explanation: answer.object.explanation },
      run: async (s) => {
        const r = await runCode(sandbox, c, s.code, limit);
        if (r.kind !== 'unavailable') await ctx.log(runLine('The code', r));
        return r;
      },
      repair: async (s, failure) => {
        const fix = await ctx.llm.generateObject(repairAnswer, {
          system: SYSTEM,
          prompt: repairPrompt('generated code', s.code, failure, c),
          schemaName: 'repaired_code',
        });
        return {
          state: { code: stripFences(fix.object.code), explanation: s.explanation },
          changed: 'code',
        };
      },
      log: ctx.log,
    });
    if (result.kind === 'unavailable') await ctx.log.warn(runLine('The code', result));
    else if (!result.ok) {
      await ctx.log.error(`The generated code still fails after ${repairs.length} repair(s)`);
    }
    return {
      main_code: state.code,
      language: c.language,
      file_name: CODE_FILES[c.language].main,
      frameworks: c.frameworks,
      explanation: state.explanation,
      execution: summarizeExecution(result),
      repairs,
    };
  },
});

const review = team.phase('review', {
  name: phaseInfo('review').name,
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

const optimization = team.phase('optimization', {
  name: phaseInfo('optimization').name,
  description: 'Improves the code along the review and runs the improved code.',
  requiresModel: true,
  async run(ctx) {
    if (ctx.configuration.workflowMode === 'quick') {
      await ctx.log('Optimization skipped: quick mode runs generation and tests only');
      return { skipped: true, optimized_code: null, changes: [], execution: null, repairs: [] };
    }
    const c = ctx.configuration;
    const generated = ctx.resultOf('generation');
    const reviewed = ctx.resultOf('review');
    const answer = await ctx.llm.generateObject(optimizationAnswer, {
      system: SYSTEM,
      prompt: optimizationPrompt(ctx.input.requirements, generated.main_code, reviewed.findings, c),
      schemaName: 'optimized_code',
    });
    const optimized = stripFences(answer.object.optimized_code);
    await ctx.log(`The model made ${answer.object.changes.length} change(s) to the code`);
    const limit = await timeLimit(ctx.workspace);
    const { state, result, repairs } = await runWithRepairs({
      what: 'The optimized code',
      succeeded: 'the optimized code now runs',
      initial: optimized,
      run: async (code) => {
        const r = await runCode(ctx.services.sandbox, c, code, limit);
        if (r.kind !== 'unavailable') await ctx.log(runLine('The optimized code', r));
        return r;
      },
      repair: async (code, failure) => {
        const fix = await ctx.llm.generateObject(repairAnswer, {
          system: SYSTEM,
          prompt: repairPrompt('optimized code', code, failure, c),
          schemaName: 'repaired_code',
        });
        return { state: stripFences(fix.object.code), changed: 'code' };
      },
      log: ctx.log,
    });
    if (result.kind === 'unavailable') await ctx.log.warn(runLine('The optimized code', result));
    else if (!result.ok) {
      await ctx.log.error(`The optimized code still fails after ${repairs.length} repair(s)`);
    }
    return {
      skipped: false,
      optimized_code: state,
      changes: answer.object.changes,
      execution: summarizeExecution(result),
      repairs,
    };
  },
});

/** The code the tests are written for: the optimized code unless it fails where the first ran. */
function codeForTests(
  generated: { main_code: string; execution: { ok: boolean } | null },
  optimized: { optimized_code: string | null; execution: { ok: boolean } | null } | undefined,
): { code: string; source: 'optimized' | 'generated' } {
  if (!optimized?.optimized_code) return { code: generated.main_code, source: 'generated' };
  const optimizedFails = optimized.execution !== null && !optimized.execution.ok;
  const generatedRan = generated.execution?.ok === true;
  return optimizedFails && generatedRan
    ? { code: generated.main_code, source: 'generated' }
    : { code: optimized.optimized_code, source: 'optimized' };
}

const tests = team.phase('tests', {
  name: phaseInfo('tests').name,
  description: 'Writes tests, runs them against the code in the sandbox, and saves the package.',
  requiresModel: true,
  async run(ctx) {
    const c = ctx.configuration;
    const files = CODE_FILES[c.language];
    const generated = ctx.resultOf('generation');
    const optimized = ctx.optionalResultOf('optimization');
    const chosen = codeForTests(generated, optimized);
    if (chosen.source === 'generated' && optimized?.optimized_code) {
      await ctx.log.warn(
        'The optimized code fails to run, so the tests are written for the generated code',
      );
    }
    const answer = await ctx.llm.generateObject(testsAnswer, {
      system: SYSTEM,
      prompt: testsPrompt(ctx.input.requirements, chosen.code, c),
      schemaName: 'tests',
    });
    const testCode = stripFences(answer.object.test_code);
    await ctx.log(`The model wrote ${lineCount(testCode)} lines of tests (${files.test})`);
    const limit = await timeLimit(ctx.workspace);
    const { state, result, repairs } = await runWithRepairs({
      what: 'The tests',
      succeeded: 'the tests now pass',
      initial: { code: chosen.code, testCode },
      run: async (s) => {
        const r = await ctx.services.sandbox.run({
          language: c.language,
          code: s.code,
          mainFile: files.main,
          mode: 'test',
          testFile: files.test,
          files: { [files.test]: s.testCode },
          timeLimitSeconds: limit,
        });
        // A test script may report failed checks and still exit 0: that is a failure too. The
        // count says more than "exited with status 1" to the model that repairs it.
        const failed = countTests(c.language, r.output).failed ?? 0;
        const run: ExecutionResult =
          failed > 0 && (r.kind === 'ok' || r.kind === 'exit')
            ? { ...r, ok: false, kind: 'exit', error: `${failed} test(s) failed` }
            : r;
        const summary = testRunOf(c.language, r);
        if (summary.status !== 'not_run') {
          const counts =
            summary.passed !== null ? ` (${summary.passed} passed, ${summary.failed} failed)` : '';
          await ctx.log(`Ran the tests in the sandbox: ${summary.status}${counts}`);
        }
        return run;
      },
      repair: async (s, failure) => {
        const fix = await ctx.llm.generateObject(testsRepairAnswer, {
          system: SYSTEM,
          prompt: testsRepairPrompt(s.code, s.testCode, failure, c),
          schemaName: 'tests_repair',
        });
        const code = fix.object.code ? stripFences(fix.object.code) : s.code;
        const newTests = fix.object.test_code ? stripFences(fix.object.test_code) : s.testCode;
        const codeChanged = code !== s.code;
        const testsChanged = newTests !== s.testCode;
        return {
          state: { code, testCode: newTests },
          changed:
            codeChanged && testsChanged
              ? 'both'
              : codeChanged
                ? 'code'
                : testsChanged
                  ? 'tests'
                  : 'none',
        };
      },
      log: ctx.log,
    });
    const run = testRunOf(c.language, result);
    if (run.status === 'not_run') await ctx.log.warn(`The tests were not run: ${run.error}`);
    else if (run.status === 'failed') {
      await ctx.log.error(`The tests still fail after ${repairs.length} repair(s)`);
    }
    const codeSource = state.code !== chosen.code ? 'repaired' : chosen.source;
    const dependencies = dependenciesOf(c.language, state.code, state.testCode);
    const partial = {
      test_code: state.testCode,
      test_file: files.test,
      code_file: files.main,
      code_under_test: state.code,
      code_source: codeSource,
      run,
      repairs,
      dependencies,
      documentId: null,
    } as const;

    let documentId: string | null = null;
    const reviewed = ctx.optionalResultOf('review');
    const input = {
      requirements: ctx.input.requirements,
      configuration: c,
      generation: generated,
      review: reviewed,
      optimization: optimized,
      tests: partial,
      date: new Date(),
    };
    try {
      const doc = await ctx.workspace.documents.save({
        name: `Code package (${CODE_LANGUAGE_LABELS[c.language]}): ${ctx.input.requirements.slice(0, 80)}`,
        category: 'code_documentation',
        format: 'md',
        content: packageDocument(input, dependencies),
        validated: run.status === 'passed',
        reproducible: run.status !== 'not_run',
      });
      documentId = doc.id;
      await ctx.log(
        `Saved the package (code, tests, README, dependencies) as document ${doc.name}`,
      );
    } catch (err) {
      await ctx.log.warn(`The package could not be saved as a document: ${(err as Error).message}`);
    }
    return { ...partial, documentId };
  },
});

export const codeTeam = team.build({
  phases: [generation, review, optimization, tests],
  finalOutputs: (results): CodeFinalOutputs | null => {
    const g = results.generation;
    if (!g) return null;
    const t = results.tests;
    return {
      language: g.language,
      code: t?.code_under_test ?? results.optimization?.optimized_code ?? g.main_code,
      test_code: t?.test_code ?? '',
      tests: t?.run.status ?? 'not_run',
      overall_score: results.review?.overall_score ?? null,
      documentId: t?.documentId ?? null,
    };
  },
  routes: codeTeamRoutes,
});
