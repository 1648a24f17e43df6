import { z } from 'zod';
import {
  CODE_FILES,
  CODE_LANGUAGE_LABELS,
  FINDING_SEVERITIES,
  REVIEW_CRITERIA,
  type CodeConfiguration,
  type CodeLanguage,
  type ReviewFinding,
} from '../../../../common/teams/code';
import { numberLines } from './code-text';

/**
 * What the Code team asks of the model, and the shapes its answers must have. The server runs
 * every program the model writes; the prompts say so, so the model writes code that runs as is.
 */

export const SYSTEM = [
  'You are a research software engineer on a team writing code for economists.',
  'Your code is run at once in a sandbox: no network, no interactive input, a private working',
  'directory, and only the packages of a standard Debian installation. The only input files are',
  'those the task lists (read-only, under data/). Write complete, runnable code; when the task',
  'needs data and lists no data file, simulate example data with a fixed random seed. Save any',
  'figure as a PNG file in the working directory. Do not cite papers or other references. Answer',
  'in the JSON shape asked, with code as plain text (no Markdown fences).',
].join(' ');

const RUNTIME_NOTES: Record<CodeLanguage, string> = {
  python:
    'Python 3.11 with numpy, pandas, matplotlib (Agg backend), statsmodels and scipy. Put the ' +
    "work in functions and run it under `if __name__ == '__main__':` so tests can import it.",
  r:
    'R (Rscript) with its base and recommended packages only (stats, graphics, MASS, Matrix); ' +
    'no CRAN packages. Define functions first, then the script part.',
  matlab:
    'GNU Octave 7 (MATLAB-compatible). One script file; define local functions after a `1;` ' +
    'line at the top so that a test script can `source` the file and call them.',
  dynare:
    'Dynare 5 under GNU Octave: write one .mod file (var, varexo, parameters, model, ' +
    'initval or steady_state_model, steady, shocks, stoch_simul with nograph). It is run as ' +
    '`dynare model nograph`.',
  julia: 'Julia 1.x with its standard library only.',
};

const TEST_STYLE: Record<CodeLanguage, string> = {
  python:
    `pytest tests in ${CODE_FILES.python.test}: \`from main import ...\`, plain \`def test_...\` ` +
    'functions with assert statements and pytest.approx for floats.',
  r:
    `A test script ${CODE_FILES.r.test} that runs \`source("main.R")\`, then checks each ` +
    'behaviour in tryCatch and prints one line per check: `ok - <name>` or `not ok - <name>`, ' +
    'and ends with quit(status = 1) when any check failed.',
  matlab:
    `A test script ${CODE_FILES.matlab.test} that runs \`source('main.m')\`, then checks each ` +
    "behaviour in try/catch and prints one line per check: 'ok - <name>' or 'not ok - <name>', " +
    'and ends with exit(1) when any check failed.',
  dynare:
    `An Octave test script ${CODE_FILES.dynare.test}, run right after Dynare solved the model ` +
    'in the same session: check oo_.steady_state, oo_.dr or oo_.var (with M_.endo_names) with ' +
    "try/catch per check, print 'ok - <name>' or 'not ok - <name>' per check, and exit(1) when " +
    'any check failed.',
  julia:
    `A test script ${CODE_FILES.julia.test} that runs \`include("main.jl")\` and \`using Test\` ` +
    'with @testset and @test.',
};

/** The configuration, and the input files when there are any (they go into every prompt). */
export interface PromptSetting extends CodeConfiguration {
  /** What the model is told about the files in data/ (workingFilesPrompt), '' when none. */
  files?: string;
}

