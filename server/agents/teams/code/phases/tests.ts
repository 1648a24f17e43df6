import { CODE_FILES, CODE_LANGUAGE_LABELS } from '../../../../../common/teams/code';
import type { ExecutionResult } from '../../../../engines/sandbox';
import { countTests, lineCount, stripFences, testRunOf } from '../code-text';
import { codeDefinition, phaseRow } from '../definition';
import { dependenciesOf } from '../dependencies';
import { packageDocument } from '../package';
import { SYSTEM, testsAnswer, testsPrompt, testsRepairAnswer, testsRepairPrompt } from '../prompts';
import { runWithRepairs } from '../repair';
import { timeLimit } from '../sandbox-runs';

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

/**
 * Phase 4: tests written for the final code and run against it in the sandbox (failing tests
 * go back for repair), then the package saved as a document.
 */
export const testsPhase = codeDefinition.phase('tests', {
  name: phaseRow('tests').name,
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
