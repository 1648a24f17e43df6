import { plural } from '../../../../../common/text';
import type { ProvenanceItem } from '../../../../../common/provenance';
import {
  CODE_FILES,
  CODE_LANGUAGE_LABELS,
  packageReproducibility,
  type ExecutionSummary,
  type TestRun,
} from '../../../../../common/teams/code';
import type { ExecutionResult } from '../../../../engines/sandbox';
import {
  countTests,
  lineCount,
  stripFences,
  summarizeExecution,
  testRunOf,
  testsNotWritten,
} from '../code-text';
import { codeDefinition, phaseRow } from '../definition';
import { dependenciesOf } from '../dependencies';
import { packageDocument, type PackageInput } from '../package';
import { SYSTEM, testsAnswer, testsPrompt, testsRepairAnswer, testsRepairPrompt } from '../prompts';
import { runWithRepairs } from '../repair';
import { runCode, runLine, sessionDataFiles, timeLimit } from '../sandbox-runs';
import { workingFilesPrompt } from '../working-files';

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

/** What the saved package holds, item by item, and where each came from. */
function packageItems(p: PackageInput): ProvenanceItem[] {
  const items: ProvenanceItem[] = [
    { key: 'passage:code', origin: 'model', ref: 'the program, written by the model' },
  ];
  if (p.tests) {
    items.push({ key: 'passage:tests', origin: 'model', ref: 'the tests, written by the model' });
    items.push({ key: 'table:test-results', origin: 'computed', ref: 'sandbox test run' });
    if (p.tests.code_run) {
      items.push({ key: 'table:program-run', origin: 'computed', ref: 'sandbox run' });
    }
  }
  if (p.review && !p.review.skipped) {
    items.push({
      key: 'table:review-score',
      origin: 'computed',
      ref: 'computed from the findings',
    });
    if (p.review.findings.some((f) => f.source === 'model')) {
      items.push({ key: 'passage:review-findings', origin: 'model' });
    }
    if (p.review.summary.trim()) items.push({ key: 'passage:review-summary', origin: 'model' });
  }
  if (p.generation.explanation.trim()) items.push({ key: 'passage:explanation', origin: 'model' });
  if (p.optimization && !p.optimization.skipped && p.optimization.changes.length > 0) {
    items.push({ key: 'passage:optimization-changes', origin: 'model' });
  }
  for (const f of p.generation.working_files) {
    items.push({ key: `input:${f.path}`, origin: 'data', ref: `${f.kind} ${f.id}` });
  }
  return items;
}

