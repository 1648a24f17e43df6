import { plural } from '../../../../common/text';
import {
  CODE_FILES,
  type CodeConfiguration,
  type WorkingFile,
} from '../../../../common/teams/code';
import type { ExecutionResult, Sandbox } from '../../../engines/sandbox';
import type { ProfilingService } from '../../../engines/profiling/service';
import type { PhaseLog, Workspace } from '../../kit';
import { seconds } from './code-text';
import { dataFilesOf, readWorkingFiles, type WorkingFileContent } from './working-files';

/** The user's Terminal & Runtime time limit (the sandbox caps it at the server's maximum). */
export async function timeLimit(workspace: Workspace): Promise<number> {
  const settings = await workspace.settings.get();
  return settings.runtime.codeExecutionTimeLimitSeconds;
}

/** One line for the log about a run. */
export function runLine(what: string, r: ExecutionResult): string {
  if (r.ok) {
    const figs = r.figures.length > 0 ? `, ${plural(r.figures.length, 'figure')}` : '';
    return `${what} ran in the sandbox in ${seconds(r.durationMs)} without error${figs}`;
  }
  return r.kind === 'unavailable'
    ? `${what} was not run: ${r.error}`
    : `${what} failed in the sandbox: ${r.error}`;
}

/** Runs the program as the language's main file under the given time limit, with its data. */
export function runCode(
  sandbox: Sandbox,
  c: CodeConfiguration,
  code: string,
  seconds: number,
  dataFiles: Record<string, Buffer> = {},
): Promise<ExecutionResult> {
  return sandbox.run({
    language: c.language,
    code,
    mainFile: CODE_FILES[c.language].main,
    timeLimitSeconds: seconds,
    dataFiles,
  });
}

/**
 * The session's project files for a phase after the first: read again with the user's rights. A
 * file gone or no longer readable since is logged and left out, so the phase keeps what it can
 * compute instead of failing.
 */
export async function sessionDataFiles(
  files: readonly WorkingFile[] | undefined,
  deps: { workspace: Workspace; profiling: ProfilingService; log: PhaseLog },
): Promise<{ files: WorkingFileContent[]; dataFiles: Record<string, Buffer> }> {
  if (!files || files.length === 0) return { files: [], dataFiles: {} };
  try {
    const read = await readWorkingFiles(files, deps);
    return { files: read, dataFiles: dataFilesOf(read) };
  } catch (err) {
    await deps.log.warn(
      `The project files could not be read again (${(err as Error).message}); this phase runs the code without them`,
    );
    return { files: [], dataFiles: {} };
  }
}
