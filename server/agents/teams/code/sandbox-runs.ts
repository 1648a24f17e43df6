import { CODE_FILES, type CodeConfiguration } from '../../../../common/teams/code';
import type { ExecutionResult, Sandbox } from '../../../engines/sandbox';
import type { Workspace } from '../../kit';
import { seconds } from './code-text';

/** The user's Terminal & Runtime time limit (the sandbox caps it at the server's maximum). */
export async function timeLimit(workspace: Workspace): Promise<number> {
  const settings = await workspace.settings.get();
  return settings.runtime.codeExecutionTimeLimitSeconds;
}

/** One line for the log about a run. */
export function runLine(what: string, r: ExecutionResult): string {
  if (r.ok) {
    const figs = r.figures.length > 0 ? `, ${r.figures.length} figure(s)` : '';
    return `${what} ran in the sandbox in ${seconds(r.durationMs)} without error${figs}`;
  }
  return r.kind === 'unavailable'
    ? `${what} was not run: ${r.error}`
    : `${what} failed in the sandbox: ${r.error}`;
}

/** Runs the program as the language's main file under the given time limit. */
export function runCode(
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
