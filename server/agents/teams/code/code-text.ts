import type { CodeLanguage, ExecutionSummary, TestRun } from '../../../../common/teams/code';
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

/** A test run as the result stores it. */
export function testRunOf(language: CodeLanguage, result: ExecutionResult): TestRun {
  const counts = countTests(language, result.output);
  const status =
    result.kind === 'unavailable' || result.kind === 'invalid'
      ? 'not_run'
      : result.ok && (counts.failed ?? 0) === 0
        ? 'passed'
        : 'failed';
  return {
    status,
    ...counts,
    output: tail(result.output),
    error:
      status === 'failed' &&
      (counts.failed ?? 0) > 0 &&
      (result.kind === 'ok' || result.kind === 'exit')
        ? `${counts.failed} test(s) failed`
        : (result.error ?? null),
    exitCode: result.exitCode,
    durationMs: status === 'not_run' ? null : result.durationMs,
  };
}