/**
 * Phase 4: tests written for the final code and run against it in the sandbox (failing tests
 * go back for repair), the program run on its own, then the package saved as a document. Tests
 * the model does not give are recorded as not written; the runs made so far are kept.
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
    const setting = { ...c, files: workingFilesPrompt(generated.working_files) };
    const limit = await timeLimit(ctx.workspace);
    const { dataFiles } = await sessionDataFiles(ctx.input.workingFiles, {
      workspace: ctx.workspace,
      profiling: ctx.services.profiling,
      log: ctx.log,
    });

    let testCode = '';
    try {
      const answer = await ctx.llm.generateObject(testsAnswer, {
        system: SYSTEM,
        prompt: testsPrompt(ctx.input.requirements, chosen.code, setting),
        schemaName: 'tests',
      });
      testCode = answer.object.test_code.trim() ? stripFences(answer.object.test_code) : '';
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      await ctx.log.warn(`The model's tests could not be read (${(err as Error).message})`);
    }

    let state = { code: chosen.code, testCode };
    let run: TestRun;
    let repairs: Awaited<ReturnType<typeof runWithRepairs>>['repairs'] = [];
    if (!testCode) {
      run = testsNotWritten('The model wrote no tests, so none were run');
      await ctx.log.warn(run.error!);
    } else {
      await ctx.log(`The model wrote ${lineCount(testCode)} lines of tests (${files.test})`);
      const loop = await runWithRepairs({
        what: 'The tests',
        succeeded: 'the tests now pass',
        initial: state,
        run: async (s) => {
          const r = await ctx.services.sandbox.run({
            language: c.language,
            code: s.code,
            mainFile: files.main,
            mode: 'test',
            testFile: files.test,
            files: { [files.test]: s.testCode },
            dataFiles,
            timeLimitSeconds: limit,
          });
          // A test script may report failed checks and still exit 0: that is a failure too. The
          // count says more than "exited with status 1" to the model that repairs it.
          const failed = countTests(c.language, r.output).failed ?? 0;
          const counted: ExecutionResult =
            failed > 0 && (r.kind === 'ok' || r.kind === 'exit')
              ? { ...r, ok: false, kind: 'exit', error: `${plural(failed, 'test')} failed` }
              : r;
          const summary = testRunOf(c.language, r);
          if (summary.status !== 'not_run') {
            const counts =
              summary.passed !== null
                ? ` (${summary.passed} passed, ${summary.failed} failed)`
                : '';
            await ctx.log(`Ran the tests in the sandbox: ${summary.status}${counts}`);
            if (summary.error) await ctx.log(`The tests: ${summary.error}`);
          }
          return counted;
        },
        repair: async (s, failure) => {
          const fix = await ctx.llm.generateObject(testsRepairAnswer, {
            system: SYSTEM,
            prompt: testsRepairPrompt(s.code, s.testCode, failure, setting),
            schemaName: 'tests_repair',
          });
          // Null or empty means unchanged: a weak model's blank answer never wipes the code.
          const code = fix.object.code?.trim() ? stripFences(fix.object.code) : s.code;
          const newTests = fix.object.test_code?.trim()
            ? stripFences(fix.object.test_code)
            : s.testCode;
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
        signal: ctx.signal,
      });
      state = loop.state;
      repairs = loop.repairs;
      run = testRunOf(c.language, loop.result);
      if (run.status === 'not_run') await ctx.log.warn(run.error ?? 'The tests were not run');
      else if (run.status === 'failed') {
        await ctx.log.error(`The tests still fail after ${plural(repairs.length, 'repair')}`);
      }
    }

    // The package's program on its own: the run already made of the same code, else a new one.
    const known: ExecutionSummary | null =
      state.code === generated.main_code
        ? generated.execution
        : state.code === optimized?.optimized_code
          ? optimized.execution
          : null;
    let codeRun = known;
    if (!codeRun) {
      const r = await runCode(ctx.services.sandbox, c, state.code, limit, dataFiles);
      await ctx.log(runLine(`The package's program (${files.main})`, r));
      codeRun = summarizeExecution(r);
    }

    const codeSource = state.code !== chosen.code ? 'repaired' : chosen.source;
    const dependencies = dependenciesOf(c.language, state.code, state.testCode);
    const partial = {
      test_code: state.testCode,
      test_file: files.test,
      code_file: files.main,
      code_under_test: state.code,
      code_source: codeSource,
      code_run: codeRun,
      run,
      repairs,
      dependencies,
      documentId: null,
    } as const;

    let documentId: string | null = null;
    const reviewed = ctx.optionalResultOf('review');
    const input: PackageInput = {
      requirements: ctx.input.requirements,
      configuration: c,
      generation: generated,
      review: reviewed,
      optimization: optimized,
      tests: partial,
      date: new Date(),
    };
    const { reproducible, problems } = packageReproducibility(input);
    await ctx.log(
      reproducible
        ? 'The package reproduces: its tests passed in the sandbox and its program ran without error'
        : `The package is not marked reproducible: ${problems.join(' ')}`,
    );
    try {
      const doc = await ctx.workspace.documents.save({
        name: `Code package (${CODE_LANGUAGE_LABELS[c.language]}): ${ctx.input.requirements.slice(0, 80)}`,
        category: 'code_documentation',
        format: 'md',
        content: packageDocument(input, dependencies),
        validated: run.status === 'passed',
        reproducible,
        provenance: { items: packageItems(input) },
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
