import { plural } from '../../../../common/text';
import {
  CODE_FILES,
  type CodeLanguage,
  type ExecutionSummary,
  type TestOutcome,
  type TestRun,
} from '../../../../common/teams/code';
import type { ExecutionResult } from '../../../engines/sandbox';

/** How much of a run's output a phase result keeps (its end, where the errors are). */
const OUTPUT_KEEP = 6000;

/** Models often wrap code in a Markdown fence even when asked for the code alone. */
export function stripFences(code: string): string {
  const trimmed = code.trim();
  const fenced = /^```[\w+-]*[ \t]*\n([\s\S]*?)\n?```$/.exec(trimmed);
  return `${(fenced ? fenced[1]! : trimmed).replace(/\s+$/, '')}\n`;
}

/** The code with 1-based line numbers, as the reviewer sees it (findings cite these). */
export function numberLines(code: string): string {
  const lines = code.replace(/\n$/, '').split('\n');
  const width = String(lines.length).length;
  return lines.map((l, i) => `${String(i + 1).padStart(width)} | ${l}`).join('\n');
}

export function lineCount(code: string): number {
  return code.replace(/\n$/, '').split('\n').length;
}

function tail(text: string, max = OUTPUT_KEEP): string {
  return text.length > max ? `...\n${text.slice(-max)}` : text;
}

/** A sandbox run as a phase result stores it (figure names only, the output's end). */
export function summarizeExecution(result: ExecutionResult): ExecutionSummary {
  return {
    ok: result.ok,
    kind: result.kind,
    exitCode: result.exitCode,
    output: tail(result.output),
    error: result.error ?? null,
    durationMs:
      result.kind === 'unavailable' || result.kind === 'invalid' ? null : result.durationMs,
    figures: result.figures.map((f) => f.name),
  };
}

/** The failure as the model is shown it for a repair: the error and the output's end. */
export function describeFailure(result: ExecutionResult): string {
  return `${result.error ?? 'It failed'}\n\nOutput (end):\n${tail(result.output, 3000) || '(none)'}`;
}

/** Runs that could be repaired by changing the code (not: nothing ran at all). */
export function isRepairable(result: ExecutionResult): boolean {
  return !result.ok && !['unavailable', 'invalid', 'sandbox-error'].includes(result.kind);
}

/** Seconds as the log says them. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The test counts the runner printed: pytest's summary line for Python ("2 failed, 3 passed in
 * 0.1s"), and TAP-style "ok - name" / "not ok - name" lines for the other languages (their tests
 * are asked to print them). Null when the output has neither.
 */
export function countTests(
  language: CodeLanguage,
  output: string,
): { passed: number | null; failed: number | null } {
  if (language === 'python') {
    const summary = output
      .split('\n')
      .reverse()
      .find((l) => /\b\d+ (passed|failed|errors?)\b/.test(l) && /\bin [\d.]+s\b/.test(l));
    if (!summary) return { passed: null, failed: null };
    const count = (re: RegExp) => Number(re.exec(summary)?.[1] ?? 0);
    return {
      passed: count(/(\d+) passed/),
      failed: count(/(\d+) failed/) + count(/(\d+) errors?\b/),
    };
  }
  const passed = output.match(/^ok\b/gm)?.length ?? 0;
  const failed = output.match(/^not ok\b/gm)?.length ?? 0;
  return passed + failed === 0 ? { passed: null, failed: null } : { passed, failed };
}

/** The runner each language's tests run under, as the explanations name it. */
const RUNNER: Record<CodeLanguage, string> = {
  python: 'pytest',
  r: 'Rscript',
  matlab: 'Octave',
  dynare: 'Dynare under Octave',
  julia: 'Julia',
};

/**
 * How a test run ended, and the same in words: the runner's exit status explained for each
 * language (pytest's 5 is "no tests collected", 2 a file that could not be collected; a test
 * script's status 1 with "not ok" lines is failed checks, without them an error), the limits and
 * a missing runtime said as such.
 */