function configurationText(c: PromptSetting): string {
  const frameworks = c.frameworks.length > 0 ? c.frameworks.join(', ') : 'none in particular';
  return [
    `Language: ${CODE_LANGUAGE_LABELS[c.language]} (${RUNTIME_NOTES[c.language]})`,
    `Frameworks requested: ${frameworks}`,
    `File name: ${CODE_FILES[c.language].main}`,
    ...(c.files ? ['', c.files] : []),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------------------------

// The answers' shapes accept what a weak model sends (empty strings, other names for a
// criterion or a severity): the phases decide what to keep, so nothing computed is lost to a
// refused answer.
export const generationAnswer = z.object({
  code: z.string(),
  explanation: z.string(),
});

export function generationPrompt(requirements: string, c: PromptSetting): string {
  return [
    'Write the program these requirements describe.',
    '',
    `Requirements:\n${requirements}`,
    '',
    configurationText(c),
    '',
    'Answer with `code` (the whole file) and `explanation` (what it does, in a few sentences).',
  ].join('\n');
}

export const repairAnswer = z.object({
  code: z.string(),
  explanation: z.string(),
});

export function repairPrompt(
  what: string,
  code: string,
  failure: string,
  c: PromptSetting,
): string {
  return [
    `The ${what} failed when run in the sandbox.`,
    '',
    configurationText(c),
    '',
    `Code:\n${code}`,
    '',
    `Failure:\n${failure}`,
    '',
    'Fix the cause and answer with the whole corrected file as `code` and the fix in one ' +
      'sentence as `explanation`.',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Review
// ---------------------------------------------------------------------------------------------

export const reviewAnswer = z.object({
  summary: z.string(),
  findings: z.array(
    z.object({
      criterion: z.string().describe(`One of: ${REVIEW_CRITERIA.join(', ')}`),
      severity: z.string().describe(`One of: ${FINDING_SEVERITIES.join(', ')}`),
      lines: z.array(z.number()),
      comment: z.string(),
    }),
  ),
});

export function reviewPrompt(
  requirements: string,
  code: string,
  c: PromptSetting,
  runReport: string,
): string {
  return [
    'Review this code against its requirements. Report findings, each under one criterion ' +
      `(${REVIEW_CRITERIA.join(', ')}), with a severity (${FINDING_SEVERITIES.join(', ')}), ` +
      'the line numbers it concerns (as numbered below) and a comment. Report only real ' +
      'problems; no findings is a valid answer. Do not give a score: it is computed from the ' +
      'findings.',
    '',
    `Requirements:\n${requirements}`,
    '',
    configurationText(c),
    '',
    `What happened when the code was run in the sandbox:\n${runReport}`,
    '',
    `Code (numbered lines):\n${numberLines(code)}`,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Optimization
// ---------------------------------------------------------------------------------------------

export const optimizationAnswer = z.object({
  optimized_code: z.string(),
  changes: z.array(z.string()),
});

export function optimizationPrompt(
  requirements: string,
  code: string,
  findings: ReviewFinding[],
  c: PromptSetting,
): string {
  const list =
    findings.length > 0
      ? findings
          .map(
            (f, i) =>
              `${i + 1}. [${f.criterion}, ${f.severity}, lines ${f.lines.join(', ') || '-'}] ` +
              f.comment,
          )
          .join('\n')
      : '(none)';
  return [
    'Improve this code: address the review findings and make it clearer and faster where that ' +
      'does not change its results. Keep the same file, functions and behaviour.',
    '',
    `Requirements:\n${requirements}`,
    '',
    configurationText(c),
    '',
    `Review findings:\n${list}`,
    '',
    `Code (numbered lines):\n${numberLines(code)}`,
    '',
    'Answer with the whole improved file as `optimized_code` and one line per change as ' +
      '`changes`.',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

export const testsAnswer = z.object({ test_code: z.string() });

export function testsPrompt(requirements: string, code: string, c: PromptSetting): string {
  return [
    'Write tests for this code that check it meets its requirements (results, edge cases, ' +
      'invalid input where the code handles it).',
    '',
    `Test style: ${TEST_STYLE[c.language]}`,
    '',
    `Requirements:\n${requirements}`,
    '',
    configurationText(c),
    '',
    `Code (${CODE_FILES[c.language].main}):\n${code}`,
    '',
    'Answer with the whole test file as `test_code`.',
  ].join('\n');
}

export const testsRepairAnswer = z.object({
  /** The corrected program, or null when the program is right and the tests were wrong. */
  code: z.string().nullable(),
  /** The corrected tests, or null when the tests are right. */
  test_code: z.string().nullable(),
  explanation: z.string(),
});

export function testsRepairPrompt(
  code: string,
  testCode: string,
  failure: string,
  c: PromptSetting,
): string {
  return [
    'The tests failed when run in the sandbox against the code. Decide whether the code or the ' +
      'tests are wrong and fix that one (or both). Do not weaken a test that checks a ' +
      'requirement; fix the code instead.',
    '',
    configurationText(c),
    `Test style: ${TEST_STYLE[c.language]}`,
    '',
    `Code (${CODE_FILES[c.language].main}):\n${code}`,
    '',
    `Tests (${CODE_FILES[c.language].test}):\n${testCode}`,
    '',
    `Failure:\n${failure}`,
    '',
    'Answer with `code` (the whole corrected program, or null if unchanged), `test_code` (the ' +
      'whole corrected tests, or null if unchanged) and `explanation` (one sentence).',
  ].join('\n');
}