export function testOutcomeOf(
  language: CodeLanguage,
  result: Pick<ExecutionResult, 'ok' | 'kind' | 'error' | 'exitCode' | 'limits'>,
  counts: { passed: number | null; failed: number | null },
): { outcome: TestOutcome; error: string | null } {
  const files = CODE_FILES[language];
  const runner = RUNNER[language];
  const failed = counts.failed ?? 0;
  const ran = (counts.passed ?? 0) + failed;
  switch (result.kind) {
    case 'unavailable':
      return {
        outcome: /bubblewrap|sandbox|filter/i.test(result.error ?? '')
          ? 'sandbox_unavailable'
          : 'runtime_missing',
        error: `The tests were not run: ${result.error ?? 'the runtime is not installed'}`,
      };
    case 'invalid':
      return { outcome: 'errors', error: `The tests could not be run: ${result.error ?? ''}` };
    case 'sandbox-error':
      return { outcome: 'sandbox_unavailable', error: result.error ?? 'The sandbox failed' };
    case 'time-limit':
      return {
        outcome: 'time_limit',
        error: `The tests were stopped: they did not finish within the time limit of ${result.limits.timeLimitSeconds} s`,
      };
    case 'ok':
    case 'exit':
      break;
    default:
      return { outcome: 'limit', error: `The tests were stopped: ${result.error ?? result.kind}` };
  }
  if (result.ok && failed === 0) return { outcome: 'passed', error: null };
  const status = result.exitCode;
  if (failed > 0) {
    return {
      outcome: 'failures',
      error:
        language === 'python'
          ? `${plural(failed, 'test')} of ${ran} failed or raised an error (pytest's exit status ${status ?? 'unknown'})`
          : `${plural(failed, 'check')} of ${ran} failed (lines 'not ok' in the output)` +
            (status ? `, and the test script exited with status ${status}` : ''),
    };
  }
  if (language === 'python') {
    switch (status) {
      case 5:
        return {
          outcome: 'no_tests',
          error: `pytest collected no tests: ${files.test} has no function whose name starts with test_ (pytest's exit status 5)`,
        };
      case 2:
        return {
          outcome: 'errors',
          error: `pytest stopped before running any test: collecting ${files.test} failed, usually an import or syntax error in the tests or in ${files.main} (pytest's exit status 2)`,
        };
      case 3:
        return {
          outcome: 'errors',
          error: "pytest failed with an internal error (pytest's exit status 3)",
        };
      case 4:
        return {
          outcome: 'errors',
          error: "pytest could not start: a usage error (pytest's exit status 4)",
        };
      default:
        return {
          outcome: 'errors',
          error: `The tests ended with an error before pytest reported its counts (exit status ${status ?? 'unknown'})`,
        };
    }
  }
  return {
    outcome: 'errors',
    error:
      `The test script ${files.test} stopped with an error before reporting its checks ` +
      `(${runner} exit status ${status ?? 'unknown'}); the output shows the error`,
  };
}

/** A test run as the result stores it. */
export function testRunOf(language: CodeLanguage, result: ExecutionResult): TestRun {
  const counts = countTests(language, result.output);
  const { outcome, error } = testOutcomeOf(language, result, counts);
  const status =
    outcome === 'passed'
      ? 'passed'
      : result.kind === 'unavailable' || result.kind === 'invalid'
        ? 'not_run'
        : 'failed';
  return {
    status,
    outcome,
    ...counts,
    output: tail(result.output),
    error,
    exitCode: result.exitCode,
    durationMs: status === 'not_run' ? null : result.durationMs,
  };
}

/** The run of tests the model did not write. */
export function testsNotWritten(reason: string): TestRun {
  return {
    status: 'not_run',
    outcome: 'not_written',
    passed: null,
    failed: null,
    output: '',
    error: reason,
    exitCode: null,
    durationMs: null,
  };
}
